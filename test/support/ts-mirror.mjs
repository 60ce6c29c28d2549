/**
 * The repository's src/ as JavaScript files on disk (`.tmp/ts-mirror/<sources hash>/src/**\/*.js`, each the text
 * test/support/ts-hooks.mjs makes of its .ts, inline source map included), so a child process runs the command with
 * plain `node .tmp/ts-mirror/<hash>/src/cli/main.js`: no module hooks, whose thread and messages cost a child about
 * 0.3 s of CPU. Imports between the files are the sources' own relative `.js` ones; packages resolve from the
 * repository's node_modules and the package's own name from its package.json, as from src/. Made once per state of
 * the sources (scripts/sources-hash.mjs), in a directory renamed into place when complete. Plain JavaScript: read by
 * test/support/child-coverage.mjs before any TypeScript loader.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesHash } from '../../scripts/sources-hash.mjs';
import { transpiledSync } from './ts-cache.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the mirrors live, one directory per state of the sources. */
export const TS_MIRROR = join(ROOT, '.tmp', 'ts-mirror');
const STALE_MS = 60 * 60_000;

/** The .ts file a mirror file was made of (`file:` URLs), or undefined for a URL outside every mirror. */
export function mirroredSource(url) {
  const base = pathToFileURL(`${TS_MIRROR}/`).href;
  if (!url.startsWith(base) || !url.endsWith('.js')) return undefined;
  const rest = url.slice(base.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : pathToFileURL(join(ROOT, `${rest.slice(slash + 1, -3)}.ts`)).href;
}

/** The mirror of the current sources (made now when missing); returns its directory. */
export function srcMirror() {
  const hash = sourcesHash();
  const done = join(TS_MIRROR, hash);
  if (existsSync(done)) return done;
  const partial = `${done}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  const src = join(ROOT, 'src');
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const path = join(src, file);
    const target = join(partial, 'src', `${file.slice(0, -3)}.js`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, transpiledSync(path, readFileSync(path, 'utf8')));
  }
  if (sourcesHash() !== hash) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error('test/support/ts-mirror.mjs: src/ changed while its mirror was made; run the tests again');
  }
  try {
    renameSync(partial, done);
  } catch (error) {
    // Another process made the same mirror first: use it.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(done)) throw error;
  }
  prune(hash);
  return done;
}

/** Removes the mirrors of other source states nothing has made for an hour (a concurrent run may still use newer ones). */
function prune(keep) {
  for (const entry of readdirSync(TS_MIRROR)) {
    const path = join(TS_MIRROR, entry);
    if (entry !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}
