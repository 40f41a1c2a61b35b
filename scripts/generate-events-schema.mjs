#!/usr/bin/env node
// Writes docs/events.schema.json, the published shape of `cw send --output-format stream-json`'s
// lines, from its description in the core (core/src/agent-api/event-lines-schema.ts), through the
// built core. `npm run build` runs it after compiling; the file is rewritten only when it changed.
// `--check` only compares and exits 1 when the checked-in file is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../docs/events.schema.json', import.meta.url));
const { eventsJsonSchemaText } = await import('../core/dist/agent-api/event-lines-schema.js');
const fresh = eventsJsonSchemaText();
const current = await readFile(target, 'utf8').catch(() => '');

if (process.argv.includes('--check')) {
  if (current !== fresh) {
    process.stderr.write('docs/events.schema.json is stale: run npm run schema\n');
    process.exit(1);
  }
  process.stdout.write('docs/events.schema.json is up to date\n');
} else if (current !== fresh) {
  await writeFile(target, fresh);
  process.stdout.write('wrote docs/events.schema.json\n');
}
