/**
 * The repository's TypeScript (src/, test/, examples/) as JavaScript files on disk, `.tmp/ts-mirror/<hash>/`: each .ts
 * file's JavaScript is the text test/support/ts-hooks.mjs makes of it (inline source map included) beside it, and every
 * other file (the .ts files too) is a link to the original. A child process then runs a TypeScript program with plain
 * `node .tmp/ts-mirror/<hash>/examples/cgi.js`, without module hooks, whose thread and messages cost a child about
 * 0.3 s of CPU. Imports between the files are the sources' own relative `.js` ones; packages resolve from the
 * repository's node_modules, and the package's own name (`mcp-prompt-kit`, `mcp-prompt-kit/mcp`: the tsconfig's
 * `paths`) from the mirror's package.json to the mirror's src/, as the hooks resolve it. Files next to a program (prompt
 * files, fixtures) are found next to its mirror. Made once per state of those files (their paths and text), in a
 * directory renamed into place when complete. Plain JavaScript: read by test/support/child-coverage.mjs before any
 * TypeScript loader.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transpiledSync } from './ts-cache.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the mirrors live, one directory per state of the files. */
export const TS_MIRROR = join(ROOT, '.tmp', 'ts-mirror');
const TREES = ['src', 'test', 'examples'];
const STALE_MS = 60 * 60_000;

/** The .ts file a mirror's .js file was made of (`file:` URLs), or undefined for a URL outside every mirror. */
export function mirroredSource(url) {
  const base = pathToFileURL(`${TS_MIRROR}/`).href;
  if (!url.startsWith(base) || !url.endsWith('.js')) return undefined;
  const rest = url.slice(base.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : pathToFileURL(join(ROOT, `${rest.slice(slash + 1, -3)}.ts`)).href;
}

/** Every file of the mirrored trees, relative to the repository, sorted. */
function files() {
  return TREES.flatMap((tree) =>
    readdirSync(join(ROOT, tree), { recursive: true, encoding: 'utf8' })
      .map((f) => join(tree, f))
      .filter((f) => statSync(join(ROOT, f)).isFile()),
  ).sort();
}

function stateHash(list) {
  const hash = createHash('sha256');
  for (const file of [...list, 'package.json', 'tsconfig.json'])
    hash.update(`${file.split(sep).join('/')}\0`).update(readFileSync(join(ROOT, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The package.json of a mirror: the package's name and version, its `paths` as exports into the mirror's src/. */
function manifest() {
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const paths = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths ?? {};
  const exports = { './package.json': './package.json' };
  for (const [name, [target]] of Object.entries(paths))
    exports[`.${name.slice(own.name.length)}`] = target.replace(/\.ts$/, '.js');
  return { name: own.name, version: own.version, type: 'module', exports };
}

let current;

/** The mirror of the files as this process first saw them (made now when missing); returns its directory. */
export function tsMirror() {
  if (current !== undefined) return current;
  const list = files();
  const hash = stateHash(list);
  const done = join(TS_MIRROR, hash);
  if (existsSync(done)) return (current = done);
  const partial = `${done}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  for (const file of list) {
    const path = join(ROOT, file);
    const target = join(partial, file);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(path, target);
    if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
      writeFileSync(`${target.slice(0, -3)}.js`, transpiledSync(path, readFileSync(path, 'utf8')));
  }
  writeFileSync(join(partial, 'package.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  if (stateHash(files()) !== hash) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error('test/support/ts-mirror.mjs: the sources changed while their mirror was made; run the tests again');
  }
  try {
    renameSync(partial, done);
  } catch (error) {
    // Another process made the same mirror first: use it.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(done)) throw error;
  }
  prune(hash);
  return (current = done);
}

/** The mirror's JavaScript file for the .ts file `file` (absolute, or relative to the repository). */
export function mirrorOf(file) {
  const rel = relative(ROOT, isAbsolute(file) ? file : join(ROOT, file));
  if (!file.endsWith('.ts') || rel.startsWith('..') || !TREES.includes(rel.split(sep)[0]))
    throw new Error(`ts-mirror: ${file} is not a .ts file under ${TREES.join(', ')}`);
  return join(tsMirror(), `${rel.slice(0, -3)}.js`);
}

/** Removes the mirrors of other states nothing has made for an hour (a concurrent run may still use newer ones). */
function prune(keep) {
  for (const entry of readdirSync(TS_MIRROR)) {
    const path = join(TS_MIRROR, entry);
    if (entry !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}
