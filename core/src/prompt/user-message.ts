import { keepLayout } from '../kept-layouts.js';
import type { ConversationMessage } from './conversation.js';

/** The image types a mention may attach, recognised by their first bytes. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** A media type of an attachable image. */
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** One mentioned file, read: its path relative to the workspace and its content; or an MCP resource's text. */
export type MentionedFile =
  | { readonly kind: 'text'; readonly path: string; readonly text: string }
  | { readonly kind: 'resource'; readonly server: string; readonly uri: string; readonly text: string }
  | { readonly kind: 'image'; readonly path: string; readonly mediaType: ImageMediaType; readonly data: string };

/** A prompt resolved as a real submit resolves it: the text the model reads and the files it mentioned. */
export interface ResolvedPrompt {
  /** The prompt text (skill-wrapped, mention escapes undone), before the files are rendered after it. */
  readonly text: string;
  readonly files: readonly MentionedFile[];
  /** The skill that wrapped the prompt, or null. */
  readonly skill: string | null;
  /**
   * MCP resources the prompt mentions that were not read: a preview reads none, since reading one
   * starts its server (docs/mcp.md, "Resources"). Absent or 0 when every mention was read.
   */
  readonly unreadResources?: number;
}

type MentionedImage = Extract<MentionedFile, { kind: 'image' }>;

/** What the prompt of a turn is: text as typed (the library's default), or a prompt resolved as a submit does. */
export type TurnPrompt = string | ResolvedPrompt;

/** A user message, and what became of the files it mentioned on this route. */
export interface RenderedPrompt {
  readonly message: Extract<ConversationMessage, { role: 'user' }>;
  readonly textFileCount: number;
  readonly attachedImageCount: number;
  /** Images left out because the route's model takes none (capability row `image_input`). */
  readonly strippedImageCount: number;
}

/**
 * Renders a turn's prompt as the user message a route is sent: text files inline after the prompt,
 * images as image parts when the route takes them, else a note in their place (counted).
 */
export function renderPrompt(prompt: TurnPrompt, imageInput: boolean): RenderedPrompt {
  if (typeof prompt === 'string') {
    return {
      message: { role: 'user', content: prompt },
      textFileCount: 0,
      attachedImageCount: 0,
      strippedImageCount: 0,
    };
  }
  let content = prompt.text;
  const images: { media_type: MentionedImage['mediaType']; data: string }[] = [];
  let textFileCount = 0;
  let strippedImageCount = 0;
  for (const file of prompt.files) {
    if (file.kind === 'resource') {
      textFileCount += 1;
      const where = `server=${JSON.stringify(file.server)} uri=${JSON.stringify(file.uri)}`;
      content += `\n\n<resource ${where}>\n${file.text}${file.text.endsWith('\n') ? '' : '\n'}</resource>`;
      continue;
    }
    const path = JSON.stringify(file.path);
    if (file.kind === 'text') {
      textFileCount += 1;
      content += `\n\n<file path=${path}>\n${file.text}${file.text.endsWith('\n') ? '' : '\n'}</file>`;
    } else if (imageInput) {
      images.push({ media_type: file.mediaType, data: file.data });
      content += `\n\n<image path=${path} attached="${images.length}" />`;
    } else {
      strippedImageCount += 1;
      content += `\n\n<image path=${path} omitted="this model does not take images" />`;
    }
  }
  return {
    message: images.length === 0 ? { role: 'user', content } : { role: 'user', content, images },
    textFileCount,
    attachedImageCount: images.length,
    strippedImageCount,
  };
}

// One rendered prompt lives as long as the module, as a turn-context placement does
// (turn-context-message.ts).
keepLayout(renderPrompt('', false));

/**
 * History for a route that takes no images: stored image parts are left out. A user message's notes
 * stay in its text; a tool result gains a typed note for each image it loses, so the model knows
 * what was there and why it cannot see it (docs/mcp.md).
 */
export function withoutImages(messages: readonly ConversationMessage[]): readonly ConversationMessage[] {
  if (!messages.some((message) => (message.role === 'user' || message.role === 'tool') && message.images !== undefined))
    return messages;
  return messages.map((message): ConversationMessage => {
    if (message.role === 'user' && message.images !== undefined) {
      // Only the images go: a stored turn context must replay the same bytes on every route.
      const { images: _images, ...rest } = message;
      return rest;
    }
    if (message.role === 'tool' && message.images !== undefined) {
      const { images, ...rest } = message;
      const notes = images.map(
        (image, index) => `[image ${index + 1} left out: ${image.media_type}; this model does not take images]`,
      );
      return { ...rest, content: [message.content, ...notes].join('\n') };
    }
    return message;
  });
}
