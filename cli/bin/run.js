#!/usr/bin/env node
import { execute, settings } from '@oclif/core';
import { cwPaths } from '@cw/core/home';

// Compiled JavaScript only: skip oclif's TypeScript probing, which costs start-up time.
settings.enableAutoTranspile = false;

// oclif answers `--help` anywhere before a `--`, but after --prompt it is prompt text: fence the
// prompt with `--` (the grammar accepts one right before --prompt) so the command receives it.
const args = process.argv.slice(2);
const promptAt = args.findIndex((arg) => arg === '--prompt' || arg.startsWith('--prompt='));
if (promptAt > 0 && args.slice(promptAt + 1).includes('--help') && args[promptAt - 1] !== '--')
  args.splice(promptAt, 0, '--');

// oclif's plugin data lives in the cw home too (docs/config.md); oclif reads CW_DATA_DIR itself.
if (!process.env.CW_DATA_DIR?.trim()) process.env.CW_DATA_DIR = cwPaths().plugins;

await execute({ args, dir: import.meta.url });
