import { Args, Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** Bad input to `cw routes add`: one line of cw's words, exit 2, and nothing written. */
class RouteAddError extends Error {
  override readonly name = 'RouteAddError';
  readonly exitCode = 2;
  readonly safeMessage: string;
  constructor(safeMessage: string) {
    super(safeMessage);
    this.safeMessage = safeMessage;
  }
}

const ROUTE_ID = /^[A-Za-z0-9_-]{1,64}$/;
// The flag each route field comes from, so a problem is reported against what the user typed.
const FLAG_OF: Readonly<Record<string, string>> = {
  base_url: '--base-url',
  model: '--model',
  dialect: '--dialect',
  api_key_env: '--key-env',
};

/** `cw routes add`: writes a checked custom route into config.json. */
export default class RoutesAdd extends Command {
  static override summary = 'Add a route to an OpenAI-compatible (or other) endpoint, checked before it is written';
  static override description =
    'Writes routes.<id> into config.json as a custom route: the base URL, the model, the wire dialect (default chat-completions) and, when the server takes a key, the environment variable that holds it (never the key itself). --preset fills in the usual base URL and dialect of a local server: ollama, llama-cpp (llama.cpp server), vllm, lm-studio. The route is checked as a turn would resolve it before anything is written; bad input is one line, exit 2, and config.json is left as it was. Nothing is contacted. Docs: docs/config.md.';
  static override examples = [
    '<%= config.bin %> routes add local --preset ollama --model qwen3-coder',
    '<%= config.bin %> routes add box --base-url http://10.0.0.5:8000/v1 --model my-model',
    '<%= config.bin %> routes add gateway --base-url https://llm.example.com/v1 --model big --key-env GATEWAY_KEY',
  ];
  static override args = {
    id: Args.string({ required: true, description: 'The route id: 1 to 64 letters, digits, - or _.' }),
  };
  static override flags = {
    preset: Flags.string({
      description: 'A local server: ollama, llama-cpp, vllm or lm-studio (its usual base URL and dialect).',
    }),
    'base-url': Flags.string({ description: 'The endpoint base URL, http or https (overrides the preset).' }),
    model: Flags.string({ description: 'The model id the server serves.' }),
    dialect: Flags.string({ description: 'The wire dialect (default chat-completions, or the preset’s).' }),
    'key-env': Flags.string({
      description: 'The environment variable that holds the API key, when the server takes one.',
    }),
    force: Flags.boolean({ description: 'Replace a route of the same id in config.json.' }),
  };

  async run(): Promise<void> {
    try {
      const { args, flags } = await this.parse(RoutesAdd);
      const { routePreset, ROUTE_PRESETS } = await import('../../setup/route-presets.js');
      if (!ROUTE_ID.test(args.id) || args.id === 'auto')
        throw new RouteAddError('a route id is 1 to 64 letters, digits, - or _ (and not auto)');
      const preset = flags.preset === undefined ? undefined : routePreset(flags.preset);
      if (flags.preset !== undefined && preset === undefined)
        throw new RouteAddError(`--preset takes one of: ${ROUTE_PRESETS.map((entry) => entry.name).join(', ')}`);
      const baseUrl = flags['base-url'] ?? preset?.baseUrl;
      if (baseUrl === undefined) throw new RouteAddError('give the endpoint with --base-url <url>, or a --preset');
      if (flags.model === undefined) throw new RouteAddError('give the model the server serves with --model <model>');
      const entry: Record<string, string> = {
        provider: 'custom',
        dialect: flags.dialect ?? preset?.dialect ?? 'chat-completions',
        base_url: baseUrl,
        model: flags.model,
        ...(flags['key-env'] === undefined ? {} : { api_key_env: flags['key-env'] }),
      };

      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const { loadRegistry, defaultRouteOf } = await import('../../entry/load-runtime.js');
      const registry = await loadRegistry(this.config);
      if (!registry.dialectIds.includes(entry['dialect'] ?? ''))
        throw new RouteAddError(`--dialect takes a dialect a loaded plugin speaks: ${registry.dialectIds.join(', ')}`);
      // The entry alone, checked by the config schema: a bad URL, model or variable name is one line.
      const alone = await core.checkConfigText(JSON.stringify({ routes: { [args.id]: entry } }), {
        dialectIds: registry.dialectIds,
      });
      const checked = alone.ok ? alone.config.routes[args.id] : undefined;
      if (!alone.ok || checked === undefined) {
        const first = alone.ok ? undefined : alone.problems[0];
        const field = first?.field?.split('.').at(-1) ?? '';
        throw new RouteAddError(`${FLAG_OF[field] ?? 'the route'}: ${first?.message ?? 'not accepted'}`);
      }
      const home = cwHome();
      const config = await core.loadConfig(home, { dialectIds: registry.dialectIds });
      const label = core.safeUserLabel(args.id);
      const inConfig = Object.hasOwn(config.routes, args.id) || Object.hasOwn(config.incompleteRoutes ?? {}, args.id);
      // A plugin's route keeps its id: a config route of that id could not keep its endpoint and key variable.
      if (registry.row(args.id) !== undefined)
        throw new RouteAddError(`route ${label} is registered by a plugin (cw routes lists it); choose another id`);
      if (inConfig && !flags.force)
        throw new RouteAddError(
          `route ${label} is already in config.json; pass --force to replace it, or choose another id`,
        );
      // Resolved as a turn would resolve it, so what is written is a route a turn can use.
      const { [args.id]: _replaced, ...stillIncomplete } = config.incompleteRoutes ?? {};
      const candidate = {
        ...config,
        routes: { ...config.routes, [args.id]: checked },
        incompleteRoutes: stillIncomplete,
      };
      try {
        core.resolveRoute(registry.hooks, { routeId: args.id, config: candidate, row: (id) => registry.row(id) });
      } catch (error) {
        throw new RouteAddError(core.safeErrorText(error instanceof Error ? error.message : String(error)));
      }
      const defaultRoute = defaultRouteOf(this.config.pjson);
      const path = ['routes', args.id];
      await core.editConfigFile(home, () => [{ path, value: entry }], {
        dialectIds: registry.dialectIds,
        moreProblems: (written, parsed) =>
          core
            .configRouteProblems(written, parsed, registry, defaultRoute)
            .filter((problem) => problem.field === core.formatConfigPath(path, core.configFieldNames())),
      });
      const dialect = core.safeIdentifier(checked.dialect);
      process.stdout.write(
        `Added route ${label} (${dialect}) to config.json. Preview a turn on it: cw preview-request --route ${label}; make it the default: cw config set route ${label}\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
