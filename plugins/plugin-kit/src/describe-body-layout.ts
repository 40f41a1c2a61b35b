import type { BodyLayout, CacheBreakpointRegion, JsonValue, ReasoningLayout, WireBody } from '@cw/core/plugin';
import { collectAttachmentParts } from './attachment-parts.js';
import { isJsonObject, type JsonObject } from './json-guards.js';
import { toolChoiceFacts } from './tool-choice-facts.js';

/** Where a dialect keeps each region and wire fact of its bodies: the data a describer needs. */
export interface BodyLayoutSpec {
  /** Top-level key of the turn items array. */
  readonly itemsKey: string;
  /** Top-level key whose value is the system region, for dialects that keep it outside the items; else null. */
  readonly systemKey: string | null;
  /** Which items belong to the system region, for dialects that keep it inline; else null. */
  readonly isSystemItem: ((item: JsonObject) => boolean) | null;
  /** Which items carry tool results. */
  readonly isToolResultItem: (item: JsonObject) => boolean;
  /** Which parts of an item's `content` array are attachments. */
  readonly isAttachmentPart: (part: JsonObject) => boolean;
  /** Top-level key of the tool declarations. */
  readonly toolsKey: string;
  /** Top-level key of the tool choice. */
  readonly toolChoiceKey: string;
  /** Dotted path, inside the tool choice object, of the name of the tool it forces. */
  readonly toolChoiceNamePath: string;
  /** Top-level boolean key that asks for a streamed reply. */
  readonly streamKey: string;
  readonly reasoning: ReasoningLayout;
  /** The key that marks a block as a prompt-cache breakpoint (`cache_control`), for dialects that have one. */
  readonly cacheMarkerKey?: string;
}

/** Describes a body by its dialect's spec: the regions the core accounts and the facts the manifest reports. */
export function describeBodyLayout(body: WireBody, spec: BodyLayoutSpec): BodyLayout {
  const rawItems = body[spec.itemsKey];
  const items = Array.isArray(rawItems) ? rawItems : [];
  const systemItemIndexes = indexesWhere(items, spec.isSystemItem);
  const systemField = spec.systemKey === null ? undefined : body[spec.systemKey];
  const stream = body[spec.streamKey];
  return {
    systemValues: [
      ...(systemField === undefined ? [] : [systemField]),
      ...systemItemIndexes.map((index) => items[index] as JsonValue),
    ],
    itemsKey: Array.isArray(rawItems) ? spec.itemsKey : null,
    systemItemIndexes,
    toolResultItemIndexes: indexesWhere(items, spec.isToolResultItem),
    attachmentParts: collectAttachmentParts(items, spec.isAttachmentPart),
    toolsKey: body[spec.toolsKey] === undefined ? null : spec.toolsKey,
    toolChoice: toolChoiceFacts(body[spec.toolChoiceKey], spec.toolChoiceNamePath),
    streamField: typeof stream === 'boolean' ? stream : null,
    reasoning: spec.reasoning,
    ...(spec.cacheMarkerKey === undefined
      ? {}
      : { cacheBreakpoints: cacheBreakpoints(body, spec, systemField, items, spec.cacheMarkerKey) }),
  };
}

/**
 * The breakpoints in body order: marked tool declarations, marked system blocks, then marked blocks
 * inside the items' `content` arrays.
 */
function cacheBreakpoints(
  body: WireBody,
  spec: BodyLayoutSpec,
  systemField: JsonValue | undefined,
  items: readonly JsonValue[],
  marker: string,
): CacheBreakpointRegion[] {
  const marked = (value: JsonValue | undefined): number =>
    Array.isArray(value) ? value.filter((entry) => isJsonObject(entry) && entry[marker] !== undefined).length : 0;
  const tools = body[spec.toolsKey];
  const regions: CacheBreakpointRegion[] = [];
  for (let count = marked(tools); count > 0; count--) regions.push('tools');
  for (let count = marked(systemField); count > 0; count--) regions.push('system');
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    for (let count = marked(item['content']); count > 0; count--) regions.push('messages');
  }
  return regions;
}

// Positions count every item, objects or not, so indexes match the body the core measures.
function indexesWhere(items: readonly JsonValue[], accepts: ((item: JsonObject) => boolean) | null): number[] {
  const indexes: number[] = [];
  if (accepts === null) return indexes;
  // A loop rather than flatMap: no list per item, on every body described.
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (isJsonObject(item) && accepts(item)) indexes.push(index);
  }
  return indexes;
}
