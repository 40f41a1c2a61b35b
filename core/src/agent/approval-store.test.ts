import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalStore, refusalReason } from './approval-store.js';
import { readProjectPermissions } from './project-permissions.js';

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

async function home(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-approvals-'));
  homes.push(folder);
  return folder;
}

const WORKSPACE = '/projects/example-workspace';

describe('the approval store', () => {
  it('chooses the posture: no tool runs, then the turn, then the host, then config', () => {
    const store = new ApprovalStore();
    expect(store.postureFor('ask')).toBe('ask');
    store.posture = 'read-only';
    expect(store.postureFor('ask')).toBe('read-only');
    expect(store.postureFor('ask', { approval: 'workspace' })).toBe('workspace');
    expect(store.postureFor('ask', { approval: 'workspace', noTools: true })).toBe('never');
  });

  it('yes and no keep nothing; always keeps the tool, always-server the MCP server', async () => {
    const store = new ApprovalStore();
    const write = { name: 'mcp__files__write_file', server: 'files' };
    const read = { name: 'mcp__files__read_file', server: 'files' };
    expect(await store.take({ name: 'shell' }, 'yes')).toEqual({ run: true });
    expect(await store.take({ name: 'shell' }, 'no')).toEqual({ run: false, reason: null });
    expect(store.allows({ name: 'shell' })).toBe(false);
    expect(await store.take({ name: 'edit_file' }, 'always')).toEqual({ run: true });
    expect(store.allows({ name: 'edit_file' })).toBe(true);
    expect(store.allows(read)).toBe(false);
    await store.take(write, 'always-server');
    expect(store.allows(read)).toBe(true);
    expect(store.allows({ name: 'mcp__other__read_file', server: 'other' })).toBe(false);
  });

  it('a refusal carries its reason, one redacted line; a blank reason is a plain no', async () => {
    const store = new ApprovalStore();
    const secret = `sk-test-0${'a1B2'.repeat(8)}`;
    const decision = await store.take(
      { name: 'shell' },
      { answer: 'no', reason: `use the\nother file ${secret} \u001b[2J` },
    );
    expect(decision.run).toBe(false);
    const reason = decision.run ? '' : (decision.reason ?? '');
    expect(reason).toContain('use the other file');
    expect(reason).not.toContain(secret);
    expect(reason).not.toContain('\u001b');
    expect(await store.take({ name: 'shell' }, { answer: 'no', reason: '   ' })).toEqual({ run: false, reason: null });
    expect(refusalReason('x'.repeat(900))?.length).toBeLessThanOrEqual(500);
  });

  it('workspace keeps the allow rule in the cw home and in the turn rules', async () => {
    const cwHome = await home();
    const store = new ApprovalStore();
    const rules = await store.rulesFor(
      { allow: ['read_file'], deny: ['shell(rm:*)'] },
      { home: cwHome, workspace: WORKSPACE },
    );
    expect(rules).toEqual({ allow: ['read_file'], deny: ['shell(rm:*)'] });
    const decision = await store.take({ name: 'shell', rule: 'shell(npm test)' }, 'workspace', {
      home: cwHome,
      workspace: WORKSPACE,
      rules,
    });
    expect(decision).toEqual({ run: true });
    expect(rules.allow).toEqual(['read_file', 'shell(npm test)']);
    expect(await readProjectPermissions(cwHome, WORKSPACE)).toEqual(['shell(npm test)']);
    // A later turn (another store, another process) reads it back.
    expect(
      (await new ApprovalStore().rulesFor({ allow: [], deny: [] }, { home: cwHome, workspace: WORKSPACE })).allow,
    ).toEqual(['shell(npm test)']);
    // The same tool with another command is not covered.
    expect(store.allows({ name: 'shell' })).toBe(false);
  });

  it('an answer it does not know allows nothing', async () => {
    expect(await new ApprovalStore().take({ name: 'shell' }, 'sure' as never)).toEqual({ run: false, reason: null });
  });
});
