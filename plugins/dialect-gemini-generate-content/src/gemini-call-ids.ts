import { randomUUID } from 'node:crypto';

// The Gemini API usually sends function calls without an id; cw needs one to pair each result with
// its call. Ids cw made up carry this prefix and never go back on the wire: a part the model signed
// must come back as it was sent, and the API matches responses to calls by position when ids are absent.
const MADE_UP_PREFIX = 'cwgem_';

/** An id for a function call that came without one: unique in the session, and recognisably cw's own. */
export function madeUpCallId(): string {
  return `${MADE_UP_PREFIX}${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/** The id to put on the wire for a stored call id: the provider's own, or nothing for one cw made up. */
export function wireCallId(id: string): string | null {
  return id === '' || id.startsWith(MADE_UP_PREFIX) ? null : id;
}
