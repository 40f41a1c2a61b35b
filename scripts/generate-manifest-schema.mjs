#!/usr/bin/env node
// Writes docs/manifest.schema.json from the manifest's zod schema (core/src/manifest/manifest-schema.ts),
// through the built core. `--check` only compares and exits 1 when the checked-in file is stale.
// Run it with `npm run schema` (which builds first).
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../docs/manifest.schema.json', import.meta.url));
const { manifestJsonSchemaText } = await import('../core/dist/manifest/manifest-json-schema.js');
// The built-in reasons: the core's and its features' registrations (a plugin's match a pattern besides).
const { builtinReasonTable } = await import('../core/dist/features/builtin-reason-table.js');
const fresh = manifestJsonSchemaText(builtinReasonTable());

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== fresh) {
    process.stderr.write('docs/manifest.schema.json is stale: run npm run schema\n');
    process.exit(1);
  }
  process.stdout.write('docs/manifest.schema.json is up to date\n');
} else {
  await writeFile(target, fresh);
  process.stdout.write('wrote docs/manifest.schema.json\n');
}
