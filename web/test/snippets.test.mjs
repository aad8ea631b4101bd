// The READMEs' code is code the tests check. Every code block of README.md
// (and of the package's, web/README.md) in JS, TS, JSX, TSX, Svelte, Vue or HTML is one of:
//   - the README part of a file in snippets/ (after its `// README.md, "…":`
//     line, up to `// (end of the README's code)`; what comes before
//     declares what the snippet takes as given, such as the page's render):
//     type-checked here with tsc --strict against the package's .d.ts;
//   - a framework fixture's component (frameworks/*/…/Chat.*), built and run
//     by make test-frameworks;
//   - a piece of the plain page of make test-bundlers (bundlers/plain/index.html).
// snippets/in-a-page.ts is run, with the hooks its test reads, as every
// bundler fixture's app (bundlers/app/main.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const snippets = path.join(here, 'snippets');
const checkedLanguages = new Set(['js', 'ts', 'jsx', 'tsx', 'svelte', 'vue', 'html', 'mjs']);

/** The README part of a snippets/ file. */
function readmePart(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('// README.md, '));
  assert.ok(start >= 0, `${file} has no // README.md, "…": line`);
  let end = lines.findIndex((l, i) => i > start && l.startsWith("// (end of the README's code)"));
  if (end < 0) end = lines.length;
  return lines.slice(start + 1, end).join('\n').trim();
}

const normalise = (code) => code.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');

test('every JS, TS, Svelte, Vue and HTML block of the READMEs is a checked file', () => {
  const readme = ['README.md', 'web/README.md'].map((f) => readFileSync(path.join(root, f), 'utf8')).join('\n');
  const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter(([, lang]) => checkedLanguages.has(lang))
    .map(([, lang, code]) => ({ lang, code: code.trim() }));
  const files = readdirSync(snippets).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(snippets, f));
  const parts = new Map(files.map((f) => [readmePart(f), f]));
  const components = ['react/src/Chat.tsx', 'svelte/src/Chat.svelte', 'vue/src/Chat.vue', 'next/app/Chat.tsx']
    .map((f) => readFileSync(path.join(here, 'frameworks', f), 'utf8').trim());
  const plainPage = normalise(readFileSync(path.join(here, 'bundlers/plain/index.html'), 'utf8'));
  const used = new Set();
  for (const { lang, code } of blocks) {
    if (parts.has(code)) { used.add(parts.get(code)); continue; }
    if (components.includes(code)) continue;
    if (lang === 'html' && plainPage.includes(normalise(code))) continue;
    assert.fail(`this ${lang} block of the READMEs is no checked file (web/test/snippets.test.mjs says which count):\n${code}`);
  }
  for (const f of files) assert.ok(used.has(f), `${path.relative(root, f)} is in no README (any more?)`);
});

test('the snippets type-check with tsc --strict against the package\'s .d.ts', { timeout: 600_000 }, () => {
  // Its packages (typescript, @types/react, @ag-ui/client) from its lockfile, once.
  const marker = path.join(snippets, 'node_modules/.package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(path.join(snippets, 'package-lock.json')).mtimeMs) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: snippets, stdio: ['ignore', 'pipe', 'pipe'] });
  }
  try {
    execFileSync(path.join(snippets, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: snippets, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    assert.fail(`tsc --strict (web/test/snippets/tsconfig.json):\n${err.stdout}${err.stderr}`);
  }
});
