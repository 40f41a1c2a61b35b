#!/usr/bin/env node
// CommonJS (bin/package.json says so): a CommonJS start never sets up Node's ES module loader, which
// a preview or a send does not need (docs/performance.md, "Every entry").
'use strict';

// The version line oclif would print for `--version`, answered here without loading oclif or any
// plugin: the version is in this package's package.json (docs/performance.md).
function printVersion() {
  const { readFileSync } = require('node:fs');
  const { arch, platform, release } = require('node:os');
  const pjson = JSON.parse(readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8'));
  const os = platform() === 'linux' && release().toLowerCase().includes('microsoft') ? 'wsl' : platform();
  process.stdout.write(
    `${pjson.name}/${pjson.version} ${os}-${arch() === 'ia32' ? 'x86' : arch()} node-${process.version}\n`,
  );
}

if (process.argv[2] === '--version' || process.argv[2] === '-v') printVersion();
else {
  // Everything else is cli/src/entry/launch.ts, which the build bundles into dist/launch.cjs; a build
  // that stopped before bundling leaves the compiled module, loaded the slower way.
  let launcher;
  try {
    launcher = Promise.resolve(require('../dist/launch.cjs'));
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes('launch.cjs')) throw error;
    launcher = import('../dist/entry/launch.js');
  }
  // A rejection is left unhandled, as the top-level await of an ES module start leaves it: Node prints
  // it and exits 1.
  launcher.then(({ launch }) => launch(process.argv.slice(2), printVersion));
}
