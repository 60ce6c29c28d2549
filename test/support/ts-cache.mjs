/**
 * Where test/support/ts-hooks.mjs keeps the JavaScript it made of a .ts file: named by the file's path and text, so
 * test/support/child-coverage.mjs finds the very text a child ran without asking V8 for it.
 */
import { createHash } from 'node:crypto';
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
