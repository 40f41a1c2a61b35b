import type { TurnNotice } from '@cw/core';
import type { NoticeValue } from '@cw/core/plugin';

/** A notice as the registry's notice kinds show it: its kind, its fields made safe, and cw's line. */
export interface ShownNotice {
  readonly kind: string;
  readonly fields: Readonly<Record<string, NoticeValue>>;
  readonly text: string;
}

/** The notice kinds the features and plugins registered (`registry.turn.notices`). */
export interface NoticeWords {
  show(notice: TurnNotice): ShownNotice;
}

/** What cw says of a feature's notice, in one line (before terminal-safing), in the words its kind registered. */
export function noticeText(notice: TurnNotice, words: NoticeWords): string {
  return words.show(notice).text;
}
