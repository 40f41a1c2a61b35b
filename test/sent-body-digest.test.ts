import { afterAll, describe, expect, it } from 'vitest';
import { previewRequest } from '@cw/core';
import { sha256Hex } from '../core/src/canonical/sha256.js';
import { sendPreparedRequest } from '../core/src/transport/send-prepared-request.js';
import { FAKE_KEY, builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';

const home = await tempHome();
afterAll(() => removeHome(home));

async function preparedTurn() {
  const snapshot = await snapshotOf(home, await builtinRegistry());
  const { prepared, manifest } = previewRequest(snapshot, 'hello there', 'streaming');
  if (prepared === null) throw new Error('the default route should prepare a request');
  return { prepared, manifest, dialect: snapshot.registry.dialect(prepared.dialect) };
}

describe('the body the transport sends', () => {
  it('is the text the manifest digested, written when the transport reads it', async () => {
    const { prepared, manifest } = await preparedTurn();
    const body = manifest.body as { exact: { body_wire_sha256: string; body_wire_bytes: number; body_sha256: string } };
    expect(prepared.canonical.wireText).toBe(JSON.stringify(prepared.body));
    expect(sha256Hex(prepared.canonical.wireText)).toBe(body.exact.body_wire_sha256);
    expect(Buffer.byteLength(prepared.canonical.wireText, 'utf8')).toBe(body.exact.body_wire_bytes);
    expect(sha256Hex(prepared.canonical.text)).toBe(body.exact.body_sha256);
  });

  it('is refused, before any connection, when the body changed after it was digested', async () => {
    const { prepared, dialect } = await preparedTurn();
    if (dialect === undefined) throw new Error('the dialect should be registered');
    (prepared.body as Record<string, unknown>)['temperature'] = 2;
    const env = { [prepared.apiKeyEnv ?? 'UNUSED']: FAKE_KEY };
    await expect(sendPreparedRequest(prepared, dialect, { env })).rejects.toThrow(
      /changed after it was digested; nothing was sent/,
    );
  });
});
