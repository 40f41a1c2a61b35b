// What a feature may report to the host during a turn (an auto-route choice, a compaction, a plugin's
// own news): each kind is registered with its fields' types, a one-line description and the words cw
// prints for it (docs/architecture.md, "The turn's hooks"). Hosts read the words from here, so no host
// switches on a list of features.
import { BUILT_IN_NAME, NAMESPACED_NAME } from './reason-table.js';

/**
 * A notice field's type. `identifier` values are printed as safe identifiers; `text` is words already
 * redacted where the notice was made (a plugin's are redacted as it sends them).
 */
export type NoticeFieldType = 'identifier' | 'text' | 'integer' | 'number' | 'boolean';

/** One field of a notice: its type and what it holds. */
export interface NoticeField {
  readonly type: NoticeFieldType;
  readonly description: string;
}

/** A field's value. */
export type NoticeValue = string | number | boolean;

/** Something a feature did on its own during a turn: a registered kind and that kind's fields. */
export interface TurnNotice {
  readonly kind: string;
  readonly [field: string]: NoticeValue;
}

/** One registered notice kind. */
export interface NoticeKind {
  readonly kind: string;
  /** One line: when the notice is sent. */
  readonly description: string;
  /** Every field the notice carries besides `kind`; all are required. */
  readonly fields: Readonly<Record<string, NoticeField>>;
  /** cw's one line for a notice of this kind, from its already redacted fields. */
  readonly text: (fields: Readonly<Record<string, NoticeValue>>) => string;
  /** `cw` for the core's kinds, the feature's or plugin's name otherwise. */
  readonly registeredBy: string;
}

/** A notice as a host shows it: its kind, its redacted fields and cw's line. */
export interface ShownNotice {
  readonly kind: string;
  readonly fields: Readonly<Record<string, NoticeValue>>;
  readonly text: string;
}

/** The notice kinds one registry knows, in registration order. */
export class NoticeKindTable {
  readonly #kinds = new Map<string, NoticeKind>();

  constructor(
    private readonly safeIdentifier: (text: string) => string,
    core: readonly NoticeKind[] = [],
  ) {
    for (const kind of core) this.register(kind);
  }

  /** Adds a kind; a taken or malformed one is a programming error, thrown. */
  register(kind: NoticeKind): void {
    if (!BUILT_IN_NAME.test(kind.kind) && !NAMESPACED_NAME.test(kind.kind))
      throw new Error(`notice kind ${kind.kind} is not a kebab-case label or <package>:<label>`);
    if (this.#kinds.has(kind.kind)) throw new Error(`notice kind ${kind.kind} is already registered`);
    this.#kinds.set(kind.kind, { ...kind, fields: { ...kind.fields } });
  }

  /** The registration of a kind, if any. */
  get(kind: string): NoticeKind | undefined {
    return this.#kinds.get(kind);
  }

  /** Every registration, in order. */
  all(): readonly NoticeKind[] {
    return [...this.#kinds.values()];
  }

  /** What is wrong with a notice against its registration (one line), or null when it matches. */
  defect(notice: TurnNotice): string | null {
    const kind = this.#kinds.get(notice.kind);
    if (kind === undefined) return `notice kind ${notice.kind} is not registered`;
    for (const [name, field] of Object.entries(kind.fields))
      if (!fits(notice[name], field.type)) return `notice ${notice.kind} needs field ${name} of type ${field.type}`;
    const extra = Object.keys(notice).find((name) => name !== 'kind' && !Object.hasOwn(kind.fields, name));
    return extra === undefined ? null : `notice ${notice.kind} has no field ${extra}`;
  }

  /**
   * A notice as hosts show it: identifiers made safe and cw's line from the fields. A
   * notice of no registered kind shows only its kind, fingerprinted when it is not a plain name.
   */
  show(notice: TurnNotice): ShownNotice {
    const kind = this.#kinds.get(notice.kind);
    if (kind === undefined) {
      const name = this.safeIdentifier(notice.kind);
      return { kind: name, fields: {}, text: name };
    }
    const fields: Record<string, NoticeValue> = {};
    for (const [name, field] of Object.entries(kind.fields)) {
      const value = notice[name];
      if (value === undefined) continue;
      fields[name] = typeof value === 'string' && field.type === 'identifier' ? this.safeIdentifier(value) : value;
    }
    return { kind: kind.kind, fields, text: kind.text(fields) };
  }
}

function fits(value: unknown, type: NoticeFieldType): boolean {
  switch (type) {
    case 'identifier':
    case 'text':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}
