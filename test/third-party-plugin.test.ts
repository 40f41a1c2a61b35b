import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CW_BIN, REPO_ROOT, removeHome, tempHome } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';

const execFileAsync = promisify(execFile);
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('a third-party plugin loads through the same mechanism as the built-ins', () => {
  it('a linked plugin contributes a route that preview resolves and attributes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cw-data-'));
    folders.push(dataDir);
    const home = await tempHome({ route: 'fixture-route' });
    folders.push(home);
    const env = { ...process.env, CW_DATA_DIR: dataDir, CW_HOME: home };
    for (const fixture of ['good-esm', 'throws']) {
      await execFileAsync(
        process.execPath,
        [CW_BIN, 'plugins', 'link', join(REPO_ROOT, 'test/fixtures/plugins', fixture), '--no-install'],
        { env },
      );
    }

    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [CW_BIN, 'preview-request', 'json', '--prompt', 'hi'],
      { env },
    );
    expectValidManifest(stdout);
    const manifest = JSON.parse(stdout) as {
      route: { exact: { route_id: string; registered_by: string; endpoint_host_class: string } };
    };
    expect(manifest.route.exact.route_id).toBe('fixture-route');
    expect(manifest.route.exact.registered_by).toBe('cw-fixture-good-esm');
    expect(manifest.route.exact.endpoint_host_class).toBe('http loopback');
    // The fixture's second row is invalid: reported as a warning, while everything else still works.
    expect(stderr).toContain('cw-fixture-good-esm had a route row rejected (invalid-row)');
    // A plugin that throws while registering is reported, redacted: its message named a path and a key.
    expect(stderr).toContain('cw-fixture-throws did not load (register-threw)');
    expect(stderr).not.toContain('/home/someone');
    expect(stderr).not.toContain('sk-test');
    await removeHome(home);
  });
});
