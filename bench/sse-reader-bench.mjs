// How the reply reader scales with event size: the same 20 MB of SSE text, once as a single event and
// once as 1 KB events, fed in 64 KB chunks as a socket delivers them. The reader must be linear in
// bytes, so the two should take about as long (target: within 2x of each other).
import { readWireEvents } from '../core/dist/transport/read-wire-events.js';

const TOTAL_BYTES = 20 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const RUNS = 5;

function sseText(eventBytes) {
  const blocks = [];
  let size = 0;
  while (size < TOTAL_BYTES) {
    const text = 'x'.repeat(Math.min(eventBytes, TOTAL_BYTES - size));
    blocks.push(`data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`);
    size += text.length;
  }
  blocks.push('data: [DONE]\n\n');
  return Buffer.from(blocks.join(''), 'utf8');
}

async function* chunks(bytes) {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
}

async function timeRead(bytes) {
  const started = process.hrtime.bigint();
  let events = 0;
  for await (const _event of readWireEvents({ status: 200, contentType: 'text/event-stream', body: chunks(bytes) }))
    events++;
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, events };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const single = sseText(TOTAL_BYTES);
const small = sseText(1024);
const singleRuns = [];
const smallRuns = [];
let counts;
for (let run = 0; run < RUNS; run++) {
  const one = await timeRead(single);
  const many = await timeRead(small);
  singleRuns.push(one.ms);
  smallRuns.push(many.ms);
  counts = [one.events, many.events];
}
const ratio = median(singleRuns) / median(smallRuns);
console.log('SSE reader, 20 MB of reply text, 64 KB chunks, median of', RUNS);
console.log(`  one 20 MB event:   ${median(singleRuns).toFixed(0)} ms (${counts[0]} events)`);
console.log(`  1 KB events:       ${median(smallRuns).toFixed(0)} ms (${counts[1]} events)`);
console.log(`  ratio one/many:    ${ratio.toFixed(2)} (target <= 2.00) ${ratio <= 2 ? 'met' : 'MISSED'}`);
