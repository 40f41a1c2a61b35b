import { errorLine } from './error-line.js';

/** A failure as `--json` prints it on stdout: the same redacted line, plus the facts a script branches on. */
export interface JsonErrorDocument {
  readonly error: {
    /** What failed, e.g. `incomplete`, `http`, `timeout`, `usage`, `missing-api-key`. */
    readonly kind: string;
    /** The HTTP status the provider answered, when it answered. */
    readonly status: number | null;
    readonly message: string;
    readonly exit_code: number;
    /** The provider's own error type, code and message, scrubbed; null when it said nothing readable. */
    readonly provider: {
      readonly type: string | null;
      readonly code: string | null;
      readonly message: string | null;
    } | null;
  };
}

/** Builds the JSON form of a failure; every string in it crossed the same redaction as the stderr line. */
export async function jsonErrorDocument(error: unknown): Promise<JsonErrorDocument> {
  const { text, exitCode } = await errorLine(error);
  const fields = error as { kind?: unknown; status?: unknown; detail?: unknown; name?: unknown };
  const kind = typeof fields.kind === 'string' ? fields.kind : kindFromName(fields.name);
  const detail = fields.detail as JsonErrorDocument['error']['provider'] | undefined;
  return {
    error: {
      kind,
      status: typeof fields.status === 'number' ? fields.status : null,
      message: text,
      exit_code: exitCode,
      provider:
        detail && typeof detail === 'object' ? { type: detail.type, code: detail.code, message: detail.message } : null,
    },
  };
}

// `MissingApiKeyError` -> `missing-api-key`; anything unnamed is just an error.
function kindFromName(name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z]+$/.test(name)) return 'error';
  const words = name
    .replace(/Error$/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase();
  return words === '' ? 'error' : words;
}
