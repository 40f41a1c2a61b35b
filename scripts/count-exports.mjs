// Counts the names each entry of @cw/core exports, types included: the declarations tsc wrote for the
// entry (dist/<entry>.d.ts, what an importer type-checks against) give every name, and the bundle the
// entry resolves to gives the values, which must be the same ones. Run after `npm run build`:
//   node scripts/count-exports.mjs            one line per entry
//   node scripts/count-exports.mjs --names    and the names, one per line
// docs/architecture.md ("Packages") says what belongs in each entry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const coreRoot = fileURLToPath(new URL('../core/', import.meta.url));
const showNames = process.argv.includes('--names');
const pjson = JSON.parse(await readFile(join(coreRoot, 'package.json'), 'utf8'));

/** Every name the declaration file exports, each marked value or type. */
function declaredNames(typesFile) {
  const program = ts.createProgram([typesFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(typesFile);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${typesFile}: not a module`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, kind: target.flags & ts.SymbolFlags.Value ? 'value' : 'type' };
  });
}

let failed = false;
for (const [subpath, target] of Object.entries(pjson.exports)) {
  if (typeof target !== 'object' || target.types === undefined) continue;
  const entry = subpath === '.' ? pjson.name : `${pjson.name}/${subpath.slice(2)}`;
  const names = declaredNames(join(coreRoot, target.types)).sort((a, b) => a.name.localeCompare(b.name));
  const values = names
    .filter((named) => named.kind === 'value')
    .map((named) => named.name)
    .sort();
  const bundled = Object.keys(await import(pathToFileURL(join(coreRoot, target.default)).href)).sort();
  console.log(`${entry}: ${names.length} names (${values.length} values, ${names.length - values.length} types)`);
  if (bundled.join() !== values.join()) {
    failed = true;
    console.log(`  the bundle ${target.default} exports other values: ${bundled.join(', ')}`);
  }
  if (showNames) for (const named of names) console.log(`  ${named.kind}\t${named.name}`);
}
if (failed) process.exitCode = 1;
