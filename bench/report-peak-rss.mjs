// Preloaded with --import into both sides of the memory figure: on exit, writes the process's peak
// resident set (kB, the kernel's own accounting) to the file CW_BENCH_RSS_FILE names.
import { writeFileSync } from 'node:fs';

const file = process.env.CW_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
