/**
 * A hash of every file the package's build reads (src/, the tsup and TypeScript configs, the manifest and the
 * lockfile): the key of everything made from one state of the sources (the tests' private builds, the declarations
 * the type check emits for the build).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Files outside src/ that decide what the build produces. */
const BUILD_INPUTS = [
  'tsup.config.ts',
  'tsconfig.json',
  'tsconfig.declarations.json',
  'package.json',
  'package-lock.json',
];

/** A hash of every file the build reads: its path and content (16 hex digits). */
export function sourcesHash() {
  const hash = createHash('sha256');
  const src = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .map((f) => join('src', f))
    .filter((f) => statSync(join(ROOT, f)).isFile());
  for (const file of [...src.sort(), ...BUILD_INPUTS]) {
    if (!existsSync(join(ROOT, file))) continue;
    hash
      .update(`${file.split('\\').join('/')}\0`)
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
