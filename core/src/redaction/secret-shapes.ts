// Shapes of real credentials (the prefixes and lengths that secret scanners look for), used with the
// opposite bias to a scanner: no entropy floor, no "EXAMPLE" allowlist, no required trailing
// delimiter, prefixes mostly case-insensitive. Each shape must start at a token boundary (not right after
// an ASCII letter or digit) and carry a minimum tail; the boundary and the tail are what keep ordinary
// words such as `risk-level`, `akia-style` or `eyes-only` out.
const BOUNDARY = '(?<![A-Za-z0-9])';

/** The credential shapes, each anchored at a token boundary; shared with outbound redaction. */
export const SECRET_SHAPES: readonly RegExp[] = [
  // Stripe-style `sk_live_…` and other underscore `sk_` keys; dash `sk-` is caught by the marker rule.
  new RegExp(`${BOUNDARY}[spr]k_(?:test|live|prod)_[A-Za-z0-9]{8,}`, 'i'),
  new RegExp(`${BOUNDARY}sk_[A-Za-z0-9_-]{16,}`, 'i'),
  // GitHub classic (ghp_ gho_ ghu_ ghs_ ghr_) and fine-grained tokens.
  new RegExp(`${BOUNDARY}gh[pousr]_[A-Za-z0-9_]{16,}`, 'i'),
  new RegExp(`${BOUNDARY}github_pat_[A-Za-z0-9_]{16,}`, 'i'),
  // Slack bot/user/app/legacy tokens.
  new RegExp(`${BOUNDARY}xox[a-z]-[A-Za-z0-9-]{8,}`, 'i'),
  new RegExp(`${BOUNDARY}xapp-[A-Za-z0-9-]{8,}`, 'i'),
  // AWS access key ids and Bedrock long-lived keys: the prefixes are upper case by construction.
  new RegExp(`${BOUNDARY}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`),
  new RegExp(`${BOUNDARY}ABSK[A-Za-z0-9+/]{16,}`),
  /bedrock-api-key-/i,
  // Google API keys (`_` and `-` break the alphanumeric-run rule, so it would miss them).
  new RegExp(`${BOUNDARY}AIza[A-Za-z0-9_-]{16,}`),
  // A JWT header: base64url of `{"` is `eyJ`; the signature is optional, so only the header is required.
  new RegExp(`${BOUNDARY}eyJ[A-Za-z0-9_-]{10,}`),
  // Hugging Face, Groq, npm, Hugging Face org, xAI, Perplexity, OpenAI organization ids, GitLab.
  new RegExp(`${BOUNDARY}(?:hf|gsk|npm)_[A-Za-z0-9]{16,}`, 'i'),
  new RegExp(`${BOUNDARY}api_org_[A-Za-z0-9]{16,}`, 'i'),
  new RegExp(`${BOUNDARY}(?:xai|pplx|org)-[A-Za-z0-9]{16,}`, 'i'),
  new RegExp(`${BOUNDARY}glpat-[A-Za-z0-9_-]{16,}`, 'i'),
  // PEM private keys: the header alone is enough, the body may be on other lines.
  /BEGIN[A-Z0-9 ]*PRIVATE KEY/i,
];

// The shapes joined into one pattern per case rule: a text matches one of them exactly when it
// matches a shape, and one scan costs a preview's forty variables far less than eighteen each.
const joinedShapes = (ignoreCase: boolean): RegExp =>
  new RegExp(
    SECRET_SHAPES.filter((shape) => shape.flags.includes('i') === ignoreCase)
      .map((shape) => `(?:${shape.source})`)
      .join('|'),
    ignoreCase ? 'i' : '',
  );
let anyShape: readonly [RegExp, RegExp] | undefined;

/** True when the text contains something shaped like a known credential. */
export function looksSecretShaped(text: string): boolean {
  anyShape ??= [joinedShapes(true), joinedShapes(false)];
  return anyShape[0].test(text) || anyShape[1].test(text);
}
