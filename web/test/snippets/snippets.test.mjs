// The documentation's code is code the tests check. Every code block of
// README.md, docs/*.md and the package's web/README.md in JS, TS, JSX, TSX,
// Svelte, Vue or HTML is one of:
//   - the page part of a file in snippets/ (after its `// <page>, …:` line,
//     which names the page the block is on, up to `// (end of the page's
//     code)`; what comes before declares what the snippet takes as given,
//     such as the page's render): type-checked here with tsc --strict against
//     the package's .d.ts;
//   - a framework fixture's component (frameworks/*/…/Chat.*), built and run
//     by make test-frameworks;
//   - a block the adoption test (adoption/) builds and runs as shown, read
//     from the page (runAsShown below): README.md's React example and
//     docs/demo.md's Vite proxy configuration;
//   - a piece of a fixture that make test builds and runs: the plain page of
//     make test-bundlers (bundlers/plain/index.html), the CopilotKit app of
//     make test-copilotkit (copilotkit/src): every line of the block is a
//     line of the fixture's files, an import's module and names are imported
//     there, a const it declares is declared there with the same expression
//     in its definition.
// snippets/in-a-page.ts is run, with the hooks its test reads, as every
// bundler fixture's app (bundlers/app/main.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { install } from '../support/fixture-install.mjs';
import { codeBlock } from '../support/doc-blocks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const snippets = here;
const checkedLanguages = new Set(['js', 'ts', 'jsx', 'tsx', 'svelte', 'vue', 'html', 'mjs']);

/** The documentation pages whose code blocks are checked, relative to the repository. */
const pages = ['README.md', 'web/README.md',
  ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The page part of a snippets/ file: {page, code}. */
function pagePart(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((l) => /^\/\/ (README\.md|web\/README\.md|docs\/[\w.-]+\.md)[,:]/.test(l));
  assert.ok(start >= 0, `${file} has no // <page>, …: line naming README.md, web/README.md or docs/<page>.md`);
  const page = lines[start].match(/^\/\/ ([\w/.-]+\.md)/)[1];
  assert.ok(pages.includes(page), `${file} names ${page}, which is not a checked page`);
  let end = lines.findIndex((l, i) => i > start && l.startsWith("// (end of the page's code)"));
  if (end < 0) end = lines.length;
  return { page, code: lines.slice(start + 1, end).join('\n').trim() };
}

/** The blocks web/test/adoption/adoption.test.mjs reads from their pages and builds or runs. */
const runAsShown = [
  { page: 'README.md', section: 'React', lang: 'tsx' },
  { page: 'docs/demo.md', section: 'A front end served elsewhere', lang: 'ts', contains: 'proxy' },
].map((b) => codeBlock(b.page, b));

const lines = (code) => code.split('\n').map((l) => l.trim()).filter(Boolean);

/** Whether code is a piece of the fixture whose sources are text. */
function pieceOf(code, text) {
  const own = new Set(lines(text));
  return lines(code).every((l) => {
    const imp = l.match(/^import \{([^}]*)\} from (['"][^'"]+['"]);$/);
    // const x = e; as the fixture declares x, e somewhere in its definition
    const decl = l.match(/^const (\w+) = (.+);$/);
    if (decl) return new RegExp(`\\bconst ${decl[1]} =`).test(text) && text.includes(decl[2]);
    if (!imp) return own.has(l);
    return text.includes(`from ${imp[2]}`) && imp[1].split(',').every((n) => new RegExp(`\\b${n.trim()}\\b`).test(text));
  });
}

const fixtureText = (dir, re) => readdirSync(path.join(here, '..', dir)).filter((f) => re.test(f))
  .map((f) => readFileSync(path.join(here, '..', dir, f), 'utf8')).join('\n');

test('every JS, TS, Svelte, Vue and HTML block of README.md, docs/ and web/README.md is a checked file', () => {
  const blocks = pages.flatMap((page) => [...readFileSync(path.join(root, page), 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter(([, lang]) => checkedLanguages.has(lang))
    .map(([, lang, code]) => ({ page, lang, code: code.trim() })));
  const files = readdirSync(snippets).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(snippets, f));
  const parts = files.map((f) => ({ file: f, ...pagePart(f) }));
  const components = ['react/src/Chat.tsx', 'svelte/src/Chat.svelte', 'vue/src/Chat.vue', 'next/app/Chat.tsx']
    .map((f) => readFileSync(path.join(here, '../frameworks', f), 'utf8').trim());
  const pieces = [fixtureText('bundlers/plain', /\.html$/), fixtureText('copilotkit/src', /\.tsx?$/)];
  const used = new Set();
  for (const { page, lang, code } of blocks) {
    const part = parts.find((p) => p.code === code && p.page === page);
    if (part) { used.add(part.file); continue; }
    if (components.includes(code)) continue;
    if (runAsShown.some((b) => b.page === page && b.code === code)) continue;
    if (pieces.some((text) => pieceOf(code, text))) continue;
    const elsewhere = parts.find((p) => p.code === code);
    assert.fail(elsewhere
      ? `this ${lang} block of ${page} is ${path.relative(root, elsewhere.file)}, which names ${elsewhere.page}: name the page it is on`
      : `this ${lang} block of ${page} is no checked file (web/test/snippets/snippets.test.mjs says which count):\n${code}`);
  }
  for (const { file, page } of parts) assert.ok(used.has(file), `${path.relative(root, file)} is on no page (it names ${page}; any more?)`);
  assert.ok(blocks.some((b) => b.page.startsWith('docs/')), 'no checked block in docs/ (are the pages read?)');
});

test('the snippets type-check with tsc --strict against the package\'s .d.ts', { timeout: 600_000 }, () => {
  install(snippets); // typescript, @types/react, @ag-ui/client from its lockfile, once
  try {
    execFileSync(path.join(snippets, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: snippets, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    assert.fail(`tsc --strict (web/test/snippets/tsconfig.json):\n${err.stdout}${err.stderr}`);
  }
});
