import { describe, expect, it } from 'vitest';
import { editConfigText } from './config-text-edits.js';

const commented =
  '{\n    // the route I use most\n    "route": "deepseek",\n    "model": "m", // why\n    "tools": { "deny": ["shell"], },\n}\n';

describe('editConfigText', () => {
  it('replaces a value and leaves every other byte alone', async () => {
    expect(await editConfigText(commented, ['route'], 'moonshot')).toBe(commented.replace('"deepseek"', '"moonshot"'));
  });

  it("adds a field in the file's own indentation, keeping comments and one-line objects", async () => {
    expect(await editConfigText(commented, ['max_steps'], 40)).toBe(
      commented.replace(
        '    "tools": { "deny": ["shell"], },\n',
        '    "tools": { "deny": ["shell"], },\n    "max_steps": 40,\n',
      ),
    );
    expect(await editConfigText(commented, ['tools', 'allow'], ['read_file'])).toContain(
      '"tools": { "deny": ["shell"], "allow": ["read_file"], },',
    );
  });

  it('creates the objects a nested key needs', async () => {
    expect(await editConfigText('{\n  "route": "x"\n}\n', ['routes', 'local', 'model'], 'm')).toBe(
      '{\n  "route": "x",\n  "routes": {\n    "local": {\n      "model": "m"\n    }\n  }\n}\n',
    );
    expect(await editConfigText('{}\n', ['route'], 'x')).toBe('{\n  "route": "x"\n}\n');
  });

  it('removes a field with its line and its line comment, and the comma it leaves trailing', async () => {
    expect(await editConfigText(commented, ['model'], undefined)).toBe(
      commented.replace('    "model": "m", // why\n', ''),
    );
    expect(await editConfigText('{\n  "a": 1,\n  "b": 2\n}\n', ['b'], undefined)).toBe('{\n  "a": 1\n}\n');
    expect(await editConfigText(commented, ['nothing'], undefined)).toBe(commented);
  });

  it('keeps CRLF line ends and tab indentation', async () => {
    expect(await editConfigText('{\r\n\t"a": 1\r\n}\r\n', ['b'], 2)).toBe('{\r\n\t"a": 1,\r\n\t"b": 2\r\n}\r\n');
  });
});
