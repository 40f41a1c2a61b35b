// Runs inside bubblewrap's network namespace, as `node -e`: it listens on the namespace's loopback
// port and hands each connection it accepts to cw over the IPC channel cw spawned it with, where the
// proxy serves it; then it runs the command and exits as it does. The seccomp filter refuses every
// Unix socket, so the bridge cannot dial out: the channel is made by cw and inherited, and file
// descriptors passed over it need no new socket. Plain JavaScript in a string, so it needs no file of
// cw's inside the sandbox.
/** The bridge's source: argv is the port, then the command's argv. */
export const BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [port, ...argv] = process.argv.slice(1);
const server = net.createServer({ pauseOnConnect: true }, (inner) => {
  process.send('connection', inner, (error) => { if (error) inner.destroy(); });
});
server.listen(Number(port), '127.0.0.1', () => {
  // fd 5, when cw gave one, is the channel the command's prelude waits on (docs/agent-loop.md).
  let channel = 'ignore';
  try { require('node:fs').fstatSync(5); channel = 5; } catch {}
  const child = spawn(argv[0], argv.slice(1), { stdio: [0, 1, 2, 'ignore', 'ignore', channel] });
  child.on('error', () => process.exit(127));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
});
`;

/** The message the bridge sends with each connection it hands over. */
export const BRIDGE_MESSAGE = 'connection';
