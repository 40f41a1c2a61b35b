import { isDeepFrozen } from '../canonical/deep-frozen.js';
import { sha256Hex } from '../canonical/sha256.js';
import { SmallLru } from '../canonical/small-lru.js';

/** What a schema check returns: zod's safeParse result, as far as the core reads it. */
export type CheckResult<Output> =
  | { readonly success: true; readonly data: Output }
  | { readonly success: false; readonly error: { readonly issues: readonly CheckIssue[] } };

/** One problem a schema found, as the core reports it. */
export interface CheckIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Anything with zod's safeParse. */
export interface SafeParsable<Output> {
  safeParse(input: unknown): CheckResult<Output>;
}

/**
 * Schema outputs recorded for inputs seen before, by schema name and a hash of the input's exact JSON
 * text. A check is a pure function of its input, so an input seen before has the output recorded
 * then. The CLI records the checks of the built-in plugins' rows and of an empty config when it is
 * built, so a preview of them never loads zod (docs/performance.md).
 */
export interface CheckedValues {
  readonly version: 1;
  /** `<schema>:<sha256 of the input's JSON text>` → the output's JSON text and the paths zod froze. */
  readonly entries: Readonly<Record<string, CheckedEntry>>;
}

/** One recorded output. */
export interface CheckedEntry {
  readonly output: string;
  /** JSON Pointers of the arrays and objects zod returned frozen (`.readonly()`); `""` is the whole value. */
  readonly frozen: readonly string[];
}

let known: Readonly<Record<string, CheckedEntry>> = {};
let recording: Record<string, CheckedEntry> | undefined;
// Successes checked in this process: a route's row is checked again on every turn of an agent loop.
const seen = new Map<string, CheckedEntry>();
const MAX_SEEN = 256;
const MAX_SEEN_OUTPUT = 1 << 16;
// The same successes by schema and input text (an agent loop checks its route's row twice a turn).
const seenTexts = new Map<string, SmallLru<string, CheckedEntry>>();
const MAX_TEXTS_PER_SCHEMA = 16;
// Each recorded entry's frozen pointers, split into steps once.
const frozenPaths = new WeakMap<CheckedEntry, string[][]>();

/** Lets checks answer from recorded outputs; a file that is not a CheckedValues is ignored. */
export function useCheckedValues(values: unknown): boolean {
  if (!isCheckedValues(values)) return false;
  known = values.entries;
  seen.clear();
  seenTexts.clear();
  return true;
}

/** Starts recording every successful check; the returned function stops and hands over what was recorded. */
export function recordCheckedValues(): () => CheckedValues {
  seen.clear();
  seenTexts.clear();
  recording = {};
  return () => {
    const entries = recording ?? {};
    recording = undefined;
    return { version: 1, entries };
  };
}

/** Whether checks are being recorded: a cache above the checks must let each one reach them then. */
export function checksRecording(): boolean {
  return recording !== undefined;
}

/**
 * `schema.safeParse(input)`, answered from the recorded outputs, or from an earlier check in this
 * process, when this exact input was checked before. Only successes are kept: a failure always
 * reaches the schema, which names the problem.
 */
export function checkWith<Output>(name: string, schema: SafeParsable<Output>, input: unknown): CheckResult<Output> {
  const text = exactJsonText(input);
  // The same input text again in this process is looked up by the text itself, without hashing it.
  const byText = text === undefined ? undefined : seenTexts.get(name);
  const again = text === undefined ? undefined : byText?.get(text);
  if (again !== undefined) return { success: true, data: revive(again) as Output };
  const key = text === undefined ? undefined : `${name}:${sha256Hex(text)}`;
  const entry = key === undefined ? undefined : (known[key] ?? seen.get(key));
  if (entry !== undefined) {
    remember(name, text as string, entry);
    return { success: true, data: revive(entry) as Output };
  }
  const result = schema.safeParse(input);
  if (key !== undefined && result.success) {
    const recorded = record(result.data);
    if (recorded !== undefined && recording !== undefined) recording[key] = recorded;
    else if (recorded !== undefined && recorded.output.length <= MAX_SEEN_OUTPUT && seen.size < MAX_SEEN) {
      seen.set(key, recorded);
      remember(name, text as string, recorded);
    }
  }
  return result;
}

/** Keeps an answered input's text, for a schema, up to a few per schema. */
function remember(name: string, text: string, entry: CheckedEntry): void {
  if (recording !== undefined || text.length > MAX_SEEN_OUTPUT) return;
  let texts = seenTexts.get(name);
  if (texts === undefined) {
    texts = new SmallLru<string, CheckedEntry>(MAX_TEXTS_PER_SCHEMA);
    seenTexts.set(name, texts);
  }
  texts.set(text, entry);
}

/**
 * The input's JSON text, or undefined when JSON text would not say exactly what the schema sees:
 * `undefined` members, functions, -0, non-finite numbers, class instances, accessors or symbols.
 * Two inputs with the same text then get the same verdict. Key order is kept, since a record's output
 * keeps its input's order.
 */
export function exactJsonText(value: unknown): string | undefined {
  const frozen = isDeepFrozen(value);
  if (frozen && frozenTexts.has(value as object)) return frozenTexts.get(value as object);
  const text = isExactJson(value, 0) ? JSON.stringify(value) : undefined;
  if (frozen) frozenTexts.set(value as object, text);
  return text;
}

// A value frozen all the way down cannot change its text, nor whether it has one: both are worked out
// once (a tap that answers with the same frozen row on every step).
const frozenTexts = new WeakMap<object, string | undefined>();

const MAX_DEPTH = 64;

function isExactJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index += 1) {
      if (!Object.hasOwn(value, index) || !isExactJson(value[index], depth + 1)) return false;
    }
    return Object.getOwnPropertySymbols(value).length === 0;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  // A symbol or a non-enumerable key is among the own keys but not among the enumerable string ones.
  if (Reflect.ownKeys(value).length !== keys.length) return false;
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) return false;
    if (!isExactJson(descriptor.value, depth + 1)) return false;
  }
  return true;
}

/** The output as JSON text plus where zod froze it; undefined when JSON cannot carry it exactly. */
function record(output: unknown): CheckedEntry | undefined {
  if (!isExactJson(output, 0)) return undefined;
  const frozen: string[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Object.isFrozen(node)) frozen.push(pointer);
    for (const [key, child] of Object.entries(node))
      walk(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(output, '');
  return { output: JSON.stringify(output), frozen };
}

/** A fresh copy of a recorded output, frozen where zod froze it: callers get what zod would give them. */
function revive(entry: CheckedEntry): unknown {
  const value = JSON.parse(entry.output) as unknown;
  let paths = frozenPaths.get(entry);
  if (paths === undefined) {
    // Deepest first, so a frozen parent is frozen after its children.
    paths = [...entry.frozen].reverse().map((pointer) =>
      pointer
        .split('/')
        .slice(1)
        .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~')),
    );
    frozenPaths.set(entry, paths);
  }
  for (const path of paths) {
    let node: unknown = value;
    for (const step of path) node = (node as Record<string, unknown>)[step];
    Object.freeze(node);
  }
  return value;
}

function isCheckedValues(value: unknown): value is CheckedValues {
  if (typeof value !== 'object' || value === null) return false;
  const { version, entries } = value as { version?: unknown; entries?: unknown };
  if (version !== 1 || typeof entries !== 'object' || entries === null || Array.isArray(entries)) return false;
  return Object.values(entries).every(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as CheckedEntry).output === 'string' &&
      Array.isArray((entry as CheckedEntry).frozen) &&
      (entry as CheckedEntry).frozen.every((pointer) => typeof pointer === 'string'),
  );
}
