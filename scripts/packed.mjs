/**
 * The package packed exactly as `npm publish` would pack it (`npm pack` in the repository, after `npm run build`), once
 * per content: the tarball is kept in `.tmp/packed/<hash>/`, named by a hash of every file the package publishes
 * (package.json "files", README, LICENSE, package.json), so `npm run check:package` and the README test in a fresh
 * project (test/readme-installed.test.ts) share one `npm pack` per `npm test`. Read the tarball; never write it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKED = join(ROOT, '.tmp', 'packed');
const STALE_MS = 60 * 60_000;
/** Files npm packs whatever "files" says (README and LICENSE in any case, with any extension). */
const ALWAYS = /^(package\.json|readme(\..*)?|licen[cs]e(\..*)?)$/i;

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile());
}

/** A hash of the path and content of every file the package publishes (16 hex digits). */
export function publishedHash() {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const files = [
    ...readdirSync(ROOT)
      .filter((f) => ALWAYS.test(f))
      .map((f) => join(ROOT, f)),
    ...(manifest.files ?? []).flatMap((entry) => filesUnder(join(ROOT, entry))),
  ];
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    hash
      .update(`${relative(ROOT, file).split('\\').join('/')}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function packInto(destination) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`npm pack failed (exit ${result.status}):\n${result.stderr || result.stdout}`);
  const [info] = JSON.parse(result.stdout);
  writeFileSync(join(destination, 'pack.json'), JSON.stringify(info));
}

/**
 * The tarball of the package as it is now: `{ tarball, info, reused }`, `info` being `npm pack --json`'s entry,
 * `reused` true when an earlier step packed the same files.
 */
export function packedTarball() {
  const hash = publishedHash();
  const done = join(PACKED, hash);
  let reused = true;
  if (!existsSync(join(done, 'pack.json'))) {
    reused = false;
    const partial = `${done}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    try {
      packInto(partial);
      // Kept when nothing changed the files while npm packed them (and no other process kept its copy first).
      if (publishedHash() === hash && !existsSync(done)) renameSync(partial, done);
      else if (!existsSync(done)) throw new Error('the package files changed while npm packed them; run again');
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
    prune(hash);
  }
  const info = JSON.parse(readFileSync(join(done, 'pack.json'), 'utf8'));
  return { tarball: join(done, info.filename), info, reused };
}

/** Removes the tarballs of other contents nothing has packed for an hour (a concurrent run may still read newer ones). */
function prune(keep) {
  for (const entry of readdirSync(PACKED)) {
    const path = join(PACKED, entry);
    if (entry !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
}
