import { describe, expect, it } from 'vitest';
import { capabilityRowSchema } from '../route/capability-row.js';
import { SCHEMA_DIALECT_PRESETS, withSchemaDialectDefaults } from './schema-dialects.js';
import { toolSchemaRulesInputSchema, toolSchemaRulesSchema } from './tool-schema-rules.js';

describe('tool-schema rules schema', () => {
  it.each(Object.entries(SCHEMA_DIALECT_PRESETS))('accepts the %s preset as complete rules', (_name, preset) => {
    expect(toolSchemaRulesSchema.parse(preset)).toEqual(preset);
  });

  it('a preset with a field missing is not complete', () => {
    const { max_tools: _dropped, ...partial } = SCHEMA_DIALECT_PRESETS.loose;
    expect(toolSchemaRulesSchema.safeParse(partial).success).toBe(false);
  });

  it('the row form needs only the dialect and refuses fields the rules do not have', () => {
    expect(toolSchemaRulesInputSchema.safeParse({ dialect: 'strict' }).success).toBe(true);
    expect(toolSchemaRulesInputSchema.safeParse({ deny_keywords: [] }).success).toBe(false);
    expect(toolSchemaRulesInputSchema.safeParse({ dialect: 'strict', allows_everything: true }).success).toBe(false);
    expect(toolSchemaRulesInputSchema.safeParse({ dialect: 'loose', name_pattern: '(' }).success).toBe(false);
  });

  it('a row resolves to the same complete rules withSchemaDialectDefaults gives', () => {
    const written = { dialect: 'mfjs', max_tools: 12, deny_keywords: ['pattern'] };
    const row = capabilityRowSchema.shape.tool_schema.parse(written);
    expect(row).toEqual(withSchemaDialectDefaults(written));
    expect(toolSchemaRulesSchema.parse(row)).toEqual(row);
  });
});
