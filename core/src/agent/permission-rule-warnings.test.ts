import { describe, expect, it } from 'vitest';
import { checkConfigText } from '../config/cw-config.js';
import { permissionRuleWarnings } from './permission-rule-warnings.js';

async function config(permissions: object) {
  const checked = await checkConfigText(
    JSON.stringify({
      permissions,
      mcpServers: { memory: { command: 'memory-server' }, fs: { command: 'fs-server', disabled: true } },
    }),
  );
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.config;
}

describe('permissionRuleWarnings', () => {
  it('accepts server-wide rules in the schema and warns about none that name something', async () => {
    const loaded = await config({
      allow: ['mcp__memory__*', 'mcp__fs', 'read_file', 'shell(npm test:*)', 'search_tools'],
      deny: ['mcp__memory__delete_entities'],
    });
    expect(permissionRuleWarnings(loaded, ['read_file', 'shell'])).toEqual([]);
  });

  it('names each rule that matches no tool and no configured server, never its command', async () => {
    const loaded = await config({ allow: ['mcp__memroy__*', 'shel(rm -rf secret:*)'], deny: ['mcp__nothing'] });
    expect(permissionRuleWarnings(loaded, ['shell'])).toEqual([
      'permissions.allow rule mcp__memroy__* matches no tool of a loaded plugin and no configured MCP server',
      'permissions.allow rule shel(…) matches no tool of a loaded plugin and no configured MCP server',
      'permissions.deny rule mcp__nothing matches no tool of a loaded plugin and no configured MCP server',
    ]);
  });

  it('the schema still refuses a rule that is neither a tool name nor a server rule', async () => {
    const checked = await checkConfigText(JSON.stringify({ permissions: { allow: ['mcp__*', 'a b'] } }));
    expect(checked.ok).toBe(false);
  });
});
