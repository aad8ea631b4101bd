// The code blocks of the documentation's Markdown pages, read as shown, for
// the tests that type-check, build or run them (snippets/, adoption/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every fenced block of page (relative to the repository): {page, lang, code, line, section}, section the heading above it. */
export function codeBlocks(page) {
  const text = readFileSync(path.join(root, page), 'utf8');
  const out = [];
  let section = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heading = lines[i].match(/^#+\s+(.*)$/);
    if (heading) { section = heading[1].trim(); continue; }
    const open = lines[i].match(/^```(\w*)\s*$/);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l === '```');
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block is not closed`);
    out.push({ page, lang: open[1], code: lines.slice(i + 1, end).join('\n').trim(), line: i + 1, section });
    i = end;
  }
  return out;
}

/** The one block of page in lang under the heading section whose code matches (a string it contains, default any). */
export function codeBlock(page, { section, lang, contains = '' }) {
  const found = codeBlocks(page).filter((b) => b.section === section && b.lang === lang && b.code.includes(contains));
  if (found.length !== 1) throw new Error(`${page}, "${section}": ${found.length} ${lang} blocks${contains ? ` with ${JSON.stringify(contains)}` : ''}, not one`);
  return found[0];
}
