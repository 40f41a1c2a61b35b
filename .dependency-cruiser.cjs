// Import rules for the core, the CLI and the plugins, checked by `npm run lint` (`npm run deps`
// prints the same report). docs/architecture.md ("Packages") says why the layers run the way they do.
//
// A new rule is one more entry in `forbidden`: `from` names the importing modules, `to` the imports
// they may not make, both as path regexes from the repo root. A layering rule reads, e.g.,
//   { name: 'core-features-stay-inside', severity: 'error',
//     from: { path: '^core/src/', pathNot: ['^core/src/features/', '^core/src/turn/apply-features\\.ts$'] },
//     to: { path: '^core/src/features/' } }

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
  ],
  options: {
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    exclude: { path: ['(^|/)dist/', '\\.d\\.ts$', '\\.test\\.ts$'] },
    // Type-only imports are dependencies too: a type cycle still ties the modules' folders together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'node', 'default'],
    },
  },
};
