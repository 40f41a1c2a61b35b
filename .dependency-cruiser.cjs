// Import rules for the core, the CLI and the plugins, checked by `npm run lint` (`npm run deps`
// prints the same report). docs/architecture.md ("Packages") says why the layers run the way they do.
//
// A new rule is one more entry in `forbidden`: `from` names the importing modules, `to` the imports
// they may not make, both as path regexes from the repo root (features-are-plugins-of-the-core below
// is one).

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module may not reach itself through its imports: type-only imports and dynamic import()s ' +
        'count. Move the shared types to the module that owns them instead.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-package-above-it',
      severity: 'error',
      comment: 'The core names no plugin and knows no CLI: they import the core, never the reverse.',
      from: { path: '^core/src/' },
      to: { path: '^(cli|plugins|plugin-template|bench)/' },
    },
    {
      name: 'plugins-import-only-the-contract',
      severity: 'error',
      comment:
        'A plugin takes types from @cw/core/plugin and gets everything else from register(api) at run ' +
        'time (docs/plugin-authors.md). Its tests, and the fixtures only they import, may use the host entry.',
      from: { path: '^(plugins/[^/]+|plugin-template)/src/', pathNot: '-fixture\\.ts$' },
      to: { path: '^core/', pathNot: '^core/dist/plugin\\.d\\.ts$' },
    },
    {
      name: 'manifest-is-a-view',
      severity: 'error',
      comment:
        'The manifest reads the plan, the body and the route; none of those reads the manifest. ' +
        'What they share (byte classes, estimates, reasons) lives below it, in body/ and plan/.',
      from: {
        path: '^core/src/',
        // The hosts' API returns manifests, and the turn hooks' describeSession fills one.
        pathNot: [
          '^core/src/manifest/',
          '^core/src/index\\.ts$',
          '^core/src/send-turn\\.ts$',
          '^core/src/agent-api/',
          '^core/src/turn/core-turn-types\\.ts$',
          '^core/src/plugins/plugin-turn-hooks\\.ts$',
        ],
      },
      to: { path: '^core/src/manifest/' },
    },
    {
      name: 'features-are-plugins-of-the-core',
      severity: 'error',
      comment:
        'A turn feature imports the core, never the reverse: the loop (send-turn.ts), the plan ' +
        '(plan-turn.ts) and every other core module know no feature. Only the function that applies ' +
        'them (tap-core-stages.ts) and the public entries name them (docs/architecture.md).',
      from: {
        path: '^core/src/',
        pathNot: ['^core/src/features/', '^core/src/tap-core-stages\\.ts$', '^core/src/index\\.ts$'],
      },
      to: { path: '^core/src/features/' },
    },
    {
      name: 'config-stays-low',
      severity: 'error',
      comment:
        'Config is read by every stage, so it imports none of them: only the row contract (route/), ' +
        'files (state/) and the helpers below those.',
      from: { path: '^core/src/config/' },
      to: {
        path: [
          '^core/src/(agent|auto-route|catalog|compaction|features|goal|manifest|mcp|plan|plugins)/',
          '^core/src/(side-request|skills|snapshot|submit|transport|turn)/',
          '^core/src/[^/]+\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    // Tests import internals by path on purpose; built output is listed but not followed.
    exclude: { path: ['\\.test\\.ts$'] },
    // Type-only imports are dependencies too: a type cycle still ties the modules' folders together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'node', 'default'],
    },
  },
};
