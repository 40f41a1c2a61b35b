import { describe, expect, it } from 'vitest';
import { pickerLines } from './session-picker.js';

const safe = {
  label: (text: string) => text.replace(/[^\w-]/g, '?'),
  text: (text: string) => text.replace(/\x1b/g, ''),
};
const NOW = Date.parse('2026-01-02T12:00:00Z');

describe('pickerLines', () => {
  it('shows number, name, age, route and the first prompt, aligned and shortened to the screen', () => {
    const lines = pickerLines(
      [
        { name: 'work', lastUsed: '2026-01-02T11:55:00Z', route: 'deepseek', firstPrompt: 'fix the\nfailing test' },
        { name: 's1', lastUsed: '2026-01-01T09:00:00Z', route: null, firstPrompt: `long ${'x'.repeat(200)}` },
        { name: 'old', lastUsed: '2025-12-20T12:00:00Z', route: 'zai', firstPrompt: null },
      ],
      safe,
      NOW,
      60,
    );
    expect(lines[0]).toBe('1  work  5m ago   deepseek  fix the failing test');
    expect(lines[1]?.startsWith('2  s1    27h ago  -         long xxx')).toBe(true);
    expect(lines[1]?.endsWith('…')).toBe(true);
    expect([...(lines[1] ?? '')].length).toBeLessThanOrEqual(57);
    expect(lines[2]).toBe('3  old   13d ago  zai');
  });

  it('passes the prompt through the terminal-safe filter', () => {
    const [line] = pickerLines(
      [{ name: 'a', lastUsed: '2026-01-02T12:00:00Z', route: null, firstPrompt: 'a \x1b[2Jclear' }],
      safe,
      NOW,
      80,
    );
    expect(line).not.toContain('\x1b');
  });
});
