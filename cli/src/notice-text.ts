import type { TurnNotice } from '@cw/core';

/** What cw says of a feature's notice, in one line (before terminal-safing). */
export function noticeText(notice: TurnNotice, safeIdentifier: (text: string) => string): string {
  switch (notice.kind) {
    case 'auto-route':
      return `auto routing chose route ${safeIdentifier(notice.route)}`;
    case 'compaction':
      return `compacted the session: ${notice.summarised} earlier messages replaced by a summary (docs/compaction.md)`;
    case 'warning':
      return notice.text;
    case 'progress':
      return `▸ ${safeIdentifier(notice.tool)} progress ${notice.text}`;
    case 'session-wait':
      return 'waiting for another cw send on this session to finish';
    case 'stale-lock-broken':
      return 'removed a session lock left by a cw process that is no longer running';
    default: {
      const never: never = notice;
      return never;
    }
  }
}
