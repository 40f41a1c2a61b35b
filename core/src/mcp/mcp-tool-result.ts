import type { ToolImage } from '../tools/tool-contract.js';

// What the model is sent of a result's non-text parts (docs/mcp.md): images it can look at travel as
// image parts; what it cannot (audio, other binary, an image too large) stands as a typed note
// saying what was left out and why, so the model knows it was there.

/** The image types every image-taking route accepts. */
const SENDABLE_IMAGE_TYPES = new Set<string>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The most images one result carries, and the most base64 characters they may take together. */
export const MAX_RESULT_IMAGES = 4;
export const MAX_RESULT_IMAGE_CHARS = 5 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A tool call's result as the model reads it: text, and the images it can look at. */
export interface McpToolResult {
  /** True when the server marked the result as an error. */
  readonly isError: boolean;
  /** The text parts, embedded text resources, resource links and notes for what was left out. */
  readonly content: string;
  /** Images the result carried, in order; their places in `content` are marked `[image N: …]`. */
  readonly images: readonly ToolImage[];
}

type Part = Readonly<Record<string, unknown>>;

function size(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * Turns an MCP `tools/call` result into what the model reads: text parts as they are; an image as an
 * image part marked in the text; an embedded text resource as its text inside `<resource uri=…>`; a
 * binary resource that is an image as an image, any other as a note; a resource link as its name and
 * URI; audio as a note. A result with only structured content is its JSON.
 */
export function mcpToolResult(result: Readonly<Record<string, unknown>>): McpToolResult {
  const isError = result['isError'] === true;
  const content = result['content'];
  const images: ToolImage[] = [];
  let imageChars = 0;
  const image = (mediaType: string, data: string, what: string): string => {
    if (!SENDABLE_IMAGE_TYPES.has(mediaType)) return `[${what} left out: ${mediaType} is not an image type cw sends]`;
    if (!BASE64.test(data)) return `[${what} left out: its data is not base64]`;
    if (images.length >= MAX_RESULT_IMAGES || imageChars + data.length > MAX_RESULT_IMAGE_CHARS)
      return `[${what} left out: ${mediaType}, ${size(data)}; the result already carries as many images as cw sends]`;
    images.push({ media_type: mediaType as ToolImage['media_type'], data });
    imageChars += data.length;
    return `[image ${images.length}: ${mediaType}, ${size(data)}]`;
  };
  if (Array.isArray(content)) {
    const parts = (content as Part[]).map((part): string => {
      switch (part['type']) {
        case 'text':
          return text(part['text']) ?? '';
        case 'image':
          return image(text(part['mimeType']) ?? 'unknown', text(part['data']) ?? '', 'image');
        case 'audio':
          return `[audio left out: ${text(part['mimeType']) ?? 'unknown type'}, ${size(text(part['data']) ?? '')}; cw sends no audio to the model]`;
        case 'resource':
          return embeddedResource((part['resource'] ?? {}) as Part, image);
        case 'resource_link':
          return resourceLink(part);
        default:
          return `[${typeof part['type'] === 'string' ? part['type'] : 'content'} left out: a content type cw does not know]`;
      }
    });
    if (parts.length > 0 || result['structuredContent'] === undefined)
      return { isError, content: parts.join('\n'), images };
  }
  // Only structured content, or a result from a server on the 2024 protocol (`toolResult`).
  const structured = result['structuredContent'] ?? result['toolResult'];
  return { isError, content: structured === undefined ? '' : JSON.stringify(structured), images };
}

function attribute(value: string): string {
  return JSON.stringify(value);
}

function embeddedResource(resource: Part, image: (mediaType: string, data: string, what: string) => string): string {
  const uri = text(resource['uri']) ?? '';
  const mimeType = text(resource['mimeType']);
  const body = text(resource['text']);
  if (body !== null) {
    const type = mimeType === null ? '' : ` mimeType=${attribute(mimeType)}`;
    return `<resource uri=${attribute(uri)}${type}>\n${body}${body.endsWith('\n') ? '' : '\n'}</resource>`;
  }
  const blob = text(resource['blob']) ?? '';
  if (mimeType !== null && mimeType.startsWith('image/'))
    return image(mimeType, blob, `image resource ${attribute(uri)}`);
  return `[resource ${attribute(uri)} left out: binary${mimeType === null ? '' : ` ${mimeType}`}, ${size(blob)}; cw sends no binary resources to the model]`;
}

function resourceLink(part: Part): string {
  const uri = text(part['uri']) ?? '';
  const name = text(part['name']);
  const mimeType = text(part['mimeType']);
  const description = text(part['description']);
  const fields = [
    `uri=${attribute(uri)}`,
    ...(name === null ? [] : [`name=${attribute(name)}`]),
    ...(mimeType === null ? [] : [`mimeType=${attribute(mimeType)}`]),
    ...(description === null ? [] : [`description=${attribute(description)}`]),
  ];
  return `<resource_link ${fields.join(' ')} />`;
}
