import { describe, expect, it } from 'vitest';
import { BLNS, HOSTILE, leakedSecret } from '../../../test/support/label-corpus.js';
import { isShowableUserHost, isShowableUserLabel, safeUserLabel } from './safe-user-label.js';

describe('safeUserLabel', () => {
  it('shows the model ids and route ids people write, slashes and tags included', () => {
    for (const id of [
      'meta-llama/Llama-3.3-70B-Instruct',
      'qwen3:8b',
      'gpt-4.1',
      'local',
      'my-box',
      '@cf/meta/llama-3',
    ]) {
      expect(safeUserLabel(id)).toBe(id);
    }
  });

  it('never shows a hostile corpus item, nor a secret-shaped part of one', () => {
    for (const item of HOSTILE) {
      expect(isShowableUserLabel(item.text), `${item.category}: ${item.text}`).toBe(false);
      expect(leakedSecret(item.text, safeUserLabel(item.text))).toBeUndefined();
    }
  });

  it('fingerprints fake keys, e-mail addresses, record ids and paths', () => {
    for (const raw of [
      `sk-test-${'0'.repeat(32)}`,
      'alice@example.com',
      '123e4567-e89b-12d3-a456-426614174000',
      '/etc/passwd',
      'C:/Users/Alice/x',
      'a//b',
    ]) {
      expect(safeUserLabel(raw)).toMatch(/^sha256:[0-9a-f]{12}$/);
    }
  });

  it('shows a host and port, an IPv4 address too, but not with a path or user info', () => {
    expect(isShowableUserHost('gpu-box.lan:8080')).toBe(true);
    expect(isShowableUserHost('10.0.0.5:8000')).toBe(true);
    expect(isShowableUserLabel('10.0.0.5:8000')).toBe(false);
    expect(isShowableUserHost('user:pw@host')).toBe(false);
    expect(isShowableUserHost('host/v1')).toBe(false);
    expect(isShowableUserHost('host//v1')).toBe(false);
  });

  it('never lets a naughty string through unless it is plain ASCII', () => {
    for (const text of BLNS) {
      if (isShowableUserLabel(text)) expect(text.trim()).toMatch(/^[A-Za-z0-9._+@:/-]+$/);
    }
  });
});
