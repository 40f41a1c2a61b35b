// cw homes whose active route points at a fault server, for tests that send against it: the server
// starts before the file's tests and stops after them, and every home and folder made is removed.
import { afterAll, beforeAll } from 'vitest';
import { FAKE_KEY, removeHome, tempHome } from './cw-fixture.js';
import { startFaultServer, type FaultServer } from './fault-server.js';
import { tempFolders } from './spawn-cw.js';

/** The dialects a fault home's route may speak. */
export type FaultDialect =
  | 'chat-completions'
  | 'anthropic-messages'
  | 'openai-responses'
  | 'gemini-generate-content'
  | 'ollama-chat';

/** Generous timeouts for a server on loopback; retries wait next to nothing. */
const FAULT_TIMEOUTS = { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 };
const FAULT_RETRIES = { initial_delay_ms: 1, max_delay_ms: 5 };

/** Fault homes for one test file; see {@link useFaultHomes}. */
export interface FaultHomes {
  /** The fault server; started before the file's tests run. */
  readonly server: FaultServer;
  /**
   * A fresh home whose active route `fault` is a custom route on the server, keyed by the fake key in
   * the key variable. `config` is merged over the top level of the home's config.json.
   */
  home(dialect?: FaultDialect, config?: Record<string, unknown>): Promise<string>;
  /** The environment of a cw child on `home`: the home, an empty plugin data folder, the fake key, then `extra`. */
  envFor(home: string, extra?: Record<string, string>): Record<string, string>;
  /** A fresh, empty temp folder, removed after the file's tests. */
  folder(prefix: string): Promise<string>;
}

/** Starts a fault server for the calling file (or describe block) and makes homes that send to it. */
export function useFaultHomes(keyEnv: string): FaultHomes {
  let server: FaultServer | undefined;
  let dataDir = '';
  const folders = tempFolders();
  const homes: string[] = [];

  beforeAll(async () => {
    server = await startFaultServer();
    dataDir = await folders.make('cw-data-');
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(homes.map(removeHome));
    await folders.cleanup();
  });

  const started = (): FaultServer => {
    if (server === undefined) throw new Error('the fault server starts in beforeAll; use it inside a test');
    return server;
  };

  return {
    get server() {
      return started();
    },
    async home(dialect = 'chat-completions', config = {}) {
      const home = await tempHome({
        route: 'fault',
        routes: {
          fault: { provider: 'custom', dialect, base_url: `${started().origin}/v1`, model: 'm', api_key_env: keyEnv },
        },
        timeouts: FAULT_TIMEOUTS,
        retries: FAULT_RETRIES,
        ...config,
      });
      homes.push(home);
      return home;
    },
    envFor: (home, extra = {}) => ({ CW_HOME: home, CW_DATA_DIR: dataDir, [keyEnv]: FAKE_KEY, ...extra }),
    folder: (prefix) => folders.make(prefix),
  };
}
