import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { safeIdentifier } from '../../redaction/index.js';
import { featureState, withFeatureState } from '../../snapshot/feature-state.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { loadPendingSkill, type PendingSkill } from './load-pending-skill.js';
import { clearPendingSkill } from './pending-skill.js';

/** The skills' name among the features. */
export const SKILLS_FEATURE = 'skills';

/** The skill `cw skills use` set for the next prompt, as the snapshot read it; null when none. */
export function pendingSkillOf(snapshot: CwSnapshot): PendingSkill | null {
  return featureState<PendingSkill | null>(snapshot, SKILLS_FEATURE, null);
}

/**
 * Skills (docs/skills.md) as a turn feature: the pending skill is read with the session (never
 * taken), wraps the next prompt when it is resolved, and is used up once that turn is saved.
 */
export function applySkills(hooks: CoreTurnHooks): void {
  hooks.loadState.tapPromise(SKILLS_FEATURE, async (snapshot, context) => {
    const where = snapshot.workingContext;
    if (where === undefined || context.waiting) return snapshot;
    return withFeatureState(
      snapshot,
      SKILLS_FEATURE,
      await loadPendingSkill(context.home, snapshot.session.key, where.workspace),
    );
  });
  hooks.afterSave.tapPromise(SKILLS_FEATURE, async ({ home, snapshot, userMessage, prompt }) => {
    if (userMessage !== null && typeof prompt === 'object' && prompt.skill !== null)
      await clearPendingSkill(home, snapshot.session.key, prompt.skill);
  });
  hooks.describeSession.tap(SKILLS_FEATURE, (facts, snapshot) => {
    const pending = pendingSkillOf(snapshot);
    if (pending === null) return facts;
    // A pending-skill file that cannot be read names none: its problem is the plan's reason.
    const name = pending.status === 'ready' ? pending.skill.name : pending.name;
    return { ...facts, pending_skill: name === null ? null : safeIdentifier(name) };
  });
}
