// Plain data, apart from the hooks themselves, so the plugin contract entry can carry it.

/** The stages of the built-in features on `gate` and `prepareTurn`: one order for preview and send. */
export const TURN_STAGES = {
  goal: 100,
  submitHooks: 200,
  promptResolution: 300,
  autoRoute: 400,
  /** Where a plugin's gate or prepare tap goes when it names no stage: after every built-in one. */
  plugin: 1000,
} as const;
