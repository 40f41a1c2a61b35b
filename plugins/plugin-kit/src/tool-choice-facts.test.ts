import { describe, expect, it } from 'vitest';
import { toolChoiceFacts } from './tool-choice-facts.js';

describe('toolChoiceFacts', () => {
  it('no choice, or a null one, is null', () => {
    expect(toolChoiceFacts(undefined, 'name')).toBeNull();
    expect(toolChoiceFacts(null, 'name')).toBeNull();
  });

  it('a string is its own kind, with no name', () => {
    expect(toolChoiceFacts('auto', 'name')).toEqual({ kind: 'auto', name: null });
    expect(toolChoiceFacts('required', 'function.name')).toEqual({ kind: 'required', name: null });
  });

  it('an object: kind from `type`, name from the path the dialect nests it at', () => {
    expect(toolChoiceFacts({ type: 'function', function: { name: 'read_file' } }, 'function.name')).toEqual({
      kind: 'function',
      name: 'read_file',
    });
    expect(toolChoiceFacts({ type: 'tool', name: 'read_file' }, 'name')).toEqual({ kind: 'tool', name: 'read_file' });
    expect(toolChoiceFacts({ type: 'any' }, 'name')).toEqual({ kind: 'any', name: null });
  });

  it('reads the name only where the dialect says it is', () => {
    expect(toolChoiceFacts({ type: 'function', name: 'beside' }, 'function.name')).toEqual({
      kind: 'function',
      name: null,
    });
    expect(toolChoiceFacts({ type: 'function', function: { name: 'nested' } }, 'name')).toEqual({
      kind: 'function',
      name: null,
    });
  });

  it('an object without a string type is kind "object"; a non-string name is no name', () => {
    expect(toolChoiceFacts({ name: 'x' }, 'name')).toEqual({ kind: 'object', name: 'x' });
    expect(toolChoiceFacts({ type: 3, name: 4 }, 'name')).toEqual({ kind: 'object', name: null });
  });

  it('any other value is reported by its JSON type', () => {
    expect(toolChoiceFacts(true, 'name')).toEqual({ kind: 'boolean', name: null });
    expect(toolChoiceFacts(1, 'name')).toEqual({ kind: 'number', name: null });
    expect(toolChoiceFacts(['auto'], 'name')).toEqual({ kind: 'object', name: null });
  });
});
