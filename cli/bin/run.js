#!/usr/bin/env node
import { execute, settings } from '@oclif/core';

// Compiled JavaScript only: skip oclif's TypeScript probing, which costs start-up time.
settings.enableAutoTranspile = false;
await execute({ dir: import.meta.url });
