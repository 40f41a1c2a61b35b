// Local OpenAI-compatible servers people run, with the base URL each listens on out of the box and
// the dialect it speaks, for `cw routes add --preset` (docs/config.md, "Adding a route"). None of them
// takes a key by default; the model is always the user's, since each serves what was loaded into it.

/** What a preset fills in for `cw routes add`. */
export interface RoutePreset {
  readonly name: string;
  /** The server's own name, as its documentation writes it. */
  readonly display: string;
  readonly baseUrl: string;
  readonly dialect: string;
}

/** Every preset, in the order `cw routes add --help` lists them. */
export const ROUTE_PRESETS: readonly RoutePreset[] = [
  { name: 'ollama', display: 'Ollama', baseUrl: 'http://localhost:11434/v1', dialect: 'chat-completions' },
  { name: 'llama-cpp', display: 'llama.cpp server', baseUrl: 'http://localhost:8080/v1', dialect: 'chat-completions' },
  { name: 'vllm', display: 'vLLM', baseUrl: 'http://localhost:8000/v1', dialect: 'chat-completions' },
  { name: 'lm-studio', display: 'LM Studio', baseUrl: 'http://localhost:1234/v1', dialect: 'chat-completions' },
];

/** The preset of that name, or undefined. */
export function routePreset(name: string): RoutePreset | undefined {
  return ROUTE_PRESETS.find((preset) => preset.name === name);
}
