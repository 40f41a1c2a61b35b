import type { TappedHook } from './render-plugin-registrations.js';
import type { RouteView } from '../render/route-view.js';

/** What `cw plugins:inspect` shows for one plugin; every string in it is already redacted. */
export interface InspectedPlugin {
  readonly name: string;
  readonly version: string;
  readonly type: string;
  readonly tag: string | null;
  readonly commands: readonly string[];
  readonly dependencies: Readonly<Record<string, { readonly from: string | null; readonly version: string }>>;
  /** Null for a package that is not a cw plugin (it declares no `cw` field). */
  readonly cw: {
    /** The plugin API version its package.json declares, and whether this cw serves it. */
    readonly api_version: number | null;
    readonly api_version_served: boolean;
    readonly routes: readonly RouteView[];
    /** Wire dialects the plugin added. */
    readonly dialects: readonly string[];
    /** Body refiners it registered: the routes each declared it applies to, and its stage. */
    readonly body_refiners: readonly {
      readonly route_ids: readonly string[];
      readonly route_shapes: readonly string[];
      readonly stage: number;
    }[];
    /** Tools it added to the catalog. */
    readonly tools: readonly string[];
    /** How many taps it put on each hook (its body refiners are its `buildBody` taps). */
    readonly hook_taps: Readonly<Record<TappedHook, number>>;
    readonly problems: readonly { readonly code: string; readonly detail: string }[];
  } | null;
}

interface Node {
  readonly label: string;
  readonly children?: readonly Node[];
}

function lines(nodes: readonly Node[], prefix: string): string[] {
  return nodes.flatMap((node, index) => {
    const last = index === nodes.length - 1;
    const own = `${prefix}${last ? '└─ ' : '├─ '}${node.label}`;
    return [own, ...lines(node.children ?? [], `${prefix}${last ? '   ' : '│  '}`)];
  });
}

/** The tree oclif prints for a plugin, with `location` replaced by the install type and cw's rows added. */
export function renderPluginTree(plugin: InspectedPlugin): string {
  const facts: Node[] = [
    { label: `version ${plugin.version}` },
    ...(plugin.tag === null ? [] : [{ label: `tag ${plugin.tag}` }]),
    { label: `type ${plugin.type}` },
  ];
  // A branch with nothing under it says nothing: route-only plugins have no commands or dependencies.
  if (plugin.commands.length > 0) {
    facts.push({ label: 'commands', children: plugin.commands.map((id) => ({ label: id })) });
  }
  const dependencies = Object.entries(plugin.dependencies);
  if (dependencies.length > 0) {
    facts.push({
      label: 'dependencies',
      children: dependencies.map(([name, dep]) => ({
        label: `${name} ${dep.from === null ? dep.version : `${dep.from} => ${dep.version}`}`,
      })),
    });
  }
  if (plugin.cw === null) {
    facts.push({ label: 'cw: not a cw plugin (no cw field in package.json)' });
  } else {
    const declared = plugin.cw.api_version === null ? 'not declared' : String(plugin.cw.api_version);
    facts.push({ label: `cw plugin API ${declared} (${plugin.cw.api_version_served ? 'served' : 'not served'})` });
    facts.push({
      label: `cw routes (${plugin.cw.routes.length})`,
      children: plugin.cw.routes.map((route) => ({
        label: route.route_id,
        children: [
          { label: `provider ${route.provider_id} (${route.provider_display})` },
          { label: `dialect ${route.dialect}, shape ${route.route_shape}` },
          { label: `endpoint ${route.endpoint.host_class}` },
          { label: `model ${route.model.default}` },
          { label: `tool schema ${String(route.tool_schema['dialect'])}` },
          {
            label: `reasoning ${route.reasoning === null ? 'none' : `${String(route.reasoning['key_path'])} (${String(route.reasoning['value_kind'])})`}`,
          },
          { label: `output cap ${route.output_cap.field ?? 'not sent'}` },
          { label: `provenance ${route.provenance.source}` },
        ],
      })),
    });
    if (plugin.cw.dialects.length > 0) {
      facts.push({
        label: `cw dialects (${plugin.cw.dialects.length})`,
        children: plugin.cw.dialects.map((id) => ({ label: id })),
      });
    }
    if (plugin.cw.body_refiners.length > 0) {
      facts.push({
        label: `cw body refiners (${plugin.cw.body_refiners.length})`,
        children: plugin.cw.body_refiners.map((refiner) => ({
          label: `stage ${refiner.stage}: ${[
            ...refiner.route_ids.map((id) => `route ${id}`),
            ...refiner.route_shapes.map((shape) => `shape ${shape}`),
          ].join(', ')}`,
        })),
      });
    }
    if (plugin.cw.tools.length > 0) {
      facts.push({
        label: `cw tools (${plugin.cw.tools.length})`,
        children: plugin.cw.tools.map((name) => ({ label: name })),
      });
    }
    const taps = Object.entries(plugin.cw.hook_taps).filter(([, count]) => count > 0);
    facts.push(
      taps.length === 0
        ? { label: 'cw hook taps: none' }
        : { label: 'cw hook taps', children: taps.map(([hook, count]) => ({ label: `${hook} ×${count}` })) },
    );
    if (plugin.cw.problems.length > 0) {
      facts.push({
        label: 'cw load problems',
        children: plugin.cw.problems.map((problem) => ({ label: `${problem.code}: ${problem.detail}` })),
      });
    }
  }
  return [plugin.name, ...lines(facts, '')].join('\n') + '\n';
}
