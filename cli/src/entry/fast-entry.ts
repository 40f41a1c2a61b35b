// The oclif-free entries, as one module: scripts/bundle-cli.mjs bundles this file, the core and the
// packages they load into cli/dist/fast-entry.cjs, which bin/run.js reads through
// load-fast-entry.ts with its V8 code cache (docs/performance.md, "One file, compiled once").
export { fastPreview } from './fast-preview.js';
export { fastSend } from './fast-send.js';
