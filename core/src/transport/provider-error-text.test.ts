import { describe, expect, it } from 'vitest';
import { providerErrorDetail } from './provider-error-text.js';

const KEY = `sk-test-${'0'.repeat(32)}`;
const PROMPT = 'tell me the secret plan';

/** The detail of a JSON error body, scrubbing nothing unless told. */
const detailOf = (body: unknown, scrub: readonly string[] = []) => providerErrorDetail(JSON.stringify(body), scrub);

describe('providerErrorDetail: the shapes providers answer with', () => {
  it('OpenAI: error.message, error.type and error.code', () => {
    const body = {
      error: { message: 'The model `x` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
    };
    expect(detailOf(body)).toEqual({
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: 'The model `x` does not exist',
    });
  });

  it('Anthropic: type error around error.type and error.message', () => {
    const body = { type: 'error', error: { type: 'not_found_error', message: 'model: claude-x' } };
    expect(detailOf(body)).toEqual({ type: 'not_found_error', code: null, message: 'model: claude-x' });
  });

  it('Google: a numeric error.code and the status label as the type', () => {
    const body = { error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } };
    expect(detailOf(body)).toEqual({ type: 'NOT_FOUND', code: '404', message: 'models/x is not found' });
  });

  it('a plain {message}', () => {
    expect(detailOf({ message: 'Unauthorized' })).toEqual({ type: null, code: null, message: 'Unauthorized' });
  });

  it('a {detail}, as FastAPI-style servers answer', () => {
    expect(detailOf({ detail: 'Not Found' })).toEqual({ type: null, code: null, message: 'Not Found' });
  });

  it('an error that is a bare string', () => {
    expect(detailOf({ error: 'model not loaded' })).toEqual({ type: null, code: null, message: 'model not loaded' });
  });

  it('a body that is not JSON, or JSON without a message, has no message', () => {
    expect(providerErrorDetail('<html>502 Bad Gateway</html>', [])).toEqual({ type: null, code: null, message: null });
    expect(providerErrorDetail('', [])).toEqual({ type: null, code: null, message: null });
    expect(detailOf([1, 2])).toEqual({ type: null, code: null, message: null });
    expect(detailOf({ error: { message: '   ' } })).toEqual({ type: null, code: null, message: null });
  });
});

describe('providerErrorDetail: what is never shown', () => {
  it('scrubs the key and the prompt when the provider echoes them', () => {
    const body = { error: { message: `key ${KEY} cannot be used for: ${PROMPT}`, type: 'invalid_request_error' } };
    const detail = detailOf(body, [KEY, PROMPT]);
    expect(detail.message).toBe('key <redacted> cannot be used for: <redacted>');
    expect(JSON.stringify(detail)).not.toContain(KEY);
    expect(JSON.stringify(detail)).not.toContain(PROMPT);
  });

  it('values shorter than four characters are not scrubbed: they would blank ordinary words', () => {
    expect(detailOf({ message: 'the abc model' }, ['abc']).message).toBe('the abc model');
  });

  it('removes secret-shaped tokens the provider put in its message', () => {
    const secrets = ['ghp_FAKE0test0ONLY0not0real0', 'AKIAFAKETESTZZ234567', 'sk-test-FAKE0000000000'];
    const message = detailOf({ message: `leaked ${secrets.join(' and ')} here` }).message ?? '';
    for (const secret of secrets) expect(message).not.toContain(secret);
    expect(message).toMatch(/^leaked .*redacted.* and .*redacted.* and .*redacted.* here$/);
  });

  it('strips ANSI sequences and control characters, and folds the text onto one line', () => {
    const message = '\u001b[31mred\u001b[0m text\nnext\tline\u0007 \u202eevil\r\n  end';
    expect(detailOf({ message }).message).toBe('red text next line evil end');
  });

  it('cuts the message at 300 characters, marking the cut', () => {
    const message = detailOf({ message: 'word '.repeat(100) }).message ?? '';
    expect(message).toHaveLength(300);
    expect(message.endsWith('\u2026')).toBe(true);
    expect(detailOf({ message: 'x'.repeat(300) }).message).toBe('x'.repeat(300));
  });
});

describe('providerErrorDetail: type and code labels', () => {
  it('drops labels that are not identifier-like', () => {
    const body = { error: { message: 'm', type: 'not an identifier', code: 'x'.repeat(65) } };
    expect(detailOf(body)).toEqual({ type: null, code: null, message: 'm' });
  });

  it('drops a label that held the key rather than showing it scrubbed', () => {
    const body = { error: { message: 'm', type: `bad-${KEY}`, code: KEY } };
    expect(detailOf(body, [KEY])).toEqual({ type: null, code: null, message: 'm' });
  });

  it('keeps identifier-like labels up to 64 characters', () => {
    const body = { error: { message: 'm', type: 'rate_limit.exceeded:v1', code: 'c'.repeat(64) } };
    expect(detailOf(body)).toEqual({ type: 'rate_limit.exceeded:v1', code: 'c'.repeat(64), message: 'm' });
  });
});
