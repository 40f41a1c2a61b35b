import type { ToolSchemaRules } from '../tool-schema-rules.js';

/** Whether a route accepts a keyword: not denied, and on the allowlist when the route has one. */
export function acceptsKeyword(rules: ToolSchemaRules, keyword: string): boolean {
  if (rules.deny_keywords.includes(keyword)) return false;
  return rules.allow_keywords === null || rules.allow_keywords.includes(keyword);
}

/** Whether a route accepts a `format` value (any value, when it names no list). */
export function acceptsFormat(rules: ToolSchemaRules, format: unknown): boolean {
  return rules.allowed_formats === null || (typeof format === 'string' && rules.allowed_formats.includes(format));
}
