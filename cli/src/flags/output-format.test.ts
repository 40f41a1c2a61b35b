import { describe, expect, it } from 'vitest';
import { outputFormatOf, outputFormatOfWords } from './output-format.js';

describe('output format', () => {
  it('reads the format before parsing, so a usage error is printed as the script asked', () => {
    expect(outputFormatOfWords(['-s', 'x'])).toBe('text');
    expect(outputFormatOfWords(['--json'])).toBe('json');
    expect(outputFormatOfWords(['--output-format', 'stream-json'])).toBe('stream-json');
    expect(outputFormatOfWords(['--output-format=json'])).toBe('json');
    expect(outputFormatOfWords(['--output-format', 'yaml'])).toBe('text');
  });

  it('takes --json as --output-format json and refuses it with another format', () => {
    expect(outputFormatOf({ json: false }, 'u')).toBe('text');
    expect(outputFormatOf({ json: true }, 'u')).toBe('json');
    expect(outputFormatOf({ json: true, 'output-format': 'json' }, 'u')).toBe('json');
    expect(outputFormatOf({ json: false, 'output-format': 'stream-json' }, 'u')).toBe('stream-json');
    expect(() => outputFormatOf({ json: true, 'output-format': 'stream-json' }, 'u')).toThrow(
      '`--json` is `--output-format json`',
    );
  });
});
