import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGoalGate } from './goal-gate.js';
import { addGoalUsage, readGoal, setGoal } from './goal-store.js';

const homes: string[] = [];
async function home(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-goal-'));
  homes.push(folder);
  return folder;
}
afterEach(async () => {
  await Promise.all(homes.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('goal store', () => {
  it('concurrent usage updates are all counted, under the lock, and leave no temp or lock files', async () => {
    const folder = await home();
    await setGoal(folder, 's', { text: 'count', tokenBudget: 1_000 });
    await Promise.all(Array.from({ length: 20 }, (_, index) => addGoalUsage(folder, 's', index + 1)));
    expect((await readGoal(folder, 's'))?.tokens_used).toBe(210);
    expect(await readGoalGate(folder, 's')).toBe('within-budget');
    expect(await readdir(join(folder, 'sessions'))).toEqual(['s.goal.json']);
  });

  it('the gate: none, within, exhausted at exactly the budget; usage is not recorded without a goal', async () => {
    const folder = await home();
    expect(await readGoalGate(folder, 's')).toBe('none');
    expect(await addGoalUsage(folder, 's', 5)).toBeNull();
    await expect(readdir(folder)).resolves.toEqual([]);
    await setGoal(folder, 's', { text: 'g', tokenBudget: 10 });
    await addGoalUsage(folder, 's', 9);
    expect(await readGoalGate(folder, 's')).toBe('within-budget');
    await addGoalUsage(folder, 's', 1);
    expect(await readGoalGate(folder, 's')).toBe('budget-exhausted');
    await setGoal(folder, 's', { tokenBudget: 11 });
    expect(await readGoal(folder, 's')).toEqual({ version: 1, text: 'g', token_budget: 11, tokens_used: 10 });
    expect(await readGoalGate(folder, 's')).toBe('within-budget');
  });
});
