import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerInitializeEarly } from '../acp/early-initialize.js';
import { CLI_ROOT } from '../package-folder.js';
import { fastRuntimeSource } from './fast-runtime-source.js';

// `cw acp` without oclif: an editor starts cw and waits for its answer to `initialize`; loading oclif
// and its plugin discovery was most of that wait (docs/performance.md, "Every entry"). bin/run.js
// calls this first for `acp` alone; it finds the plugins the way the send entry does
// (fast-runtime-source.ts) and serves the very protocol the command serves (acp/serve-acp.ts). With
// any argument (`--help`), or when only oclif can find the plugins, it declines and oclif runs it.
// It answers a plain `initialize` before the protocol SDK loads (acp/early-initialize.ts).

/** Serves `cw acp` when this entry can do exactly what the command would; false, having done nothing, when oclif must. */
export async function fastAcp(argv: readonly string[]): Promise<boolean> {
  if (argv.length !== 0) return false;
  const source = fastRuntimeSource();
  if (source === undefined) return false;
  // oclif's `config.version` is this package's version: initialize reports the same.
  const { version } = JSON.parse(readFileSync(join(CLI_ROOT, 'package.json'), 'utf8')) as { version: string };
  const streams = await answerInitializeEarly({ input: process.stdin, output: process.stdout, version });
  const { serveAcp } = await import('../acp/serve-acp.js');
  try {
    await serveAcp({ source, version, ...streams });
  } catch (error) {
    const { reportError } = await import('../render/report-error.js');
    await reportError({ exit: (code) => process.exit(code) }, error);
  }
  return true;
}
