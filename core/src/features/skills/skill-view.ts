import { replaceOutboundSecrets } from '../../redaction/outbound-secrets.js';
import { safeIdentifier } from '../../redaction/safe-label.js';
import { type FoundSkill, nameOf, type SkillSource } from './discover-skills.js';

/** A skill as `cw skills list --json` prints it. */
export interface SkillView {
  readonly name: string;
  readonly source: SkillSource;
  readonly status: 'ok' | 'broken';
  /** The author's description, secret-shaped text replaced; null for a broken skill. */
  readonly description: string | null;
  /** cw's words for what is wrong with a broken skill; null otherwise. */
  readonly problem: string | null;
}

/** What cw prints of a found skill: its name, where it is, and its description or its problem. */
export function skillView(found: FoundSkill): SkillView {
  return {
    name: safeIdentifier(nameOf(found)),
    source: found.source,
    status: found.status,
    description: found.status === 'ok' ? replaceOutboundSecrets(found.skill.description).text : null,
    problem: found.status === 'broken' ? found.problem : null,
  };
}
