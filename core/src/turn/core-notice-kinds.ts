import type { NoticeKind } from './notice-kinds.js';

/** The notices the core itself sends (a warning in cw's words, the session lock's waits), no feature's. */
export const CORE_NOTICE_KINDS: readonly NoticeKind[] = [
  {
    kind: 'warning',
    description: "Something the turn went on without, in cw's words (an MCP server left out, no sandbox).",
    fields: { text: { type: 'text', description: "cw's line." } },
    text: (fields) => String(fields['text']),
    registeredBy: 'cw',
  },
  {
    kind: 'session-wait',
    description: 'Another send holds the session; this one waits its turn.',
    fields: {},
    text: () => 'waiting for another cw send on this session to finish',
    registeredBy: 'cw',
  },
  {
    kind: 'stale-lock-broken',
    description: 'A session lock left by a cw process that is gone was removed.',
    fields: {},
    text: () => 'removed a session lock left by a cw process that is no longer running',
    registeredBy: 'cw',
  },
];
