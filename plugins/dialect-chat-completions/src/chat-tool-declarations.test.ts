import type { WireToolSpec } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { LIST_DIR_TOOL, READ_FILE_TOOL } from '../../../test/support/build-context.js';
import { chatToolDeclarations } from './chat-tool-declarations.js';

// Frozen all the way down, as the core's kept projection hands its tools out.
function frozenTool(tool: WireToolSpec): WireToolSpec {
  return Object.freeze({ ...tool, parameters: structuredClone(tool.parameters) });
}

const frozenList = (tools: readonly WireToolSpec[]): readonly WireToolSpec[] => Object.freeze(tools.map(frozenTool));

describe('chatToolDeclarations', () => {
  it('hands back the same frozen declarations for the same frozen list', () => {
    const tools = frozenList([READ_FILE_TOOL, LIST_DIR_TOOL]);
    const first = chatToolDeclarations(tools);
    expect(chatToolDeclarations(tools)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as unknown[])[0])).toBe(true);
    // What a list that is not kept gets, key for key and in the same order.
    expect(JSON.stringify(first)).toBe(JSON.stringify(chatToolDeclarations([READ_FILE_TOOL, LIST_DIR_TOOL])));
    expect(first).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: READ_FILE_TOOL.description,
          parameters: READ_FILE_TOOL.parameters,
          strict: true,
        },
      },
      {
        type: 'function',
        function: {
          name: LIST_DIR_TOOL.name,
          description: LIST_DIR_TOOL.description,
          parameters: LIST_DIR_TOOL.parameters,
        },
      },
    ]);
  });

  it('builds new declarations for a list whose tool declaration changed', () => {
    const before = chatToolDeclarations(frozenList([READ_FILE_TOOL, LIST_DIR_TOOL]));
    const changed = frozenList([{ ...READ_FILE_TOOL, description: 'Read one file.' }, LIST_DIR_TOOL]);
    const after = chatToolDeclarations(changed);
    expect(after).not.toBe(before);
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    expect(JSON.stringify(after)).toContain('Read one file.');
  });

  it('keeps nothing for a list or a tool that is not frozen', () => {
    const open = [READ_FILE_TOOL];
    const first = chatToolDeclarations(open);
    expect(chatToolDeclarations(open)).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);
    const frozenListOfOpenTools = Object.freeze([{ ...READ_FILE_TOOL }]);
    expect(chatToolDeclarations(frozenListOfOpenTools)).not.toBe(chatToolDeclarations(frozenListOfOpenTools));
  });
});
