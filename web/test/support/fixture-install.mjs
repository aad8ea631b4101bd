// Installing the test apps (frameworks/, copilotkit/): each fixture's npm
// packages from its committed package-lock.json, and the package itself from
// the tarball `make package` packs, unpacked as npm would install it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** npm ci from the lockfile unless node_modules already matches it. */
export function install(dir) {
  const marker = path.join(dir, 'node_modules/.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(path.join(dir, 'package-lock.json')).mtimeMs) return;
  try {
    run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  } catch {
    // npm 11 rejects a lockfile that resolves a dependency's optional
    // platform packages to none (Next's @next/swc-*): npm install keeps the
    // locked versions and settles those.
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  }
}

/** The package as npm installs it: the packed tarball unpacked into node_modules. */
export function installPackage(dir, tarball) {
  const dest = path.join(dir, 'node_modules/@agui-reducer/web');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', dest, '--strip-components=1'], dir);
}

/** The tarball `make package` writes for web/ (root: the repository). */
export function packageTarball(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8'));
  const tarball = path.join(root, 'build', `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
  if (!existsSync(tarball)) throw new Error(`${tarball} is missing: run \`make package\` first`);
  return tarball;
}
