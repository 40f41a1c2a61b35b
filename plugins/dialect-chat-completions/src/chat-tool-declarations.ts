import type { JsonValue, WireToolSpec } from '@cw/core/plugin';

// A frozen list of frozen tools cannot change, so its declarations are built once and frozen: every
// step of a loop sends the same list, and the core then finds the member it already wrote by identity
// rather than by comparing 60 objects (docs/performance.md, "Work done once per process").
const built = new WeakMap<readonly WireToolSpec[], JsonValue>();

/** The body's `tools` member for these tools: the same frozen value for the same frozen list, new otherwise. */
export function chatToolDeclarations(tools: readonly WireToolSpec[]): JsonValue {
  // A list is kept only once it and its tools were seen frozen, which they stay.
  const kept = built.get(tools);
  if (kept !== undefined) return kept;
  if (!Object.isFrozen(tools) || !tools.every((tool) => Object.isFrozen(tool))) return tools.map(declaration);
  const declarations = Object.freeze(tools.map((tool) => freezeDeclaration(declaration(tool)))) as JsonValue;
  built.set(tools, declarations);
  return declarations;
}

function declaration(tool: WireToolSpec): { [key: string]: JsonValue } {
  // Assigned rather than spread in: the same keys in the same order, without copying an object per tool.
  const fn: { [key: string]: JsonValue } = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters as JsonValue,
  };
  if (tool.strict) fn['strict'] = true;
  return { type: 'function', function: fn };
}

// Freezes the two objects this module built; the schema is the tool's own, frozen or not as it came.
function freezeDeclaration(value: { [key: string]: JsonValue }): JsonValue {
  Object.freeze(value['function']);
  return Object.freeze(value);
}
