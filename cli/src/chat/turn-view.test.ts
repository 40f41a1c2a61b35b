import { safeIdentifier, terminalSafe, terminalSafeMultiline } from '@cw/core';
import type { AgentEvent, RequestManifest } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { loadMarkdown } from '../render/load-markdown.js';
import { TurnView, usageLine } from './turn-view.js';

const safe = { terminalSafe, terminalSafeMultiline, safeIdentifier };

function plainView(): { view: TurnView; out: () => string } {
  let text = '';
  return { view: new TurnView({ write: (chunk) => (text += chunk), color: false }, safe), out: () => text };
}

const call = { id: 'c1', name: 'shell', arguments: '{"command":"npm test"}' };

describe('TurnView without colour', () => {
  it('streams the reply without terminal controls, folds reasoning to one line, and puts tool lines on lines of their own', () => {
    const { view, out } = plainView();
    const events: AgentEvent[] = [
      { type: 'reasoning-delta', text: 'secret thoughts' },
      { type: 'text-delta', text: 'Running \u001b[31mthe' },
      { type: 'text-delta', text: ' tests' },
      { type: 'tool-call', call, summary: 'npm test' },
      {
        type: 'tool-result',
        record: { call, status: 'ok', content: 'ok', durationMs: 42, summary: 'npm test' } as never,
      },
    ];
    for (const event of events) view.show(event);
    view.finish();
    expect(out()).toBe('(thinking…)\nRunning the tests\n▸ shell npm test\n✓ shell npm test (ok, 42 ms)\n  ok\n');
    expect(out()).not.toContain('secret thoughts');
  });
});

describe('TurnView with colour', () => {
  it('dims the reasoning, and only the reasoning', () => {
    let text = '';
    const view = new TurnView({ write: (chunk) => (text += chunk), color: true }, safe);
    view.show({ type: 'reasoning-delta', text: 'first, ' });
    view.show({ type: 'reasoning-delta', text: 'then' });
    view.show({ type: 'text-delta', text: 'Answer.' });
    view.finish();
    expect(text).toBe('\u001b[2mfirst, then\u001b[22m\nAnswer.\n');
  });
});

describe('TurnView with Markdown', () => {
  it('renders the reply block by block and prints the open block before a tool line', async () => {
    let text = '';
    const view = new TurnView({ write: (chunk) => (text += chunk), color: true, width: () => 80 }, safe);
    view.renderMarkdown(await loadMarkdown(terminalSafeMultiline));
    view.show({ type: 'text-delta', text: '# Plan\n\nRun **the' });
    expect(text.replaceAll('\r\u001b[K', '')).toBe('');
    view.show({ type: 'text-delta', text: ' tests**\n' });
    expect(text.replaceAll('\r\u001b[K', '')).toBe('\u001b[1;4mPlan\u001b[0m\n');
    view.show({ type: 'tool-call', call, summary: 'npm test' });
    view.finish();
    // The spinner's clears aside (it runs while a block is open), each block is printed once.
    expect(text.replaceAll('\r\u001b[K', '')).toBe(
      '\u001b[1;4mPlan\u001b[0m\n\nRun \u001b[1mthe tests\u001b[0m\n▸ shell npm test\n',
    );
  });

  it('is not used without colour: the reply stays as the model wrote it', async () => {
    const { view, out } = plainView();
    view.renderMarkdown(await loadMarkdown(terminalSafeMultiline));
    view.show({ type: 'text-delta', text: '**as written**' });
    view.finish();
    expect(out()).toBe('**as written**\n');
  });
});

describe('TurnView tool output', () => {
  it('folds long output under the call’s line to eight lines and a count', () => {
    const { view, out } = plainView();
    const content = Array.from({ length: 20 }, (_, index) => `row ${index}`).join('\n');
    view.show({
      type: 'tool-result',
      record: { call, status: 'ok', content, durationMs: 0, summary: 'npm test' } as never,
    });
    const rows = Array.from({ length: 8 }, (_, index) => `  row ${index}\n`).join('');
    expect(out()).toBe(`✓ shell npm test (ok)\n${rows}  … +12 lines\n`);
  });
});

describe('usageLine', () => {
  const manifest = { route: { exact: { context_limit_tokens: 128_000 } } } as unknown as RequestManifest;

  it('says the turn’s tokens and how much of the window the conversation takes', () => {
    expect(
      usageLine(
        { input_tokens: 12_034, output_tokens: 311, steps_without_usage: 0 },
        { input_tokens: 9_500, output_tokens: 370 },
        manifest,
      ),
    ).toBe('tokens: 12,034 in · 311 out · context 9,870 of 128,000 (8%)');
  });

  it('ends with the turn cost and the session total, or only why the cost is unknown', () => {
    const usage = { input_tokens: 12_034, output_tokens: 311, steps_without_usage: 0 };
    const last = { input_tokens: 9_500, output_tokens: 370 };
    expect(
      usageLine(usage, last, manifest, {
        cost: { usd: 0.041267 },
        session_cost: { usd: 0.31271, steps_without_cost: 0 },
      }),
    ).toBe('tokens: 12,034 in · 311 out · context 9,870 of 128,000 (8%) · cost $0.0413 · session $0.3127');
    expect(
      usageLine(usage, last, manifest, {
        cost: { usd: null, reason: 'route-not-metered' },
        session_cost: { usd: 0, steps_without_cost: 4 },
      }),
    ).toBe('tokens: 12,034 in · 311 out · context 9,870 of 128,000 (8%) · cost unknown (not billed per token)');
  });

  it('leaves out the context when no request reported usage, and says how many did not', () => {
    expect(usageLine({ input_tokens: 0, output_tokens: 0, steps_without_usage: 2 }, null, manifest)).toBe(
      'tokens: 0 in · 0 out · 2 request(s) without usage',
    );
  });
});
