// Installing the test apps (frameworks/, copilotkit/): each fixture's npm
// packages from its committed package-lock.json, and the package itself from
// the tarball `make package` packs, installed by npm.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/**
 * npm ci from the committed lockfile unless node_modules already matches it.
 * A lockfile npm ci refuses (out of step with package.json, an optional
 * platform package missing) fails the test with npm's message: installs are
 * what the lockfile says or nothing, and never rewrite it.
 */
export function install(dir) {
  const marker = path.join(dir, 'node_modules/.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(path.join(dir, 'package-lock.json')).mtimeMs) return;
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    throw new Error(`npm ci in ${dir} failed (the committed package-lock.json must install as it is):\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

/**
 * The packed tarball installed by npm, as an app adds it (npm checks the
 * package's peer ranges against the fixture's framework), without saving it
 * to the fixture's package.json or lockfile.
 */
export function installPackage(dir, tarball) {
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    throw new Error(`npm install ${tarball} in ${dir} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

/** The tarball `make package` writes for web/ (root: the repository). */
export function packageTarball(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8'));
  const tarball = path.join(root, 'build', `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
  if (!existsSync(tarball)) throw new Error(`${tarball} is missing: run \`make package\` first`);
  return tarball;
}
