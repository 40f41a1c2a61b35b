import { describe, expect, it } from 'vitest';
import { MAX_RESULT_IMAGES, mcpToolResult } from './mcp-tool-result.js';

const PNG = 'iVBORw0KGgo=';

describe('mcpToolResult', () => {
  it('keeps text, sends images as images, and marks their places', () => {
    const result = mcpToolResult({
      content: [
        { type: 'text', text: 'here it is' },
        { type: 'image', mimeType: 'image/png', data: PNG },
      ],
    });
    expect(result).toEqual({
      isError: false,
      content: 'here it is\n[image 1: image/png, 8 bytes]',
      images: [{ media_type: 'image/png', data: PNG }],
    });
  });

  it('leaves out what the model cannot take, saying what and why', () => {
    const result = mcpToolResult({
      isError: true,
      content: [
        { type: 'image', mimeType: 'image/svg+xml', data: PNG },
        { type: 'image', mimeType: 'image/png', data: 'not base64!' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/gzip', blob: 'AAAA' } },
        { type: 'hologram' },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.images).toEqual([]);
    expect(result.content.split('\n')).toEqual([
      '[image left out: image/svg+xml is not an image type cw sends]',
      '[image left out: its data is not base64]',
      '[audio left out: audio/wav, 3 bytes; cw sends no audio to the model]',
      '[resource "file:///a.bin" left out: binary application/gzip, 3 bytes; cw sends no binary resources to the model]',
      '[hologram left out: a content type cw does not know]',
    ]);
    const many = mcpToolResult({
      content: Array.from({ length: MAX_RESULT_IMAGES + 1 }, () => ({
        type: 'image',
        mimeType: 'image/png',
        data: PNG,
      })),
    });
    expect(many.images).toHaveLength(MAX_RESULT_IMAGES);
    expect(many.content).toContain('as many images as cw sends');
  });

  it('keeps an embedded text resource with its text, an image blob as an image, and a link with its URI and name', () => {
    const result = mcpToolResult({
      content: [
        { type: 'resource', resource: { uri: 'demo://doc/1', mimeType: 'text/plain', text: 'the document' } },
        { type: 'resource', resource: { uri: 'demo://pic', mimeType: 'image/png', blob: PNG } },
        { type: 'resource_link', uri: 'demo://doc/2', name: 'Doc 2' },
      ],
    });
    expect(result.content.split('\n')).toEqual([
      '<resource uri="demo://doc/1" mimeType="text/plain">',
      'the document',
      '</resource>',
      '[image 1: image/png, 8 bytes]',
      '<resource_link uri="demo://doc/2" name="Doc 2" />',
    ]);
    expect(result.images).toHaveLength(1);
  });

  it('structured content alone is its JSON, as before', () => {
    expect(mcpToolResult({ content: [], structuredContent: { a: 1 } }).content).toBe('{"a":1}');
    expect(mcpToolResult({ toolResult: [1] }).content).toBe('[1]');
  });
});
