import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';

// Provider names and provider-owned wire vocabulary the core must never branch on.
const PROVIDER_NAMES =
  /deepseek|moonshot|kimi|openrouter|\bxai\b|z\.ai|\bzai\b|minimax|openmodel|codex|opencode|anthropic|openai|ollama|vllm|sglang|gemini|google/i;

// Credential formats are named after their issuers (an `xai-` key prefix): that is redaction data, not
// routing on a provider, and the redactor must know them to keep such keys out of every output.
const SECRET_SHAPES = join('core', 'src', 'redaction', 'secret-shapes.ts');

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Removes comments so that a why-comment naming a provider is allowed, and code naming one is not. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('the core names no provider', () => {
  it('has no provider name outside comments in core/src', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(REPO_ROOT, 'core', 'src'))) {
      if (file.endsWith(SECRET_SHAPES)) continue;
      const code = withoutComments(await readFile(file, 'utf8'));
      code.split('\n').forEach((line, index) => {
        if (PROVIDER_NAMES.test(line)) offenders.push(`${file.slice(REPO_ROOT.length)}:${index + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('imports no plugin package from the core', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(REPO_ROOT, 'core', 'src'))) {
      if (/from ['"]@cw\/(?!core)/.test(await readFile(file, 'utf8'))) offenders.push(file.slice(REPO_ROOT.length));
    }
    expect(offenders).toEqual([]);
  });
});
