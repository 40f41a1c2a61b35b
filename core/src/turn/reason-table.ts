// Why a turn, or a manifest section, is not exact: the core's own reasons and every one a feature or
// a plugin registers (docs/architecture.md, "The turn's hooks"). The manifest, its schema and the
// words cw prints for a reason all read this table, so no list outside it names a feature.

/** Where a reason may stand: a request section, provider usage, or the offline tokenizer count. */
export type ReasonPlace = 'route' | 'tools' | 'body' | 'usage' | 'tokenizer' | 'input-cost';

/** The request sections a turn reason stands in. */
export const REQUEST_SECTIONS = ['route', 'tools', 'body'] as const;

/** One registered reason: its kebab-case code, the words a person reads, and where it may stand. */
export interface ReasonEntry {
  readonly reason: string;
  /** One line a person reads in place of the code (the preview table, docs). */
  readonly label: string;
  /**
   * Where the reason may stand. A reason met after the request was prepared leaves the sections
   * decided before it exact, except the ones it names (MCP tools that are not known stop `tools` too).
   */
  readonly places: readonly ReasonPlace[];
  /** `cw` for the core's reasons, the feature's or plugin's name otherwise. */
  readonly registeredBy: string;
}

// A plugin's reason or notice kind is `<package>:<label>`, so no two packages can take the same one.
const PACKAGE = '(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*';
const LABEL = '[a-z0-9]+(?:-[a-z0-9]+)*';

/** A reason or notice kind a plugin registered: `<package name>:<kebab-case label>`. */
export const NAMESPACED_NAME = new RegExp(`^${PACKAGE}:${LABEL}$`);
/** A built-in reason or notice kind: a kebab-case label. */
export const BUILT_IN_NAME = new RegExp(`^${LABEL}$`);

/** The reasons one registry knows, in registration order: the core's first, then features', then plugins'. */
export class ReasonTable {
  readonly #entries = new Map<string, ReasonEntry>();

  constructor(core: readonly ReasonEntry[] = []) {
    for (const entry of core) this.register(entry);
  }

  /** Adds a reason; a taken code or a malformed one is a programming error, thrown. */
  register(entry: ReasonEntry): void {
    if (!BUILT_IN_NAME.test(entry.reason) && !NAMESPACED_NAME.test(entry.reason))
      throw new Error(`reason ${entry.reason} is not a kebab-case label or <package>:<label>`);
    if (this.#entries.has(entry.reason)) throw new Error(`reason ${entry.reason} is already registered`);
    this.#entries.set(entry.reason, { ...entry, places: [...entry.places] });
  }

  /** The registration of a reason, if any. */
  get(reason: string): ReasonEntry | undefined {
    return this.#entries.get(reason);
  }

  /** Whether the reason may stand in that place. */
  mayStandIn(reason: string, place: ReasonPlace): boolean {
    return this.#entries.get(reason)?.places.includes(place) ?? false;
  }

  /** The words a person reads for a reason; the code itself for one nobody registered. */
  label(reason: string): string {
    return this.#entries.get(reason)?.label ?? reason;
  }

  /** The reasons that may stand in a place, in registration order. */
  reasonsFor(place: ReasonPlace): string[] {
    return [...this.#entries.values()].filter((entry) => entry.places.includes(place)).map((entry) => entry.reason);
  }

  /** Every registration, in order. */
  all(): readonly ReasonEntry[] {
    return [...this.#entries.values()];
  }
}
