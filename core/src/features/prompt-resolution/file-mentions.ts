import { type FileHandle, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type OpenedBeneath, openBeneath, WorkspaceAccessError } from '../../sandbox/open-beneath-workspace.js';
import type { ImageMediaType, MentionedFile } from '../../prompt/user-message.js';
import { PromptResolutionError } from './prompt-resolution-error.js';

/** The most files one prompt may mention. */
export const MAX_MENTIONED_FILES = 10;
/** The most bytes one mentioned text file may have. */
export const MAX_MENTIONED_TEXT_BYTES = 256 * 1024;
/** The most bytes all mentioned text files together may have. */
export const MAX_MENTIONED_TOTAL_BYTES = 1024 * 1024;
/** The most bytes one mentioned image may have. */
export const MAX_MENTIONED_IMAGE_BYTES = 5 * 1024 * 1024;

/** A mention as written: the path text after `@`, unquoted. */
export interface Mention {
  readonly path: string;
}

// `@` starts a mention at the start of the text or after whitespace; `@"…"` may hold spaces; `@@`
// writes a literal `@`. Trailing sentence punctuation is not part of an unquoted path.
const MENTION = /(^|\s)@(?:"([^"\n]+)"|(@?)(\S+))/gu;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/u;

/** The mentions in a prompt, in order, each path once. */
export function findMentions(prompt: string): Mention[] {
  const seen = new Set<string>();
  const mentions: Mention[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const quoted = match[2];
    const escaped = match[3] === '@';
    if (escaped) continue;
    const path = quoted ?? (match[4] ?? '').replace(TRAILING_PUNCTUATION, '');
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    mentions.push({ path });
  }
  return mentions;
}

/** The prompt as the model reads it: each `@@` at a word start becomes a literal `@`. */
export function unescapeMentions(prompt: string): string {
  return prompt.replace(/(^|\s)@@/gu, '$1@');
}

/**
 * Reads the files a prompt mentions, relative to the working folder and confined to the workspace
 * (symlinks resolved first). A missing, outside, binary or oversize file, or too many, stops the
 * turn with a PromptResolutionError that names no path.
 */
export async function readMentionedFiles(
  mentions: readonly Mention[],
  where: { readonly workspace: string; readonly cwd: string },
): Promise<MentionedFile[]> {
  if (mentions.length > MAX_MENTIONED_FILES) {
    throw new PromptResolutionError(
      `the prompt mentions ${mentions.length} files; at most ${MAX_MENTIONED_FILES} may be attached`,
    );
  }
  const files: MentionedFile[] = [];
  let textBytes = 0;
  for (const [index, mention] of mentions.entries()) {
    const ordinal = `file mention ${index + 1}`;
    const real = await realpath(resolve(where.cwd, mention.path)).catch(() => null);
    if (real === null) throw new PromptResolutionError(`${ordinal} names no file in the workspace`);
    const rel = relative(where.workspace, real);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
      throw new PromptResolutionError(
        `${ordinal} resolves outside the workspace; only workspace files can be attached`,
      );
    const path = rel.split(sep).join('/');
    // Opened once and judged on the descriptor: a link swapped in after the check above is refused.
    let opened: OpenedBeneath;
    try {
      opened = await openBeneath(where.workspace, real);
    } catch (error) {
      if (error instanceof WorkspaceAccessError)
        throw new PromptResolutionError(
          `${ordinal} resolves outside the workspace; only workspace files can be attached`,
        );
      throw new PromptResolutionError(`${ordinal} names no file in the workspace`);
    }
    try {
      const file = await readMentioned(opened, ordinal, path);
      if (file.kind === 'text') {
        textBytes += Buffer.byteLength(file.text);
        if (textBytes > MAX_MENTIONED_TOTAL_BYTES)
          throw new PromptResolutionError(`the mentioned files total more than ${MAX_MENTIONED_TOTAL_BYTES} bytes`);
      }
      files.push(file);
    } finally {
      await opened.handle.close();
    }
  }
  return files;
}

/** One opened mention as the prompt carries it: an image, or text within its bound. */
async function readMentioned(opened: OpenedBeneath, ordinal: string, path: string): Promise<MentionedFile> {
  const { info, handle } = opened;
  if (!info.isFile()) throw new PromptResolutionError(`${ordinal} is not a regular file`);
  // The first bytes say whether it is an image; only then is the whole file read, within its bound.
  const mediaType = imageMediaType(await readHead(handle, Math.min(info.size, 16)));
  if (mediaType !== null) {
    if (info.size > MAX_MENTIONED_IMAGE_BYTES)
      throw new PromptResolutionError(`${ordinal} is an image larger than ${MAX_MENTIONED_IMAGE_BYTES} bytes`);
    return { kind: 'image', path, mediaType, data: (await readHead(handle, info.size)).toString('base64') };
  }
  if (info.size > MAX_MENTIONED_TEXT_BYTES)
    throw new PromptResolutionError(`${ordinal} is larger than ${MAX_MENTIONED_TEXT_BYTES} bytes`);
  const text = textOf(await readHead(handle, info.size));
  if (text === null)
    throw new PromptResolutionError(`${ordinal} is a binary file; only text files and images can be attached`);
  return { kind: 'text', path, text };
}

async function readHead(handle: FileHandle, bytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

/** The image type its first bytes say, or null. */
function imageMediaType(bytes: Buffer): ImageMediaType | null {
  const starts = (...prefix: number[]): boolean => prefix.every((byte, at) => bytes[at] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** The file as text when it is valid UTF-8 without NUL bytes, else null (binary). */
function textOf(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
