/**
 * Where test/support/ts-hooks.mjs keeps the JavaScript it made of a .ts file: named by the file's path and text, so
 * test/support/child-coverage.mjs finds the very text a child ran without asking V8 for it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TS_CACHE = fileURLToPath(new URL('../../node_modules/.cache/ts-children/', import.meta.url));

/** The name (without `.js`) of the cached JavaScript of the .ts file at `path` whose text is `source`. */
export function cacheName(path, source) {
  return createHash('sha256').update(path).update('\0').update(source).digest('hex');
}

/** The cached JavaScript's file for `path` with the text `source`. */
export function cacheFile(path, source) {
  return join(TS_CACHE, `${cacheName(path, source)}.js`);
}

let transform;

/** esbuild's options for a .ts file (the repository's tsconfig), with its inline source map naming `path`. */
export function transformOptions(path) {
  transform ??= {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    tsconfigRaw: {
      compilerOptions: JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8')).compilerOptions,
    },
  };
  return { ...transform, sourcefile: path };
}

/** Keeps `code`, made of `path` with the text `source`, in the cache (written aside, then renamed into place). */
export function storeCached(path, source, code) {
  const cached = cacheFile(path, source);
  mkdirSync(TS_CACHE, { recursive: true });
  const temporary = `${cached}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, cached);
}

/** The JavaScript of the .ts file at `path` whose text is `source`: the cache's, else made now by esbuild and kept. */
export function transpiledSync(path, source) {
  try {
    return readFileSync(cacheFile(path, source), 'utf8');
  } catch {
    const { transformSync } = createRequire(import.meta.url)('esbuild');
    const { code } = transformSync(source, transformOptions(path));
    storeCached(path, source, code);
    return code;
  }
}
