// The .d.ts files cannot drift from the implementation: for every entry of
// the package (the table of scripts/entries.mjs, so a new entry is covered),
// the value exports its module has (esbuild's metafile of the bundled module)
// and the value exports its .d.ts declares are the same names; and the
// members of the objects the API hands out (a reducer, a worker reducer,
// their factory and host, an agent) are the members their interfaces
// declare. Both directions: a name in the code and not in the types fails,
// and so does a name in the types the code lacks. Checked by tsc (the
// snippets' TypeScript) over a generated file of type-level assertions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ENTRIES } from '../../scripts/entries.mjs';
import { install } from '../support/fixture-install.mjs';
import { loadReducer, createWorkerHost, createAgent } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../..');
const snippets = path.resolve(here, '../snippets');
const PEERS = ['react', 'react-dom', 'vue', 'svelte', 'svelte/*', '@ag-ui/client', 'node:*'];

/** The names a module exports, all its re-exports followed. */
async function exportsOf(file) {
  const r = await build({
    entryPoints: [path.join(web, file)], bundle: true, format: 'esm', platform: 'neutral', write: false,
    metafile: true, outdir: path.join(tmpdir(), 'agui-types-check'), external: PEERS, logLevel: 'silent',
    loader: { '.wasm': 'file' },
  });
  const out = Object.values(r.metafile.outputs).find((o) => o.entryPoint);
  return out.exports;
}

/** Public members of an object: own and inherited, methods and accessors; _-names are internal. */
function membersOf(obj) {
  const names = new Set(Object.keys(obj));
  for (let p = Object.getPrototypeOf(obj); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) names.add(n);
  }
  names.delete('constructor');
  return [...names].filter((n) => !n.startsWith('_')).sort();
}

const union = (names) => (names.length ? names.map((n) => JSON.stringify(n)).join(' | ') : 'never');

/** Type-level: `names` (the code's) and `keys` (the types') are the same set. */
function same(label, keys, names) {
  const id = label.replace(/\W+/g, '_');
  return `type InCodeNotInTypes_${id} = Exclude<${union(names)}, ${keys}>;
const inCodeNotInTypes_${id}: [InCodeNotInTypes_${id}] extends [never] ? true : InCodeNotInTypes_${id} = true;
type InTypesNotInCode_${id} = Exclude<${keys}, ${union(names)}>;
const inTypesNotInCode_${id}: [InTypesNotInCode_${id}] extends [never] ? true : InTypesNotInCode_${id} = true;
`;
}

test('every entry\'s .d.ts declares the value exports its module has, and the API objects\' members', { timeout: 600_000 }, async () => {
  install(snippets); // typescript from the snippets' lockfile, once
  let src = '';
  let n = 0;
  for (const [sub, [mod, types]] of Object.entries(ENTRIES)) {
    if (!types) continue;
    const names = (await exportsOf(mod)).filter((x) => x !== '__internal'); // tests' and the benchmark's, not the API
    src += `import * as e${n} from ${JSON.stringify(path.join(web, types).replace(/\.d\.ts$/, '.js'))};\n`;
    src += same(`export ${sub}`, `Exclude<keyof typeof e${n}, '__internal'>`, names);
    n++;
  }

  const factory = await loadReducer(wasmURL);
  const reducer = factory.createReducer();
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  const workerReducer = await host.createReducer();
  const agent = createAgent({ wasm: wasmURL });
  const objects = { Reducer: reducer, ReducerFactory: factory, WorkerHost: host, WorkerReducer: workerReducer, Agent: agent };
  src += `import type { ${Object.keys(objects).join(', ')} } from ${JSON.stringify(path.join(web, 'types/agui.js'))};\n`;
  for (const [name, obj] of Object.entries(objects)) src += same(name, `Exclude<keyof ${name}, \`_\${string}\`>`, membersOf(obj));
  reducer.dispose();
  workerReducer.dispose();
  agent.dispose();
  host.terminate();
  port1.close();
  port2.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'agui-types-'));
  try {
    writeFileSync(path.join(dir, 'check.ts'), src);
    const nm = path.join(snippets, 'node_modules');
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2023', lib: ['ES2023', 'DOM'], module: 'esnext', moduleResolution: 'bundler',
        types: [], skipLibCheck: true, noUnusedLocals: false,
        paths: { '@ag-ui/client': [path.join(nm, '@ag-ui/client')], react: [path.join(nm, '@types/react')] },
      },
      files: ['check.ts'],
    }));
    try {
      execFileSync(path.join(nm, '.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      assert.fail(`the .d.ts files and the code disagree (InCodeNotInTypes_X: declare it; InTypesNotInCode_X: implement or drop it):\n${err.stdout}${err.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
