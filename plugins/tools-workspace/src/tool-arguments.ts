import type { ToolArguments } from './tool-types.js';

/** A read argument, or the message explaining why it is unusable. */
export type ArgumentResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

function valid<T>(value: T): ArgumentResult<T> {
  return { ok: true, value };
}

function invalid<T>(error: string): ArgumentResult<T> {
  return { ok: false, error };
}

/** The arguments as an object; the loop validates them, but a tool never trusts that blindly. */
export function argumentsObject(args: unknown): ArgumentResult<ToolArguments> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return invalid('arguments must be a JSON object');
  }
  return valid(args as ToolArguments);
}

/** A required string argument. */
export function requiredString(args: ToolArguments, name: string): ArgumentResult<string> {
  const value = args[name];
  if (value === undefined || value === null) return invalid(`missing required argument ${name}`);
  if (typeof value !== 'string') return invalid(`argument ${name} must be a string`);
  return valid(value);
}

/** An optional string argument. */
export function optionalString(args: ToolArguments, name: string): ArgumentResult<string | undefined> {
  const value = args[name];
  if (value === undefined || value === null) return valid(undefined);
  if (typeof value !== 'string') return invalid(`argument ${name} must be a string`);
  return valid(value);
}

/** An optional boolean argument. */
export function optionalBoolean(args: ToolArguments, name: string): ArgumentResult<boolean | undefined> {
  const value = args[name];
  if (value === undefined || value === null) return valid(undefined);
  if (typeof value !== 'boolean') return invalid(`argument ${name} must be true or false`);
  return valid(value);
}

/** An optional integer argument within [minimum, maximum]. */
export function optionalInteger(
  args: ToolArguments,
  name: string,
  minimum: number,
  maximum: number = Number.MAX_SAFE_INTEGER,
): ArgumentResult<number | undefined> {
  const value = args[name];
  if (value === undefined || value === null) return valid(undefined);
  if (typeof value !== 'number' || !Number.isInteger(value)) return invalid(`argument ${name} must be an integer`);
  if (value < minimum || value > maximum) {
    return invalid(
      maximum === Number.MAX_SAFE_INTEGER
        ? `argument ${name} must be at least ${minimum}`
        : `argument ${name} must be between ${minimum} and ${maximum}`,
    );
  }
  return valid(value);
}

/** A short, single-line, control-character-free label for the status line: the first `max` characters. */
export function label(text: unknown, max = 60): string {
  if (typeof text !== 'string') return '';
  const flat = text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
  const chars = [...flat];
  return chars.length <= max ? flat : chars.slice(0, max).join('');
}
