import { lazySchema } from '../validation/lazy-zod.js';

/** The placeholder an endpoint path may carry for the wire model, on wires that name the model in the URL. */
export const MODEL_PLACEHOLDER = '{model}';

/**
 * A path appended to a route's base URL: it starts with `/`, may end in a query (a method that asks
 * for a stream by URL rather than by a body field), and may hold `{model}` where the wire model
 * goes. No other brace is allowed, so a typo such as `{modle}` is an error at registration rather
 * than a literal brace on the wire. A fragment would never reach the server.
 */
export const endpointPathSchema = lazySchema((z) =>
  z
    .string()
    .max(512)
    .startsWith('/')
    .refine((path) => !path.includes('#'), 'must not carry a fragment (#...)')
    .refine(
      (path) => !/[{}]/.test(path.split(MODEL_PLACEHOLDER).join('')),
      'may hold {model} for the wire model and no other brace',
    ),
);
