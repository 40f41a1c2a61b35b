import type { AgentEvent, Cost, CostTotal, RequestManifest, ToolCallRecord, TotalUsage } from '@cw/core';
import { moneyParts } from '../render/cost-text.js';
import type { TurnUsage } from '@cw/core/plugin';
import type { MarkdownRenderer } from '../render/load-markdown.js';
import type { MarkdownStream } from '../render/markdown-stream.js';
import { foldedOutput } from '../render/folded-output.js';
import { toolChangesLine, toolEndLine, toolStartLine } from '../render/tool-status-line.js';

// How one turn of the interactive session looks on the terminal: the reply as it streams (rendered
// Markdown block by block on a colour terminal), reasoning dimmed (or folded to one line without
// colour), a line per tool call as it starts and as it ends with its output folded under it and a
// spinner between, and the usage when the turn is done. Everything cw itself writes goes
// through the redactor it is given; the model's text only loses its terminal controls.

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** The redaction helpers the view prints through (the core's). */
export interface Redactor {
  readonly terminalSafe: (text: string) => string;
  readonly terminalSafeMultiline: (text: string) => string;
  readonly safeIdentifier: (text: string) => string;
}

/** Where the view writes, and whether it may use colour and a spinner. */
export interface ViewTarget {
  readonly write: (text: string) => void;
  /** ANSI styling and the spinner: a terminal without NO_COLOR. */
  readonly color: boolean;
  /** The terminal's columns now (80 when not told). */
  readonly width?: () => number;
}

/** Renders the events of turns as they arrive; one view serves the whole session. */
export class TurnView {
  #midLine = false;
  #reasoning = false;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #label = '';
  #markdown: MarkdownRenderer | undefined;
  // The reply text of the step under way, rendered as it streams.
  #reply: MarkdownStream | undefined;

  constructor(
    private readonly target: ViewTarget,
    private readonly safe: Redactor,
  ) {}

  /** From now on, reply text is rendered as Markdown (only ever on a colour terminal). */
  renderMarkdown(renderer: MarkdownRenderer): void {
    if (this.target.color) this.#markdown = renderer;
  }

  /** Shows one event; `turn-finish` and `error` are left to the session, which knows what follows. */
  show(event: AgentEvent): void {
    switch (event.type) {
      case 'step-start':
        this.spin('thinking');
        break;
      case 'text-delta':
        this.#endReasoning();
        if (this.#markdown !== undefined) {
          this.#replyText(event.text, this.#markdown);
          break;
        }
        this.stopSpinner();
        this.#text(this.safe.terminalSafeMultiline(event.text));
        break;
      case 'reasoning-delta':
        this.stopSpinner();
        if (!this.#reasoning) {
          // Reasoning starts on a line of its own; set after, since line() ends any reasoning block.
          this.line('');
          this.#reasoning = true;
          if (!this.target.color) {
            // Folded: without colour, a dim block cannot be told from the reply.
            this.line('(thinking…)');
            break;
          }
          this.target.write('\u001b[2m');
        }
        if (this.target.color) this.#text(this.safe.terminalSafeMultiline(event.text));
        break;
      case 'tool-call':
        this.#endReasoning();
        this.line(toolStartLine(event.call.name, event.summary, this.safe.terminalSafe, '').trimEnd());
        this.spin(`${event.call.name}`);
        break;
      case 'tool-result':
        this.line(
          (
            toolEndLine(event.record, this.safe.terminalSafe, '') +
            toolChangesLine(event.record, this.safe.terminalSafe, '')
          ).trimEnd(),
        );
        this.#output(event.record);
        break;
      case 'retry':
        this.line(
          `retry ${event.retry.attempt} in ${event.retry.delayMs} ms after ${this.safe.terminalSafe(event.retry.cause)}`,
        );
        break;
      case 'step-finish':
        this.#endReasoning();
        this.#endReply();
        this.stopSpinner();
        break;
      default:
        break;
    }
  }

  /** A line of cw's own, on a line of its own (never in the middle of streamed text). */
  line(text: string): void {
    this.stopSpinner();
    this.#endReasoning();
    this.#endReply();
    if (this.#midLine) this.target.write('\n');
    this.#midLine = false;
    if (text !== '') this.target.write(`${text}\n`);
  }

  /**
   * A line of cw's own that leaves the reply as it is: a Markdown block still open stays open (it is
   * not on the screen yet), and plain text goes on after it on the next line.
   */
  aside(text: string): void {
    this.stopSpinner();
    if (this.#midLine) this.target.write('\n');
    this.#midLine = false;
    this.target.write(`${text}\n`);
  }

  /** Ends the streamed text's line, so the prompt starts on a fresh one. */
  finish(): void {
    this.stopSpinner();
    this.#endReasoning();
    this.#endReply();
    if (this.#midLine) this.target.write('\n');
    this.#midLine = false;
  }

  /** Shows a spinner with `label` until the next output; nothing without a terminal. */
  spin(label: string): void {
    if (!this.target.color) return;
    this.#label = this.safe.terminalSafe(label);
    if (this.#timer !== undefined || this.#midLine) return;
    this.#timer = setInterval(() => {
      this.target.write(`\r${FRAMES[this.#frame++ % FRAMES.length]} ${this.#label}\u001b[K`);
    }, FRAME_MS);
  }

  stopSpinner(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.target.write('\r\u001b[K');
  }

  // Blocks are printed as they complete; while one is still open, the spinner says text is coming.
  #replyText(text: string, markdown: MarkdownRenderer): void {
    if (this.#reply === undefined) {
      if (this.#midLine) this.target.write('\n');
      this.#midLine = false;
      this.#reply = markdown.stream((rendered) => {
        this.stopSpinner();
        this.target.write(rendered);
      }, this.#width());
    }
    this.#reply.push(text);
    if (this.#reply.idle) this.stopSpinner();
    else this.spin('writing');
  }

  #endReply(): void {
    const reply = this.#reply;
    if (reply === undefined) return;
    this.#reply = undefined;
    reply.end();
  }

  // Under the call's status line, indented; dim on a colour terminal, so it reads as the tool's, not the reply.
  #output(record: ToolCallRecord): void {
    if (record.status !== 'ok' && record.status !== 'error') return;
    for (const line of foldedOutput(record.content, this.safe.terminalSafe, this.#width() - 2)) {
      this.target.write(this.target.color ? `  \u001b[2m${line}\u001b[22m\n` : `  ${line}\n`);
    }
  }

  #width(): number {
    return this.target.width?.() ?? 80;
  }

  #text(text: string): void {
    if (text === '') return;
    this.target.write(text);
    this.#midLine = !text.endsWith('\n');
  }

  #endReasoning(): void {
    if (!this.#reasoning) return;
    this.#reasoning = false;
    if (this.target.color) {
      this.target.write('\u001b[22m');
      if (this.#midLine) this.target.write('\n');
      this.#midLine = false;
    }
  }
}

/**
 * The usage line after a turn: tokens in and out over the turn, and how much of the route's window
 * the conversation now takes (the last request's input and output).
 */
export function usageLine(
  usage: TotalUsage,
  last: TurnUsage | null,
  manifest: RequestManifest | null,
  money?: { readonly cost: Cost; readonly session_cost: CostTotal },
): string {
  const number = (value: number): string => value.toLocaleString('en-US');
  const parts = [`${number(usage.input_tokens)} in`, `${number(usage.output_tokens)} out`];
  const route = manifest !== null && 'exact' in manifest.route ? manifest.route.exact : null;
  if (last !== null && route !== null && route.context_limit_tokens > 0) {
    const used = last.input_tokens + last.output_tokens;
    const percent = Math.min(100, Math.round((used / route.context_limit_tokens) * 100));
    parts.push(`context ${number(used)} of ${number(route.context_limit_tokens)} (${percent}%)`);
  }
  if (usage.steps_without_usage > 0) parts.push(`${usage.steps_without_usage} request(s) without usage`);
  if (money !== undefined) parts.push(...moneyParts(money));
  return `tokens: ${parts.join(' · ')}`;
}
