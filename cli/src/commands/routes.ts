import { Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../render/report-error.js';

/** `cw routes`: every route cw can send to, as capability rows. */
export default class Routes extends Command {
  static override summary = 'List every route: the capability rows plugins registered and the routes in your config';
  static override description =
    'Prints one line per route: route id, provider, wire dialect, route shape, default model and the plugin that registered it. With --json, prints the full capability rows (endpoint as host class and fingerprint only; every identifier redacted).';
  static override examples = ['<%= config.bin %> routes', '<%= config.bin %> routes --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print the full capability rows as JSON.' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(Routes);
      const core = await import('@cw/core');
      const { loadRuntime, runtimeSourceOf } = await import('../entry/load-runtime.js');
      const { snapshot, registry } = await loadRuntime(runtimeSourceOf(this.config));
      const { renderPluginProblems } = await import('../plugin-packages/render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { listRoutes } = await import('../render/list-routes.js');
      const { routeView, routeCells, renderTable, ROUTE_COLUMNS } = await import('../render/route-view.js');
      const { routes, unresolved } = listRoutes(core, snapshot);
      const views = routes.map((entry) => routeView(core, entry.row, entry.definedBy));
      const defaultRoute = core.safeIdentifier(snapshot.config.route ?? snapshot.defaultRouteId);
      // A configured route that does not resolve is listed with its problem, not left out.
      const problems = unresolved.map((entry) => ({
        route_id: core.safeIdentifier(entry.routeId),
        defined_by: 'user-config' as const,
        problem: core.safeErrorText(entry.detail),
      }));
      if (flags.json) {
        const document = { default_route: defaultRoute, routes: views, unresolved_routes: problems };
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        return;
      }
      // The table is read by the person who wrote the config: their own route ids and models show as written.
      const labels = core.userFactLabels(snapshot.config);
      const own = (cell: string): string => labels.get(cell) ?? cell;
      for (const entry of unresolved) {
        process.stderr.write(
          `cw: warning: configured route ${core.safeUserLabel(entry.routeId)} does not resolve: ${core.safeErrorText(entry.detail)}\n`,
        );
      }
      process.stdout.write(
        renderTable(
          ROUTE_COLUMNS,
          views.map((view) => routeCells(view).map(own)),
        ),
      );
      const broken = unresolved.length === 0 ? '' : ` ${unresolved.length} configured route(s) do not resolve (above).`;
      process.stdout.write(
        `\n${views.length} routes; the active route is ${own(defaultRoute)}.${broken} Details: cw routes --json\n`,
      );
    } catch (error) {
      // A script that asked for JSON gets its failure as JSON too.
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
  }
}
