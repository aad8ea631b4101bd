// An app's directory under Node for the drop-in's tests: node_modules with
// the package (web/) and this folder's @ag-ui/client and its dependencies,
// linked as npm lays them out, and a way to run an ES module there.

import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The package's folder (web/). */
export const web = path.resolve(here, '../..');

/** Makes the app's directory (prefix: its name's start); returns {dir, run(code), remove()}. */
export function nodeApp(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const nm = path.join(dir, 'node_modules');
  mkdirSync(path.join(nm, '@agui-reducer'), { recursive: true });
  symlinkSync(web, path.join(nm, '@agui-reducer/web'));
  for (const name of readdirSync(path.join(here, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(path.join(here, 'node_modules', name), path.join(nm, name));
  }
  return {
    dir,
    /** Runs an ES module's code in the app (symlinks kept, as npm's own layout would be); resolves to its trimmed stdout. */
    run: (code, env = {}) => new Promise((resolve, reject) => {
      execFile(process.execPath, ['--preserve-symlinks', '--input-type=module', '-e', code], {
        cwd: dir, env: { ...process.env, NODE_PATH: '', SUPPRESS_TRANSFORMATION_WARNINGS: 'true', ...env }, timeout: 120_000,
      }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim())));
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
