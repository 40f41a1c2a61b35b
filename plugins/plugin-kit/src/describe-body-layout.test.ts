import type { WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { describeBodyLayout, type BodyLayoutSpec } from './describe-body-layout.js';
import { hasType } from './json-guards.js';
import { reasoningLayout } from './reasoning-layout.js';

const reasoning = reasoningLayout(['reasoning', 'include'], ['include']);
const outside: BodyLayoutSpec = {
  itemsKey: 'input',
  systemKey: 'instructions',
  isSystemItem: null,
  isToolResultItem: (item) => item['type'] === 'result',
  isAttachmentPart: (part) => hasType(part, ['image']),
  toolsKey: 'tools',
  toolChoiceKey: 'tool_choice',
  toolChoiceNamePath: 'name',
  streamKey: 'stream',
  reasoning,
};
const inline: BodyLayoutSpec = {
  ...outside,
  itemsKey: 'messages',
  systemKey: null,
  isSystemItem: (item) => item['role'] === 'system',
};

describe('describeBodyLayout', () => {
  it('a system field is the system region and no item is a system item', () => {
    const image = { type: 'image', url: 'a' };
    const layout = describeBodyLayout(
      {
        instructions: 'base',
        input: [{ type: 'message', content: [image] }, null, { type: 'result' }],
      },
      outside,
    );
    expect(layout).toEqual({
      systemValues: ['base'],
      itemsKey: 'input',
      systemItemIndexes: [],
      toolResultItemIndexes: [2],
      attachmentParts: [image],
      toolsKey: null,
      toolChoice: null,
      streamField: null,
      reasoning,
    });
  });

  it('inline system items form the system region, in body order, at their positions', () => {
    const first = { role: 'system', content: 'a' };
    const later = { role: 'system', content: 'b' };
    const layout = describeBodyLayout({ messages: [first, 'odd', { role: 'user' }, later] }, inline);
    expect(layout.systemItemIndexes).toEqual([0, 3]);
    expect(layout.systemValues).toEqual([first, later]);
  });

  it('items that are not an array: no items key, empty regions', () => {
    for (const body of [{}, { input: 'text' }, { input: { 0: 'x' } }] as WireBody[]) {
      const layout = describeBodyLayout(body, outside);
      expect(layout.itemsKey).toBeNull();
      expect(layout.toolResultItemIndexes).toEqual([]);
      expect(layout.attachmentParts).toEqual([]);
    }
  });

  it('reports the tools key only when the body declares tools', () => {
    expect(describeBodyLayout({ input: [], tools: [] }, outside).toolsKey).toBe('tools');
    expect(describeBodyLayout({ input: [] }, outside).toolsKey).toBeNull();
  });

  it('reads the tool choice with the dialect name path', () => {
    expect(describeBodyLayout({ tool_choice: { type: 'function', name: 'f' } }, outside).toolChoice).toEqual({
      kind: 'function',
      name: 'f',
    });
    expect(describeBodyLayout({ tool_choice: 'none' }, outside).toolChoice).toEqual({ kind: 'none', name: null });
  });

  it('the stream field only when it is a boolean', () => {
    expect(describeBodyLayout({ stream: true }, outside).streamField).toBe(true);
    expect(describeBodyLayout({ stream: false }, outside).streamField).toBe(false);
    expect(describeBodyLayout({ stream: 'yes' }, outside).streamField).toBeNull();
    expect(describeBodyLayout({}, outside).streamField).toBeNull();
  });
});

describe('cache breakpoints', () => {
  const marked = { ...outside, cacheMarkerKey: 'cache_control' };
  const mark = { type: 'ephemeral' };

  it('lists each marked tool, system block and content block by region, in body order', () => {
    const layout = describeBodyLayout(
      {
        instructions: [{ type: 'text', text: 's', cache_control: mark }],
        input: [
          { content: [{ type: 'text', text: 'a', cache_control: mark }] },
          { content: 'plain' },
          {
            content: [
              { type: 'text', text: 'b' },
              { type: 'result', cache_control: mark },
            ],
          },
        ],
        tools: [{ name: 'x' }, { name: 'y', cache_control: mark }],
      },
      marked,
    );
    expect(layout.cacheBreakpoints).toEqual(['tools', 'system', 'messages', 'messages']);
  });

  it('is absent for a dialect that names no marker, and empty for an unmarked body', () => {
    expect(describeBodyLayout({ input: [] }, outside).cacheBreakpoints).toBeUndefined();
    expect(describeBodyLayout({ instructions: 's', input: [] }, marked).cacheBreakpoints).toEqual([]);
  });
});
