import { readFile, readlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheFile } from './ts-cache.mjs';
import { mirrorOf, mirroredSource, tsMirror } from './ts-mirror.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the mirror child processes run the repository’s TypeScript from', () => {
  it('holds each .ts file’s JavaScript as the module hooks make it, beside a link to every file', async () => {
    const mirror = tsMirror();
    for (const file of ['src/cli/main.ts', 'examples/cgi.ts', 'test/mcp/fixtures/stdio-server.ts']) {
      const text = await readFile(join(ROOT, file), 'utf8');
      expect(mirrorOf(file)).toBe(join(mirror, file.replace(/\.ts$/, '.js')));
      expect(mirrorOf(join(ROOT, file))).toBe(mirrorOf(file));
      expect(await readFile(mirrorOf(file), 'utf8')).toBe(await readFile(cacheFile(join(ROOT, file), text), 'utf8'));
    }
    expect(await readlink(join(mirror, 'examples/prompts/review_code.json'))).toBe(
      join(ROOT, 'examples/prompts/review_code.json'),
    );
  });

  it('resolves the package’s own name and subpaths to its src/ files, with the package’s version', async () => {
    const mirror = tsMirror();
    const require = createRequire(join(mirror, 'examples/cgi.js'));
    expect(require.resolve('mcp-prompt-kit')).toBe(join(mirror, 'src/index.js'));
    expect(require.resolve('mcp-prompt-kit/http')).toBe(join(mirror, 'src/http/index.js'));
    const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((require('mcp-prompt-kit/package.json') as { version: string }).version).toBe(own.version);
  });

  it('maps a mirror file back to its .ts file for coverage, and nothing else', () => {
    const mirror = tsMirror();
    expect(mirroredSource(pathToFileURL(mirrorOf('src/json.ts')).href)).toBe(
      pathToFileURL(join(ROOT, 'src/json.ts')).href,
    );
    expect(mirroredSource(pathToFileURL(join(ROOT, 'src/json.ts')).href)).toBeUndefined();
    expect(mirroredSource(pathToFileURL(join(mirror, 'package.json')).href)).toBeUndefined();
  });

  it('refuses a file outside src/, test/ and examples/, or not TypeScript, naming it', () => {
    expect(() => mirrorOf('scripts/soak.ts')).toThrow(
      'ts-mirror: scripts/soak.ts is not a .ts file under src, test, examples',
    );
    expect(() => mirrorOf('/tmp/saver.ts')).toThrow('ts-mirror: /tmp/saver.ts is not a .ts file');
    expect(() => mirrorOf('examples/prompts/review_code.json')).toThrow('is not a .ts file');
  });
});
