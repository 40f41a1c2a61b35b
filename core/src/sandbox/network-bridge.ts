// Runs inside bubblewrap's network namespace, as `node -e`: it listens on the namespace's loopback
// port and carries each connection to cw's proxy over the Unix socket bound in, then runs the command
// and exits as it does. Plain JavaScript in a string, so it needs no file of cw's inside the sandbox.
/** The bridge's source: argv is the socket, the port, then the command's argv. */
export const BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [socket, port, ...argv] = process.argv.slice(1);
const server = net.createServer((inner) => {
  const outer = net.connect(socket);
  inner.pipe(outer); outer.pipe(inner);
  inner.on('error', () => outer.destroy()); outer.on('error', () => inner.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  // fd 3, when cw gave one, is the channel the command's prelude waits on (docs/agent-loop.md).
  let channel = 'ignore';
  try { require('node:fs').fstatSync(3); channel = 3; } catch {}
  const child = spawn(argv[0], argv.slice(1), { stdio: [0, 1, 2, channel] });
  child.on('error', () => process.exit(127));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
});
`;
