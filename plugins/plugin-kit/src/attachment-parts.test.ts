import { describe, expect, it } from 'vitest';
import { collectAttachmentParts } from './attachment-parts.js';
import { hasType, type JsonObject } from './json-guards.js';

describe('collectAttachmentParts', () => {
  const isImage = (part: JsonObject): boolean => hasType(part, ['image']);

  it('collects accepted parts of every item, in body order', () => {
    const first = { type: 'image', n: 1 };
    const second = { type: 'image', n: 2 };
    const third = { type: 'image', n: 3 };
    expect(
      collectAttachmentParts(
        [{ content: [{ type: 'text', text: 'a' }, first, second] }, { content: 'plain' }, { content: [third] }],
        isImage,
      ),
    ).toEqual([first, second, third]);
  });

  it('skips items that are not objects, content that is not an array, and parts that are not objects', () => {
    expect(
      collectAttachmentParts([null, 'image', 3, { role: 'user' }, { content: [null, 'image', ['image']] }], () => true),
    ).toEqual([]);
  });
});
