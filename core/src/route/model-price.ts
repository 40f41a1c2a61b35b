import type { z } from 'zod';
import { lazySchema } from '../validation/lazy-zod.js';

// Prices are data on the row, per model, each with the page it was read from and the day
// (docs/capability-rows.md, "Prices"). The arithmetic on them is in cost/step-cost.ts.

/** Whether a price has at most six decimal places, so the cost arithmetic stays exact in integers. */
function hasMicroPrecision(price: number): boolean {
  const scaled = Math.round(price * 1_000_000);
  return Math.abs(scaled - price * 1_000_000) < 1e-6;
}

const usdPerMillionSchema = lazySchema((z) =>
  z
    .number()
    .finite()
    .min(0, 'a price may not be negative')
    .max(100_000)
    .refine(hasMicroPrecision, 'a price has at most six decimal places')
    .nullable(),
);

/** The price of one model on a route, in USD per million tokens, with where and when it was read. */
export const modelPriceSchema = lazySchema((z) =>
  z
    .object({
      /** Model ids this price is for, matched against the selected id, then the wire id. */
      models: z.array(z.string().min(1).max(256)).min(1).max(64),
      /** USD per million tokens of each kind; null where the provider publishes none. */
      usd_per_mtok: z
        .object({
          input: usdPerMillionSchema,
          output: usdPerMillionSchema,
          cache_read: usdPerMillionSchema,
          cache_write: usdPerMillionSchema,
        })
        .strict(),
      /** The provider's published pricing page the figures were read from. */
      // Host and path only: no query, fragment or credentials, which a page's address never needs.
      source: z
        .string()
        .max(300)
        .regex(
          /^https:\/\/[A-Za-z0-9.-]+(\/[A-Za-z0-9._~%/-]*)?$/,
          'must be the https address of the pricing page, without a query',
        ),
      /** The day the figures were read (YYYY-MM-DD). */
      as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD'),
    })
    .strict(),
);

/** A model price as a plugin writes it. */
export type ModelPriceInput = z.input<typeof modelPriceSchema>;
/** A validated model price. */
export type ModelPrice = z.output<typeof modelPriceSchema>;

/** The price row for a model: the selected id first, then the wire id; null when the row has none. */
export function priceFor(prices: readonly ModelPrice[], selected: string, wire: string | undefined): ModelPrice | null {
  return (
    prices.find((price) => price.models.includes(selected)) ??
    (wire === undefined ? undefined : prices.find((price) => price.models.includes(wire))) ??
    null
  );
}
