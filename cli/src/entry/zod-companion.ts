// The entry of cli/dist/zod.cjs, the bundle the preview and send bundle loads zod from when it first
// builds a schema (core/src/validation/lazy-zod.ts, compile-bundle.ts): zod is as large as the rest of
// that bundle, and a preview with no config file never runs it, so it is kept apart from the file
// every preview reads and hashes (docs/performance.md, "One file, compiled once").
export { z } from 'zod';
