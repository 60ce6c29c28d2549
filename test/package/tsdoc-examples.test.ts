/**
 * Every `@example` in the TSDoc of src/ compiles as a user's module that imports the package (strict,
 * noUncheckedIndexedAccess), and every public function has one: a public example cannot rot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import type { EntryProgram, ExampleProblem, RunnableExample, TsdocExample } from './tsdoc-examples.js';
import {
  ROOT,
  allExamples,
  checkExamples,
  entryProgram,
  examplesIn,
  publicFunctionsWithoutExample,
  runnableExample,
  sourceFiles,
} from './tsdoc-examples.js';

/** Comments that show how the check reads and reports examples; checked in the same program as the real ones. */
const FIXTURE_FILE = 'fixture/examples.ts';
const FIXTURE = [
  '/**', //                                                 1
  ' * Plain TSDoc example, no fence.', //                   2
  ' *', //                                                  3
  ' * @example', //                                         4
  " * const problem: number = promptNameProblem('x');", // 5
  ' */', //                                                 6
  '/**', //                                                 7
  ' * @example A title on the tag line', //                 8
  ' * ```json', //                                          9
  ' * { "not": "TypeScript" }', //                          10
  ' * ```', //                                              11
  ' * ```ts', //                                            12
  ' * const server = attachPrompts;', //                    13
  ' * const shared = 1;', //                                14
  ' * ```', //                                              15
  ' * @see somewhere', //                                   16
  ' * @example', //                                         17
  ' * ```ts', //                                            18
  ' * registry.add({ name: 1 });', //                       19
  ' * console.log(shared);', //                             20
  ' * ```', //                                              21
  ' */', //                                                 22
  "const text = 'architecture://**'; /** @example notAnExample() */", // 23
  '',
].join('\n');

const examples = allExamples();
const fixture = examplesIn(FIXTURE, FIXTURE_FILE);
const base: EntryProgram = entryProgram();
let problems: ExampleProblem[] = [];

beforeAll(() => {
  problems = checkExamples([...examples, ...fixture], base);
});

function report(list: readonly ExampleProblem[]): string[] {
  return list.map((p) => `${p.at} (the @example at ${p.example}): ${p.message}`);
}

describe('the TSDoc examples', () => {
  it('are every @example tag written in src/', () => {
    const tags = sourceFiles().flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/^\s*\*\s*@example\b/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(examples.map((e) => `${e.file}:${e.line}`)).toEqual(tags);
    expect(examples.length).toBeGreaterThan(60);
    const empty = examples.filter((e) => e.code.join('').trim() === '').map((e) => `${e.file}:${e.line}`);
    expect(empty, 'examples without code').toEqual([]);
  });

  it('compile as modules that import the package, strict and with noUncheckedIndexedAccess', () => {
    expect(report(problems.filter((p) => !p.at.startsWith(FIXTURE_FILE)))).toEqual([]);
  });

  it('are given to every public function, class and class method', () => {
    expect(publicFunctionsWithoutExample(base), 'public API without an @example').toEqual([]);
  });
});

describe('reading and checking an example', () => {
  const [plain, titled, last] = fixture as [TsdocExample, TsdocExample, TsdocExample];
  const fixtureProblems = (): ExampleProblem[] => problems.filter((p) => p.at.startsWith(FIXTURE_FILE));

  it('reads the fenced TypeScript of an example, or its whole text when it has no fence', () => {
    expect(fixture.map((e) => e.line)).toEqual([4, 8, 17]);
    expect(plain.code).toEqual(["const problem: number = promptNameProblem('x');"]);
    expect(plain.lines).toEqual([5]);
    expect(titled.code).toEqual(['const server = attachPrompts;', 'const shared = 1;']);
    expect(titled.lines).toEqual([13, 14]);
    expect(last.code).toEqual(['registry.add({ name: 1 });', 'console.log(shared);']);
  });

  it('reports a type error at its line in the source comment, with the compiler message', () => {
    expect(fixtureProblems().filter((p) => p.at === `${FIXTURE_FILE}:5`)).toEqual([
      {
        at: `${FIXTURE_FILE}:5`,
        example: `${FIXTURE_FILE}:4`,
        message: expect.stringMatching(/^TS2322: Type 'string \| undefined' is not assignable to type 'number'\./),
      },
    ]);
    const nameNotString = fixtureProblems().find((p) => p.at === `${FIXTURE_FILE}:19`);
    expect(nameNotString?.message).toMatch(/^TS2322: Type 'number' is not assignable to type 'string'/);
  });

  it('imports the public names an example uses from the entry that exports them', () => {
    expect(fixtureProblems().filter((p) => p.example === `${FIXTURE_FILE}:8`)).toEqual([]);
  });

  it('lets an example use the prelude: its receivers are typed, not any', () => {
    const messages = fixtureProblems()
      .filter((p) => p.example === `${FIXTURE_FILE}:17`)
      .map((p) => p.message);
    expect(messages).not.toContainEqual(expect.stringMatching(/Cannot find name 'registry'/));
  });

  it('checks each example apart: one does not see what another declares', () => {
    const unseen = fixtureProblems().find((p) => p.at === `${FIXTURE_FILE}:20`);
    expect(unseen?.message).toMatch(/^TS2304: Cannot find name 'shared'/);
    expect(fixtureProblems()).toHaveLength(3);
  });
});

type Check = (actual: unknown, expected: () => unknown, line: number) => void;
type Throws = (run: () => Promise<unknown>, what: string, line: number) => Promise<void>;
type Body = (check: Check, throws: Throws, console: Console, ...values: unknown[]) => Promise<void>;
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => Body;
const quiet: Console = { ...console, log: () => {}, error: () => {} };

/** Runs an example with the core's values; resolves to what escaped it (undefined when nothing did). */
async function runExample(r: RunnableExample, check: Check, throws: Throws): Promise<unknown> {
  const values = r.names.map((n) => (core as Record<string, unknown>)[n]);
  const run = new AsyncFunction('check', 'throws', 'console', ...r.names, r.body);
  return run(check, throws, quiet, ...values).then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('the TSDoc examples of the core', () => {
  const runnable = examples.flatMap((e) => runnableExample(e, base) ?? []);

  it('are most of the examples, with claims about their results', () => {
    expect(runnable.length).toBeGreaterThan(20);
    expect(runnable.reduce((n, r) => n + r.claims, 0)).toBeGreaterThan(30);
  });

  const cases = runnable.map((r) => [`${r.example.file}:${r.example.line}`, r] as const);
  it.each(cases)('%s runs and its claims hold', async (at, r) => {
    const outcome = await runExample(
      r,
      (actual, expected, line) => expect(actual, `the claim at ${r.example.file}:${line}`).toEqual(expected()),
      async (run, what, line) => {
        const error = await run().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `the statement at ${r.example.file}:${line} throws ${what}`).toBeDefined();
        const { name, code } = error as { name?: unknown; code?: unknown };
        expect([name, code], `what the statement at ${r.example.file}:${line} throws`).toContain(what);
      },
    );
    // An example may end in a `throw` it shows; nothing else may escape it.
    if (outcome !== undefined && /^\s*(?:if\b.*\)\s*)?throw\b/m.test(r.example.code.join('\n'))) {
      expect(outcome, at).toSatisfy((e) => e instanceof core.PromptError || e instanceof core.JsonRpcError);
    } else {
      expect(outcome, at).toBeUndefined();
    }
  });

  it('compares a value a comment claims, and expects the throw a "throws" comment claims', async () => {
    const text = [
      '/**',
      ' * @example',
      ' * ```ts',
      " * promptNameProblem('review'); // 'a wrong claim'",
      ' * parsePromptDefinition({ name: 1 });',
      ' * // throws INVALID_PROMPT_DEFINITION',
      " * promptNameProblem('x'); // the comment is prose, not a claim",
      ' * ```',
      ' */',
    ].join('\n');
    const r = runnableExample(examplesIn(text, FIXTURE_FILE)[0]!, base)!;
    expect(r.claims).toBe(2);
    expect([...r.names].sort()).toEqual(['parsePromptDefinition', 'promptNameProblem']);
    const seen: unknown[] = [];
    const outcome = await runExample(
      r,
      (actual, expected, line) => void seen.push(['check', actual, expected(), line]),
      async (run, what, line) => {
        const code = await run().then(
          () => 'no error',
          (e: unknown) => (e as { code?: unknown }).code,
        );
        seen.push(['throws', code, what, line]);
      },
    );
    expect(outcome).toBeUndefined();
    expect(seen).toEqual([
      ['check', undefined, 'a wrong claim', 4],
      ['throws', 'INVALID_PROMPT_DEFINITION', 'INVALID_PROMPT_DEFINITION', 5],
    ]);
  });

  it('leaves out an example that needs more than the core: a prelude name, an import, a subpath', () => {
    const text = [
      '/**',
      ' * @example',
      " * registry.remove('x'); // true",
      ' * @example',
      " * import { z } from 'zod';",
      ' * @example',
      ' * attachPrompts;',
      ' */',
    ].join('\n');
    const read = examplesIn(text, FIXTURE_FILE);
    expect(read).toHaveLength(3);
    expect(read.map((e) => runnableExample(e, base))).toEqual([undefined, undefined, undefined]);
  });
});
