import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema } from '../../validation/lazy-zod.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { sessionStateFile } from '../../state/session-state-file.js';

const choiceSchema = lazySchema((z) =>
  z.strictObject({
    version: z.literal(1),
    /** The candidate the classifier chose for the session's latest prompt. */
    route: z.string().min(1).max(64),
    classifier_route: z.string().min(1).max(64),
  }),
);

/** The route auto routing chose for a session's latest prompt, as recorded. */
export type AutoRouteChoice = z.output<typeof choiceSchema>;

/** Where a session's auto-routing choice is kept. */
export function autoRouteChoiceFile(home: string, session: string): string {
  return sessionStateFile(home, session, 'auto-route.json');
}

/** The recorded choice, or null when none was made (or the record cannot be read). Never writes. */
export async function readAutoRouteChoice(home: string, session: string): Promise<AutoRouteChoice | null> {
  try {
    const parsed = choiceSchema.safeParse(JSON.parse(await readFile(autoRouteChoiceFile(home, session), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Records the choice; the caller holds the session lock, so it lands with the turn it routed. */
export async function writeAutoRouteChoice(home: string, session: string, choice: AutoRouteChoice): Promise<void> {
  await writeFileAtomic(autoRouteChoiceFile(home, session), `${JSON.stringify(choice, null, 2)}\n`);
}
