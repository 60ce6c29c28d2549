import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createParsedFileCache, isCheckedFile, typecheckProject } from '../../scripts/consumer/typecheck.mjs';
import type { ParsedFileCache } from '../../scripts/consumer/typecheck.mjs';

const OWN = 'the-kit';
const CLEAN_OWN = 'export declare function greet(name: string): string;\n';
const CLEAN_OTHER = 'export declare const version: string;\n';
const CLEAN_CONSUMER = [
  "import { greet } from 'the-kit';",
  "import { version } from '@other/lib';",
  'export const text: string = greet(version);',
  '',
].join('\n');

let project: string | undefined;
/** The fixtures' programs share the files they parse alike (TypeScript's libs). */
const parsedFiles = createParsedFileCache();

afterAll(() => parsedFiles.clear());

afterEach(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
  project = undefined;
});

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A consumer project with our package (`the-kit`) and another one (`@other/lib`) installed. */
function fixture(files: { own?: string; other?: string; consumer?: string } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'consumer-typecheck-'));
  project = root;
  write(root, 'package.json', JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  write(
    root,
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'node16',
        moduleResolution: 'node16',
        // Not the default libs of the default target (ES5 with the DOM, most of a program's time): none of these
        // checks is about them.
        lib: ['ES2022'],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
  write(root, 'consumer.ts', files.consumer ?? CLEAN_CONSUMER);
  for (const [name, text] of [
    [OWN, files.own ?? CLEAN_OWN],
    ['@other/lib', files.other ?? CLEAN_OTHER],
  ] as const) {
    write(root, `node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', types: './index.d.ts' }));
    write(root, `node_modules/${name}/index.d.ts`, text);
  }
  return root;
}

function check(root: string, cache: ParsedFileCache | undefined = parsedFiles): ReturnType<typeof typecheckProject> {
  return typecheckProject({ ts, project: root, tsconfig: 'tsconfig.json', ownPackage: OWN, parsedFiles: cache });
}

describe('the consumer type check', () => {
  it('reports a type error inside our own declarations although they live in node_modules', () => {
    const root = fixture({ own: 'export declare function greet(name: string): Missing;\n' });
    const { diagnostics } = check(root);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ file: join('node_modules', OWN, 'index.d.ts'), line: 1 });
    expect(diagnostics[0]!.text).toMatch(/error TS2304: Cannot find name 'Missing'/);
  });

  it("does not report another package's own declaration errors", () => {
    const root = fixture({ other: 'export declare const version: string;\nexport declare const broken: NotAType;\n' });
    const result = check(root);
    expect(result.diagnostics).toEqual([]);
    expect(result.checked).not.toContain(join('node_modules', '@other', 'lib', 'index.d.ts'));
  });

  it("reports errors in the consumer's own files, with their line", () => {
    const root = fixture({ consumer: `${CLEAN_CONSUMER}export const count: number = greet('x');\n` });
    const { diagnostics } = check(root);
    expect(diagnostics.map((d) => [d.file, d.line])).toEqual([['consumer.ts', 4]]);
    expect(diagnostics[0]!.text).toMatch(/TS2322/);
  });

  it('reports a broken configuration', () => {
    const root = fixture();
    write(
      root,
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: { module: 'node16', moduleResolution: 'bogus', lib: ['ES2022'] },
        files: ['consumer.ts'],
      }),
    );
    expect(check(root).diagnostics.some((d) => /moduleResolution/.test(d.text))).toBe(true);
  });

  it('checks exactly the consumer files and our declarations', () => {
    const root = fixture();
    expect(check(root).checked.sort()).toEqual(['consumer.ts', join('node_modules', OWN, 'index.d.ts')].sort());
  });

  it('reuses the files an earlier program parsed with the same settings, and parses a changed file again', () => {
    const root = fixture();
    const cache = createParsedFileCache();
    expect(check(root, cache).diagnostics).toEqual([]);
    const parsed = cache.size;
    expect(parsed).toBeGreaterThan(3); // the libs, the consumer and both packages
    expect(check(root, cache).diagnostics).toEqual([]);
    expect(cache.size).toBe(parsed);
    // Same name, new text: parsed again, so the new error is seen.
    write(root, 'consumer.ts', `${CLEAN_CONSUMER}export const count: number = greet('x');\n`);
    expect(check(root, cache).diagnostics.map((d) => [d.file, d.line])).toEqual([['consumer.ts', 4]]);
    expect(check(root).diagnostics.map((d) => [d.file, d.line])).toEqual([['consumer.ts', 4]]);
    expect(cache.size).toBe(parsed);
  });

  it('parses the files again for settings that change their syntax tree or binding', () => {
    const root = fixture();
    const cache = createParsedFileCache();
    check(root, cache);
    const parsed = cache.size;
    // allowUnreachableCode changes what the binder reports: a program with it must not reuse the other's files.
    const config = {
      module: 'node16',
      moduleResolution: 'node16',
      lib: ['ES2022'],
      strict: true,
      noEmit: true,
      types: [],
    };
    write(
      root,
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { ...config, allowUnreachableCode: false }, files: ['consumer.ts'] }),
    );
    write(root, 'consumer.ts', `${CLEAN_CONSUMER}export function f(): number {\n  return 1;\n  f();\n}\n`);
    expect(check(root, cache).diagnostics.map((d) => d.text)).toEqual([
      expect.stringMatching(/TS7027: Unreachable code/),
    ]);
    expect(cache.size).toBe(2 * parsed);
    write(
      root,
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { ...config, allowUnreachableCode: true }, files: ['consumer.ts'] }),
    );
    expect(check(root, cache).diagnostics).toEqual([]);
    expect(cache.size).toBe(3 * parsed);
  });
});

describe('isCheckedFile', () => {
  const root = join(tmpdir(), 'project');

  it('checks consumer files and our package, scoped or not', () => {
    expect(isCheckedFile(root, join(root, 'src', 'a.ts'), OWN)).toBe(true);
    expect(isCheckedFile(root, join(root, 'node_modules', OWN, 'dist', 'index.d.cts'), OWN)).toBe(true);
    expect(isCheckedFile(root, join(root, 'node_modules', '@scope', 'kit', 'x.d.ts'), '@scope/kit')).toBe(true);
  });

  it('skips other packages, packages nested in ours, and files outside the project', () => {
    expect(isCheckedFile(root, join(root, 'node_modules', '@other', 'lib', 'index.d.ts'), OWN)).toBe(false);
    expect(isCheckedFile(root, join(root, 'node_modules', `${OWN}-extra`, 'index.d.ts'), OWN)).toBe(false);
    expect(isCheckedFile(root, join(root, 'node_modules', OWN, 'node_modules', 'dep', 'a.d.ts'), OWN)).toBe(false);
    expect(isCheckedFile(root, join(tmpdir(), 'elsewhere', 'lib.es2022.d.ts'), OWN)).toBe(false);
  });
});
