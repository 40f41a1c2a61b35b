import { SEARCH_TOOLS_NAME } from '../catalog/defer-catalog.js';
import type { CwConfig } from '../config/cw-config.js';
import { safeUserLabel } from '../redaction/safe-user-label.js';
import { mcpServerOfRule } from './approval-policy.js';

/**
 * One line per `permissions` rule that names nothing cw knows: no tool of a loaded plugin and no
 * configured MCP server (a rule `mcp__<server>__<tool>` counts when its server is configured, since
 * the server's tools are only known once it runs). Such a rule is most likely a typo that would
 * silently allow or deny nothing (docs/config.md).
 */
export function permissionRuleWarnings(config: CwConfig, pluginToolNames: readonly string[]): string[] {
  const tools = new Set([...pluginToolNames, SEARCH_TOOLS_NAME]);
  const servers = Object.keys(config.mcpServers);
  const warnings: string[] = [];
  for (const kind of ['allow', 'deny'] as const) {
    for (const rule of config.permissions[kind]) {
      if (ruleNamesSomething(rule, tools, servers)) continue;
      warnings.push(
        `permissions.${kind} rule ${ruleLabel(rule)} matches no tool of a loaded plugin and no configured MCP server`,
      );
    }
  }
  return warnings;
}

function ruleNamesSomething(rule: string, tools: ReadonlySet<string>, servers: readonly string[]): boolean {
  const name = /^([A-Za-z0-9_-]+)/.exec(rule.trim())?.[1] ?? '';
  if (tools.has(name)) return true;
  const server = mcpServerOfRule(rule);
  if (server !== null && servers.includes(server)) return true;
  // A single tool of a configured server: `mcp__<server>__<tool>`.
  return servers.some((candidate) => name.startsWith(`mcp__${candidate}__`));
}

// The rule's tool-name part as the user wrote it (or its fingerprint); a command is never repeated.
function ruleLabel(rule: string): string {
  const trimmed = rule.trim();
  const name = /^[A-Za-z0-9_-]+/.exec(trimmed)?.[0] ?? '';
  const rest = trimmed.slice(name.length);
  return `${name === '' ? '' : safeUserLabel(name)}${rest === '*' ? '*' : rest === '' ? '' : '(…)'}`;
}
