import type { BodyLayout, BuildContext, WireBody } from '../body/wire-body.js';
import type { ReplyDecoder } from '../reply/turn-events.js';

/**
 * A wire dialect, supplied whole by one plugin through `api.addDialect`. The loader checks every part
 * at load, so a dialect missing a describer or a decoder is a plugin problem, never a run-time crash.
 * See docs/architecture.md for where each part runs.
 */
export interface DialectDefinition {
  /** The kebab-case label capability rows name in their `dialect` field. */
  readonly id: string;
  /** Builds the body in wire key order; the core places reasoning after it and route refiners run last. */
  readonly buildBody: (context: BuildContext) => WireBody;
  /** Says where the finished body keeps each region and each wire fact the manifest reports. */
  readonly describeBody: (body: WireBody) => BodyLayout;
  /** A fresh incremental decoder for one reply. */
  readonly createDecoder: () => ReplyDecoder;
}

/** The parts a dialect must supply, checked in this order at load. */
export const DIALECT_PARTS = ['buildBody', 'describeBody', 'createDecoder'] as const;

/** Which routes a body refiner applies to: declared data, so the core filters and no refiner tests ids itself. */
export interface RouteMatch {
  /** Route ids the refiner applies to. */
  readonly routeIds?: readonly string[];
  /** Route shapes the refiner applies to. */
  readonly routeShapes?: readonly string[];
}

/** A provider's body refinement for the routes it matches: only what row data cannot say. */
export type RefineBody = (body: WireBody, context: BuildContext) => WireBody;

/** Where a refiner runs among the buildBody stages; later than reasoning placement unless stated. */
export interface RefineOptions {
  /** The tapable stage; must be above the reasoning placement stage (50). Default 100. */
  readonly stage?: number;
}

/** Whether a row is one a refiner declared it applies to; an empty match applies to nothing. */
export function routeMatches(
  match: RouteMatch,
  row: { readonly route_id: string; readonly route_shape: string },
): boolean {
  return (match.routeIds?.includes(row.route_id) ?? false) || (match.routeShapes?.includes(row.route_shape) ?? false);
}
