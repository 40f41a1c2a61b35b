import type { AutoRoutingConfig } from '../../config/cw-config.js';
import { safeIdentifier } from '../../redaction/index.js';
import {
  planSideRequest,
  sendSideRequest,
  sideSnapshot,
  type SideRequestOptions,
} from '../../side-request/side-request.js';
import type { CwSnapshot, FeatureStates } from '../../snapshot/snapshot.js';

/** Auto routing could not choose a route; nothing was sent but the classifying request. */
export class AutoRouteError extends Error {
  override readonly name = 'AutoRouteError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

/** One candidate as the classifier is told of it. */
interface Candidate {
  readonly route: string;
  readonly when: string | null;
}

/** The candidates of the auto config, each route once, in config order. */
export function candidatesOf(auto: AutoRoutingConfig): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const entry of auto.candidates) {
    const candidate =
      typeof entry === 'string' ? { route: entry, when: null } : { route: entry.route, when: entry.when ?? null };
    if (seen.has(candidate.route)) continue;
    seen.add(candidate.route);
    out.push(candidate);
  }
  return out;
}

/** The classifying prompt: the candidates, then the user's prompt as the request to place. */
export function classifierPrompt(candidates: readonly Candidate[], text: string): string {
  const lines = candidates.map(
    (candidate) => `- ${candidate.route}${candidate.when === null ? '' : `: ${candidate.when}`}`,
  );
  return [
    'You route requests for a coding agent. Choose the one route below that best fits the request.',
    `Answer with only the route id, exactly as written: ${candidates.map((candidate) => candidate.route).join(', ')}.`,
    '',
    'Routes:',
    ...lines,
    '',
    '<request>',
    text,
    '</request>',
  ].join('\n');
}

/**
 * The candidate the classifier's answer names: the whole answer (quotes, backticks and a final full
 * stop aside), else the one candidate named in it as a word. Null when it names none or several.
 */
export function answeredCandidate(candidates: readonly Candidate[], answer: string): string | null {
  const bare = answer.trim().replace(/^[`"'*]+|[`"'*.]+$/g, '');
  const exact = candidates.find((candidate) => candidate.route === bare);
  if (exact !== undefined) return exact.route;
  const named = candidates.filter((candidate) =>
    new RegExp(`(^|[^A-Za-z0-9_-])${candidate.route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(
      answer,
    ),
  );
  return named.length === 1 ? (named[0]?.route ?? null) : null;
}

/**
 * Asks the classifier route which candidate fits the prompt: one small request through the same seam
 * and client as any turn, counted against the goal. Throws AutoRouteError when it cannot be planned
 * or its answer names no single candidate.
 */
export async function classifyRoute(
  snapshot: CwSnapshot,
  text: string,
  options: SideRequestOptions,
): Promise<{ route: string; classifierRoute: string; features: FeatureStates }> {
  const auto = snapshot.config.auto;
  if (auto === undefined) throw new AutoRouteError('route auto needs an auto object in config.json');
  const candidates = candidatesOf(auto);
  const side = sideSnapshot(snapshot, auto.classifier_route);
  const plan = planSideRequest(side, classifierPrompt(candidates, text), options.entrypoint);
  if (plan.status === 'blocked') {
    throw new AutoRouteError(
      `auto routing: the classifying request on route ${safeIdentifier(auto.classifier_route)} could not be prepared (${plan.reason}${plan.detail ? `: ${plan.detail}` : ''}); nothing was sent`,
    );
  }
  const { reply, snapshot: after } = await sendSideRequest(side, plan, options);
  const route = answeredCandidate(candidates, reply.text);
  if (route === null)
    throw new AutoRouteError(
      "auto routing: the classifier's answer named no single candidate route; the turn was not sent (docs/auto-routing.md)",
    );
  return { route, classifierRoute: auto.classifier_route, features: after.features };
}
