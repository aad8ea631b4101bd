// The inspector is a separate entry: nothing the main entry (or any other
// entry) imports reaches src/inspector/, and an app bundled without
// importing it carries none of it (esbuild builds of both apps). Also the
// observation hook the inspector uses: reducers report their inputs to
// observe()rs, and hold no observer once the last one left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReducer } from '../../entries/agui.node.js';

const webDir = fileURLToPath(new URL('../..', import.meta.url));

/** The files a module imports, transitively (static and dynamic imports of relative paths). */
function importGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.includes('/dist/') && !existsSync(file)) return; // made by make package
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g)) {
      visit(resolve(dirname(file), m[1] ?? m[2] ?? m[3]));
    }
  };
  visit(join(webDir, entry));
  return [...seen].map((f) => f.slice(webDir.length));
}

const pkg = JSON.parse(readFileSync(join(webDir, 'package.json'), 'utf8'));

test('no entry but ./inspector imports the inspector', () => {
  const files = new Set();
  for (const [name, spec] of Object.entries(pkg.exports)) {
    if (name === './inspector') continue;
    for (const target of typeof spec === 'string' ? [spec] : Object.values(spec)) {
      if (!target.endsWith('.js')) continue;
      for (const f of importGraph(target)) {
        files.add(f);
        assert.ok(!f.includes('src/inspector/'), `${name} (${target}) imports ${f}`);
      }
    }
  }
  assert.ok(files.has('src/reducer/reducer.js'));
  const inspector = importGraph('src/inspector/entry.js');
  assert.ok(inspector.includes('src/inspector/element.js'));
  assert.ok(pkg.exports['./inspector'].types === './types/inspector.d.ts' && pkg.files.includes('src/') && pkg.files.includes('types/'));
});

test('an app bundled without the inspector ships none of it (esbuild)', async () => {
  const esbuild = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'agui-inspector-bundle-'));
  try {
    const size = async (code) => {
      writeFileSync(join(dir, 'app.js'), code);
      const r = await esbuild.build({
        entryPoints: [join(dir, 'app.js')], bundle: true, minify: true, format: 'esm', platform: 'browser',
        write: false, outdir: join(dir, 'out'), loader: { '.wasm': 'file' }, logLevel: 'silent',
      });
      const js = r.outputFiles.filter((f) => f.path.endsWith('.js')).map((f) => f.text).join('');
      return { bytes: js.length, js };
    };
    const main = JSON.stringify(join(webDir, 'agui.js'));
    const plain = await size(`import { loadReducer } from ${main}; loadReducer().then((f) => console.log(f.createReducer().state));`);
    const withInspector = await size(`import { loadReducer } from ${main}; import ${JSON.stringify(join(webDir, 'src/inspector/entry.js'))}; loadReducer().then((f) => console.log(f.createReducer().state));`);
    console.log(`# app: ${plain.bytes} bytes of JS; with the inspector: ${withInspector.bytes} (+${withInspector.bytes - plain.bytes})`);
    assert.ok(!plain.js.includes('agui-inspector') && !plain.js.includes('aguiRecording'), 'the plain app holds no inspector code');
    assert.ok(withInspector.js.includes('agui-inspector'));
    assert.ok(withInspector.bytes > plain.bytes + 10_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('observe(): a reducer reports what it folds, and holds no observer once the last one left', async () => {
  const r = (await loadReducer()).createReducer({ deterministicIds: true });
  assert.equal(r._observers, null);
  const seen = [];
  const off = r.observe((input) => seen.push(input));
  const off2 = r.observe(() => {});
  r.addUserMessage('hi');
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { event: 'agui', id: '1' });
  r.feed('data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}\n\n');
  r.endStream();
  r.setState({ a: 1 });
  assert.deepEqual(seen.map((s) => (s.kind === 'action' ? `${s.kind}:${s.name}` : s.kind)),
    ['action:addUserMessage', 'event', 'chunk', 'endStream', 'action:setState']);
  assert.equal(seen[0].record.ops[0].value.id, 'user-1', 'the record of the action');
  assert.equal(seen[1].name, 'agui');
  assert.equal(seen[1].id, '1');
  assert.ok(seen[2].records.length >= 1);
  off();
  assert.notEqual(r._observers, null);
  off2();
  assert.equal(r._observers, null, 'no observer: folding checks one null');
  r.apply({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
  assert.equal(seen.length, 5);
  r.dispose();
});
