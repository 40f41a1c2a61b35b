// The postures are config's words (config `approval`, flag `--approval`); the agent loop's policy
// (agent/approval-policy.ts) decides what each one allows.

/** How much the agent loop may do without asking, from nothing to everything inside the workspace. */
export const APPROVAL_POSTURES = ['never', 'read-only', 'workspace', 'ask'] as const;
/** An approval posture: config `approval`, flag `--approval`. */
export type ApprovalPosture = (typeof APPROVAL_POSTURES)[number];
