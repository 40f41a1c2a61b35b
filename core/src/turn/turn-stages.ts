// Plain data, apart from the hooks themselves, so the plugin contract entry can carry it.

/** Where a plugin's gate or prepare tap goes when it names no stage: after every built-in one. */
export const PLUGIN_STAGE = 1000;

/** The stages of the core on `gate` and `prepareTurn`; each feature registers its own in the stage table. */
export const TURN_STAGES = {
  /** Where a plugin's gate or prepare tap goes when it names no stage: after every built-in one. */
  plugin: PLUGIN_STAGE,
} as const;

/** One named stage on `gate` and `prepareTurn`. */
export interface TurnStage {
  readonly name: string;
  readonly stage: number;
  /** `cw` for the core's, the feature's or plugin's name otherwise. */
  readonly registeredBy: string;
}

/** The named stages one registry knows (docs/architecture.md, "The turn's hooks"): one order for preview and send. */
export class TurnStageTable {
  readonly #stages = new Map<string, TurnStage>([
    ['plugin', { name: 'plugin', stage: PLUGIN_STAGE, registeredBy: 'cw' }],
  ]);

  /** Registers a stage and returns its number, for the feature's taps; a taken name is thrown. */
  register(name: string, stage: number, registeredBy: string = name): number {
    if (this.#stages.has(name)) throw new Error(`turn stage ${name} is already registered`);
    if (!Number.isInteger(stage)) throw new Error(`turn stage ${name} must be an integer`);
    this.#stages.set(name, { name, stage, registeredBy });
    return stage;
  }

  /** The number of a named stage, if registered. */
  stageOf(name: string): number | undefined {
    return this.#stages.get(name)?.stage;
  }

  /** Every stage, in stage order. */
  all(): readonly TurnStage[] {
    return [...this.#stages.values()].sort((a, b) => a.stage - b.stage);
  }
}
