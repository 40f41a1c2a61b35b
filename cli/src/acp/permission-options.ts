import type * as acp from '@agentclientprotocol/sdk';
import type { AskAnswer, AskedCall } from '@cw/core';

// The answers an editor offers for a call that asks (docs/editors.md): the same as cw send's and
// cw chat's (render/approval-answers.ts), as ACP permission options. A rejection may carry the
// person's reason in the outcome's `_meta.reason`; the core tells the model.

/** Each option's id and the answer it hands to the core's approval store. */
const ANSWERS: Readonly<Record<string, AskAnswer>> = {
  allow_once: 'yes',
  allow_always: 'always',
  allow_always_server: 'always-server',
  allow_always_workspace: 'workspace',
  reject_once: 'no',
};

/** The options for one call: `always this server` for an MCP call, `workspace` when it has an allow rule. */
export function permissionOptions(call: AskedCall): acp.PermissionOption[] {
  return [
    { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'allow_always', name: 'Always allow this tool (this session)', kind: 'allow_always' },
    ...(call.server === undefined
      ? []
      : [
          {
            optionId: 'allow_always_server',
            name: "Always allow this server's tools (this session)",
            kind: 'allow_always' as const,
          },
        ]),
    ...(call.rule === undefined
      ? []
      : [
          {
            optionId: 'allow_always_workspace',
            name: 'Always allow this in this workspace',
            kind: 'allow_always' as const,
          },
        ]),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  ];
}

/** The answer an editor's response gives; anything else (cancelled, an unknown option) is no. */
export function answerOf(response: acp.RequestPermissionResponse): AskAnswer {
  if (response.outcome.outcome !== 'selected') return 'no';
  const answer = ANSWERS[response.outcome.optionId] ?? 'no';
  const reason = response.outcome._meta?.['reason'];
  return answer === 'no' && typeof reason === 'string' && reason.trim() !== '' ? { answer: 'no', reason } : answer;
}
