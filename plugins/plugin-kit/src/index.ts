// Runtime helpers for cw plugins. Types come from @cw/core; nothing here imports the core at run time.
export { isJsonObject, objectAt, arrayAt, stringAt, numberAt, hasType, type JsonObject } from './json-guards.js';
export { setValueAt, valueAt } from './value-at.js';
export { toolChoiceFacts } from './tool-choice-facts.js';
export { reasoningLayout } from './reasoning-layout.js';
export { collectAttachmentParts } from './attachment-parts.js';
export { describeBodyLayout, type BodyLayoutSpec } from './describe-body-layout.js';
export { ToolCallTracker } from './tool-call-tracker.js';
export { type CacheReport, UsageTotals } from './usage-totals.js';
export { providerError } from './provider-error.js';
export { WireEventDecoder } from './wire-event-decoder.js';
