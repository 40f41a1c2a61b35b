#!/usr/bin/env node
// Start the reference MCP servers pinned in the root devDependencies over stdio, list their tools,
// and save each catalog as test/fixtures/mcp-schemas/<server>.json (the projection corpus of
// core/src/tools/projection/mcp-corpus.test.ts). Keep test/fixtures/mcp-schemas/SOURCES.md in step.
//
//   node scripts/capture-mcp-schemas.mjs [outDir]
//
// Only `tools/list` is called: no tool runs. The filesystem server is given an empty temporary
// folder as its one allowed directory. Each server inherits only PATH and HOME.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = resolve(process.argv[2] ?? join(ROOT, 'test', 'fixtures', 'mcp-schemas'));
const require = createRequire(join(ROOT, 'package.json'));

/** The servers to capture: fixture name, package, and the arguments after the entry script. */
const SERVERS = [
  { name: 'server-everything', pkg: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  { name: 'server-filesystem', pkg: '@modelcontextprotocol/server-filesystem', args: ['<workspace>'] },
];

function packageFacts(pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (typeof bin !== 'string') throw new Error(`${pkg} declares no bin`);
  return { version: manifest.version, license: manifest.license ?? null, entry: join(dirname(manifestPath), bin) };
}

async function listTools(entry, args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'cw-capture-mcp-schemas', version: '0.0.0' });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor;
    for (let page = 0; page < 100; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  } finally {
    await client.close();
  }
}

const workspace = mkdtempSync(join(tmpdir(), 'cw-mcp-capture-'));
try {
  for (const server of SERVERS) {
    const facts = packageFacts(server.pkg);
    const args = server.args.map((arg) => (arg === '<workspace>' ? workspace : arg));
    const tools = await listTools(facts.entry, args);
    const fixture = {
      $comment: `tools/list of ${server.pkg}@${facts.version} over stdio, as captured by scripts/capture-mcp-schemas.mjs; see SOURCES.md.`,
      server: server.pkg,
      version: facts.version,
      license: facts.license,
      // Only what projection reads; annotations and output schemas are not part of a tool's parameters.
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
      })),
    };
    const file = join(OUT_DIR, `${server.name}.json`);
    writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
    process.stdout.write(`${server.pkg}@${facts.version}: ${tools.length} tools -> ${file}\n`);
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
