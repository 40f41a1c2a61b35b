// Measures cw's canonical-JSON + SHA-256 pipeline against the non-canonical floor
// (JSON.stringify + SHA-256) and against @noble/hashes, on request-shaped bodies.
// Usage: npm run build && node --expose-gc bench/hash-bench.mjs
import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalJson, sha256Hex } from '../core/dist/index.js';

const RUNS = Number(process.env.RUNS ?? 9);

function body(messages) {
  const text = 'Refactor the parser so that 日本語 and emoji 😀 survive; keep "quotes" and \\ backslashes. ';
  return {
    model: 'bench-model',
    messages: Array.from({ length: messages }, (_, index) => ({
      role: index % 2 ? 'assistant' : 'user',
      content: text.repeat(8) + index,
    })),
    tools: Array.from({ length: 20 }, (_, index) => ({
      type: 'function',
      function: {
        name: `tool_${index}`,
        parameters: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      },
    })),
    stream: true,
  };
}

function median(run) {
  const times = [];
  for (let index = 0; index < RUNS; index += 1) {
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

for (const count of [1_500, 30_000]) {
  const value = body(count);
  const megabytes = Buffer.byteLength(JSON.stringify(value)) / 1e6;
  const canonical = median(() => sha256Hex(canonicalJson(value)));
  const floor = median(() =>
    createHash('sha256')
      .update(Buffer.from(JSON.stringify(value)))
      .digest('hex'),
  );
  const noble = median(() => bytesToHex(sha256(Buffer.from(canonicalJson(value)))));
  console.log(
    `${megabytes.toFixed(2)} MB body: canonical+sha256 ${canonical.toFixed(1)} ms (${(megabytes / (canonical / 1000)).toFixed(0)} MB/s), ` +
      `floor ${floor.toFixed(1)} ms, ratio ${(canonical / floor).toFixed(2)}x; canonical+noble ${noble.toFixed(1)} ms`,
  );
}
