import { describe, expect, it } from 'vitest';
import { mcpFileChange } from './mcp-file-change.js';

describe('mcpFileChange', () => {
  it('reads server-filesystem style write_file and edit_file arguments', () => {
    expect(mcpFileChange({ path: '/w/notes.txt', content: 'hi\n' })).toEqual({ path: '/w/notes.txt', content: 'hi\n' });
    expect(mcpFileChange({ path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }], dryRun: false })).toEqual({
      path: 'a.txt',
      edits: [{ oldText: 'a', newText: 'b' }],
    });
  });

  it('names no change for other shapes', () => {
    expect(mcpFileChange({ query: 'x' })).toBeNull();
    expect(mcpFileChange({ path: 'a.txt' })).toBeNull();
    expect(mcpFileChange({ path: '', content: 'x' })).toBeNull();
    expect(mcpFileChange({ path: 'a.txt', edits: [{ oldText: 'a' }] })).toBeNull();
    expect(mcpFileChange({ path: 'a.txt', edits: [] })).toBeNull();
  });
});
