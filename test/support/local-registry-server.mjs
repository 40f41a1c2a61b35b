// A throwaway npm registry (Verdaccio) for the registry end-to-end test: storage in the folder given
// as the first argument, no uplinks (nothing is fetched from or published to any other registry),
// anyone may publish (the test's token is fake), listening on 127.0.0.1 at a port the system picks.
// Prints {"port":N} on its first stdout line when ready; exits when its stdin closes, so it never
// outlives the test process that started it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { runServer } = createRequire(import.meta.url)('verdaccio');
const storage = process.argv[2];
if (!storage) {
  process.stderr.write('usage: local-registry-server.mjs <storage folder>\n');
  process.exit(2);
}

const app = await runServer({
  self_path: storage,
  storage: join(storage, 'packages'),
  auth: { htpasswd: { file: join(storage, 'htpasswd'), max_users: -1 } },
  uplinks: {},
  packages: { '**': { access: '$all', publish: '$all', unpublish: '$all' } },
  log: { type: 'stdout', format: 'pretty', level: 'error' },
  web: { enable: false },
  server: { keepAliveTimeout: 1 },
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
const stop = () => {
  server.close();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
