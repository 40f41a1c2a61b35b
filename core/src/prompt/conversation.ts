import type { z } from 'zod';
import { lazySchema, type Zod } from '../validation/lazy-zod.js';

// The one definition of a stored conversation message: the session store validates with these
// schemas, and every other module uses the types inferred from them. Parsed messages are frozen.

/** Validates a tool call the assistant made, in provider-neutral form. */
export const toolCallSchema = lazySchema((z) =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      /** The arguments as the model produced them: a JSON text. */
      arguments: z.string(),
    })
    .readonly(),
);

/** A tool call the assistant made, in provider-neutral form. */
export type ToolCall = z.output<typeof toolCallSchema>;

/** Base64 images stored with a message (a mention's, an MCP result's), for routes that take images. */
const imagesSchema = (z: Zod) =>
  z
    .array(
      z
        .strictObject({
          media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
          data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
        })
        .readonly(),
    )
    .readonly()
    .optional();

/** Validates one stored conversation message. */
export const conversationMessageSchema = lazySchema((z) =>
  z.discriminatedUnion('role', [
    z
      .strictObject({
        role: z.literal('user'),
        content: z.string(),
        /** Images a file mention attached (docs/file-mentions.md), base64, for routes that take images. */
        images: imagesSchema(z),
        /** Set on a compaction summary: how many earlier messages it stands in for (docs/compaction.md). */
        summary_of: z.number().int().positive().optional(),
        /**
         * The turn-context block sent before `content` on the wire, stored so every later request
         * replays the same bytes (docs/project-context.md).
         */
        turn_context: z.string().optional(),
      })
      .readonly(),
    z
      .strictObject({
        role: z.literal('assistant'),
        content: z.string(),
        tool_calls: z.array(toolCallSchema).readonly().optional(),
        /** Tokens the provider reported for the turn that produced this reply; never sent back. */
        usage: z
          .strictObject({
            input_tokens: z.number().int().min(0),
            output_tokens: z.number().int().min(0),
            cache_read_tokens: z.number().int().min(0).optional(),
            cache_write_tokens: z.number().int().min(0).optional(),
          })
          .readonly()
          .optional(),
        /** What the request cost in USD, when its price and usage were known (docs/cli.md, "Cost"). */
        cost_usd: z.number().finite().min(0).optional(),
        /**
         * Reasoning state the provider needs back (signed thinking, encrypted reasoning items), tagged
         * with the dialect that produced it: only that dialect's buildBody may send it again.
         */
        replay: z
          .strictObject({ dialect: z.string().min(1).max(48), items: z.array(z.json()).readonly() })
          .readonly()
          .optional(),
        /** The body_sha256 of the request this reply answered, so a step can be matched to its preview. */
        body_sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .optional(),
      })
      .readonly(),
    z
      .strictObject({
        role: z.literal('tool'),
        tool_call_id: z.string(),
        name: z.string(),
        content: z.string(),
        /** Images the result carried (an MCP tool's, docs/mcp.md), base64, for routes that take images. */
        images: imagesSchema(z),
        /**
         * How the call ended (ok, error, cancelled, refused, invalid, not-executed, or unknown: cw stopped
         * while it ran, docs/agent-loop.md); never sent to the model.
         */
        status: z.enum(['ok', 'error', 'cancelled', 'refused', 'invalid', 'not-executed', 'unknown']).optional(),
      })
      .readonly(),
  ]),
);

/** One stored conversation message; dialect plugins turn these into wire items. */
export type ConversationMessage = z.output<typeof conversationMessageSchema>;
