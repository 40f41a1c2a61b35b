// Validators for request bodies against the published provider schemas (trimmed copies in
// test/fixtures/specs/, see SOURCES.md there). A structural sanity check for tests: the OpenAI
// schemas are open (unknown keys pass) and differ from server behaviour in places, so they are
// not the sole oracle for what a provider accepts.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export type WireDialect =
  | 'chat-completions'
  | 'anthropic-messages'
  | 'openai-responses'
  | 'gemini-generate-content'
  | 'ollama-chat';

const SCHEMA_FILES: Record<WireDialect, string> = {
  'chat-completions': 'openai-chat-completions-request.schema.json',
  'anthropic-messages': 'anthropic-messages-request.schema.json',
  'openai-responses': 'openai-responses-request.schema.json',
  'gemini-generate-content': 'gemini-generate-content-request.schema.json',
  'ollama-chat': 'ollama-chat-request.schema.json',
};

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const compiled = new Map<string, ValidateFunction>();

function validatorFor(file: string): ValidateFunction {
  const cached = compiled.get(file);
  if (cached) return cached;
  const url = new URL(`../fixtures/specs/${file}`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  // strict: false ignores the OpenAPI-only keywords kept as published (discriminator, example, x-*).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv); // uri (OpenAI), byte (Anthropic base64 data, Gemini thought signatures)
  ajv.addFormat('float', true); // OpenAPI numeric format, no constraint beyond `type: number`
  const validate = ajv.compile(schema);
  compiled.set(file, validate);
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  const detail =
    typeof params['additionalProperty'] === 'string'
      ? ` (${params['additionalProperty']})`
      : Array.isArray(params['allowedValues'])
        ? ` (${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
        : '';
  return `${where} ${error.message ?? error.keyword}${detail}`;
}

/** Validate a request body against the dialect's published request schema. */
export function validateWireBody(dialect: WireDialect, body: unknown): { valid: boolean; errors: string[] } {
  return validateWith(SCHEMA_FILES[dialect], body);
}

/** Validate one Gemini reply chunk (or whole reply) against the published GenerateContentResponse. */
export function validateGeminiReply(reply: unknown): { valid: boolean; errors: string[] } {
  return validateWith('gemini-generate-content-response.schema.json', reply);
}

function validateWith(file: string, value: unknown): { valid: boolean; errors: string[] } {
  const validate = validatorFor(file);
  const valid = validate(value) as boolean;
  const errors = valid ? [] : [...new Set((validate.errors ?? []).map(describe))];
  return { valid, errors };
}
