// cw's answer to ACP's `initialize`, kept free of the protocol SDK: the server (serve-acp.ts) returns
// it from its handler, and `cw acp` writes it before that SDK has loaded (early-initialize.ts), so
// both paths send the same bytes (docs/performance.md, "Every entry").

/** The ACP version cw speaks: the SDK's `PROTOCOL_VERSION`, which a test holds it to. */
export const PROTOCOL_VERSION = 1;

/** cw's `initialize` result; it depends on nothing the client sends. */
export function initializeResult(version: string) {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {} },
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
      mcpCapabilities: { http: true, sse: false },
    },
    authMethods: [],
    agentInfo: { name: 'cw', title: 'cw', version },
  };
}

/** A JSON-RPC request id cw answers without the SDK: a string or a safe integer. */
export type EarlyId = string | number;

// The highest protocol version the SDK's schema accepts in `initialize` (a uint16).
const MAX_PROTOCOL_VERSION = 65535;

/**
 * The id of `text` when it is an `initialize` request the SDK-based server would answer with
 * `initializeResult`; undefined for anything else, which that server answers itself. The test is a
 * narrowing of the SDK's: a JSON-RPC 2.0 request with a string or integer id, and params holding an
 * integer `protocolVersion` from 0 to 65535 (every other field of them falls back to a default there).
 */
export function earlyInitializeId(text: string): EarlyId | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message['jsonrpc'] !== '2.0' || message['method'] !== 'initialize') return undefined;
  const id = message['id'];
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const params = message['params'];
  if (!isObject(params)) return undefined;
  const protocolVersion = params['protocolVersion'];
  if (!Number.isSafeInteger(protocolVersion)) return undefined;
  if ((protocolVersion as number) < 0 || (protocolVersion as number) > MAX_PROTOCOL_VERSION) return undefined;
  return id as EarlyId;
}

/** The line the SDK writes for `initializeResult` answering request `id`: its key order, newline-ended. */
export function initializeAnswerLine(id: EarlyId, version: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, result: initializeResult(version) })}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
