import { describe, expect, it } from 'vitest';
import { providerError } from './provider-error.js';

describe('providerError', () => {
  it('takes the code from `type`, else from `code`, and the raw message', () => {
    expect(providerError({ type: 'overloaded_error', message: 'Overloaded' })).toEqual({
      type: 'provider-error',
      code: 'overloaded_error',
      message: 'Overloaded',
    });
    expect(providerError({ code: 'server_error', message: 'boom' })).toEqual({
      type: 'provider-error',
      code: 'server_error',
      message: 'boom',
    });
    expect(providerError({ type: '', code: 'rate_limit', message: 'm' })).toMatchObject({ code: 'rate_limit' });
  });

  it('reads only the code keys it is given', () => {
    expect(providerError({ type: 'error', code: 'ERR', message: 'm' }, ['code'])).toMatchObject({ code: 'ERR' });
  });

  it('a code that is not a string, or a missing error, gives a null code and an empty message', () => {
    expect(providerError({ code: 502, message: 'bad gateway' })).toEqual({
      type: 'provider-error',
      code: null,
      message: 'bad gateway',
    });
    expect(providerError(undefined)).toEqual({ type: 'provider-error', code: null, message: '' });
    expect(providerError('text')).toEqual({ type: 'provider-error', code: null, message: '' });
  });
});
