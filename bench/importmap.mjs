// An import map for running @ag-ui/client 1.0.0 unbundled in a browser.
//
// Its ESM build (dist/index.mjs) and its dependencies' ESM builds import
// bare specifiers ("rxjs", "zod/v4", "@ag-ui/core/schemas", …). Starting
// from the specifiers the benchmark imports, this crawls the ESM files they
// resolve to, resolving each bare specifier the way a bundler targeting
// browsers would (package.json "exports" with the conditions browser,
// import, module, es2015, default; else "module", else "main"), and maps
// every one to its file under /bench/node_modules/; extensionless relative
// imports (rxjs's ESM build) are mapped URL to file too. No bundler needed.

import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve as resolvePath, sep } from 'node:path';

const CONDITIONS = ['browser', 'import', 'module', 'es2015', 'default'];

function splitSpecifier(spec) {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  return { pkg: parts.slice(0, n).join('/'), sub: parts.slice(n).join('/') };
}

function pickTarget(t) {
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    for (const x of t) { const r = pickTarget(x); if (r) return r; }
    return null;
  }
  if (t && typeof t === 'object') {
    for (const c of CONDITIONS) if (c in t) { const r = pickTarget(t[c]); if (r) return r; }
  }
  return null;
}

function resolveExports(exp, sub) {
  const key = sub ? `./${sub}` : '.';
  if (typeof exp === 'string' || Array.isArray(exp)) return key === '.' ? pickTarget(exp) : null;
  const keys = Object.keys(exp);
  if (!keys.some((k) => k.startsWith('.'))) return key === '.' ? pickTarget(exp) : null; // conditions only
  if (key in exp) return pickTarget(exp[key]);
  for (const k of keys) { // "./*" patterns
    const star = k.indexOf('*');
    if (star < 0) continue;
    const pre = k.slice(0, star), post = k.slice(star + 1);
    if (key.startsWith(pre) && key.endsWith(post) && key.length >= pre.length + post.length) {
      const t = pickTarget(exp[k]);
      if (t) return t.replace('*', key.slice(pre.length, key.length - post.length));
    }
  }
  return null;
}

/** Resolves a bare specifier to a file path under nodeModules. */
export function resolveBare(spec, nodeModules) {
  const { pkg, sub } = splitSpecifier(spec);
  const dir = join(nodeModules, pkg);
  const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  let target = pj.exports !== undefined ? resolveExports(pj.exports, sub) : null;
  if (!target) {
    if (sub) target = sub;
    else target = pj.module ?? pj.main ?? 'index.js';
  }
  let file = join(dir, target);
  if (!existsSync(file) || statSync(file).isDirectory()) {
    for (const ext of ['.mjs', '.js', '/index.mjs', '/index.js']) {
      if (existsSync(file + ext)) { file += ext; break; }
    }
  }
  if (!existsSync(file)) throw new Error(`importmap: cannot resolve ${spec} (tried ${file})`);
  return file;
}

const SPEC = /\b(?:from|import)\s*\(?\s*["']([^"'\s]+)["']/g;

/**
 * Crawls from the entry specifiers; returns {imports: {spec: url}} with
 * urls as `${urlPrefix}/<path relative to nodeModules>`.
 */
export function buildImportMap(entries, nodeModules, urlPrefix) {
  const imports = {};
  const url = (f) => `${urlPrefix}/${relative(nodeModules, f).split(sep).join('/')}`;
  const seen = new Set();
  const queue = [];
  const addBare = (spec) => {
    if (spec in imports) return;
    let file;
    try { file = resolveBare(spec, nodeModules); } catch { return; } // a false match of the regex
    imports[spec] = url(file);
    queue.push(file);
  };
  entries.forEach(addBare);
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(SPEC)) {
      const spec = m[1];
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const f = resolvePath(dirname(file), spec);
        if (existsSync(f) && !statSync(f).isDirectory()) {
          queue.push(f);
          continue;
        }
        // Extensionless relative imports (rxjs 7's ESM build has them):
        // map the URL the browser asks for to the file.
        const ext = ['.js', '.mjs', '/index.js', '/index.mjs'].find((e) => existsSync(f + e));
        if (!ext) throw new Error(`importmap: ${file} imports ${spec}, which does not exist`);
        imports[url(f)] = url(f + ext);
        queue.push(f + ext);
      } else if (!/^[a-z]+:/.test(spec)) {
        addBare(spec);
      }
    }
  }
  return { imports };
}
