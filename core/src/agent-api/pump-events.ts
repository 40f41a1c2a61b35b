import { EventQueue } from './event-queue.js';

/**
 * Runs `work` and yields what it emits, in order, as it happens; returns its result or throws its
 * error once every event was yielded. The work runs on whether or not the reader keeps up, so a slow
 * reader never stalls a reply being read off the wire (docs/embedding.md, "Events"). The work starts
 * on the first read; a reader that stops early does not stop it (the turn's signal does).
 */
export async function* pumpEvents<Event, Result>(
  work: (emit: (event: Event) => void) => Promise<Result>,
): AsyncGenerator<Event, Result, undefined> {
  const queue = new EventQueue<Event>();
  type Outcome = { readonly ok: true; readonly value: Result } | { readonly ok: false; readonly error: unknown };
  let outcome: Outcome = { ok: false, error: new Error('the turn ended without an outcome') };
  const settled = work((event) => queue.push(event)).then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  void settled.finally(() => queue.end());
  for await (const event of queue) yield event;
  await settled;
  // Set by the work's settlement above, which TypeScript does not follow into the callbacks.
  const final = outcome as Outcome;
  if (!final.ok) throw final.error;
  return final.value;
}
