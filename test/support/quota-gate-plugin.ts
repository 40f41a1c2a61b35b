// The third-party fixture test/fixtures/turn-plugins/quota-gate, installed in a data folder the way
// `cw plugins install` leaves one: cw loads it like any installed plugin, through the runtime plugin
// mechanism, with no change to the core.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './cw-fixture.js';

/** The fixture's package name: the namespace of its notice kind and gate reason. */
export const QUOTA_GATE = 'cw-fixture-quota-gate';
/** Its notice kind and gate reason, as cw shows them. */
export const QUOTA_USED = `${QUOTA_GATE}:quota-used`;
export const QUOTA_SPENT = `${QUOTA_GATE}:quota-spent`;

/** The fixture's folder. */
export const QUOTA_GATE_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'turn-plugins', 'quota-gate');

/** Installs the fixture in `dataDir` and sets the home's quota. */
export async function installQuotaGate(dataDir: string, home: string, quota: QuotaFile): Promise<void> {
  await mkdir(join(dataDir, 'node_modules'), { recursive: true });
  await cp(QUOTA_GATE_FIXTURE, join(dataDir, 'node_modules', QUOTA_GATE), { recursive: true });
  await writeFile(
    join(dataDir, 'package.json'),
    JSON.stringify({
      private: true,
      oclif: { schema: 1, plugins: [{ name: QUOTA_GATE, tag: 'latest', type: 'user' }] },
    }),
  );
  await writeQuota(home, quota);
}

/** The quota the fixture keeps in the cw home. */
export interface QuotaFile {
  readonly limit: number;
  readonly used: number;
}

/** Writes the home's quota file. */
export async function writeQuota(home: string, quota: QuotaFile): Promise<void> {
  await writeFile(join(home, 'quota-gate.json'), `${JSON.stringify(quota)}\n`);
}

/** Reads the home's quota file. */
export async function readQuota(home: string): Promise<QuotaFile> {
  return JSON.parse(await readFile(join(home, 'quota-gate.json'), 'utf8')) as QuotaFile;
}
