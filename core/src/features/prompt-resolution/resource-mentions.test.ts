import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../config/cw-config.js';
import { splitMentions } from './resource-mentions.js';

const server = (disabled = false): McpServerConfig =>
  ({ command: 'node', args: [], env: {}, disabled }) as unknown as McpServerConfig;

describe('splitMentions', () => {
  it('takes server:uri as a resource only when the server is configured and enabled', () => {
    const servers = { docs: server(), off: server(true) };
    const { files, resources } = splitMentions(
      [
        { path: 'docs:demo://a/b' },
        { path: 'off:demo://c' },
        { path: 'other:thing' },
        { path: './docs:x' },
        { path: 'docs:' },
        { path: 'src/a.ts' },
      ],
      servers,
    );
    expect(resources).toEqual([{ server: 'docs', uri: 'demo://a/b' }]);
    expect(files.map((mention) => mention.path)).toEqual([
      'off:demo://c',
      'other:thing',
      './docs:x',
      'docs:',
      'src/a.ts',
    ]);
  });

  it('a server named like an object property is not one unless configured', () => {
    expect(splitMentions([{ path: 'constructor:x' }, { path: '__proto__:y' }], {}).resources).toEqual([]);
  });
});
