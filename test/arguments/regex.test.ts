import { RE2JS } from 're2js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import { PatternBudget } from '../../src/arguments/pattern-budget.js';
import { compilePattern, createPatternEngine, patternProblem, translatePattern } from '../../src/arguments/regex.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { JsonSchema } from '../../src/types.js';
import { thrownBy } from '../support/errors.js';

const PATTERNS = [
  '^(a|a)+$',
  '^(\\w|\\d)+$',
  '\\s*\\s*\\s*x',
  '^a*a*a*$',
  'a+b',
  '\\d+\\.\\d+$',
  '^(a+)+$',
  '^[a-z0-9]+(-[a-z0-9]+)*$',
  '^\\d+(\\.\\d+)*$',
  '^(?<year>\\d{4})-\\d{2}$',
  '^(?:[a-z]{2,3})(?:-[A-Z]{2})?$',
  '^.$',
  '^.+$',
  '^[^]$',
  '^[]$',
  '[]',
  '[^]',
  '',
  '^$',
  '(?:)',
  '(|a)',
  'x{0}',
  '^a{2}$',
  '^a{02,3}$',
  'a{2,}?',
  '^\\s$',
  '^\\S$',
  '^[\\s]$',
  '^[\\S]$',
  '^[^\\s]$',
  '^[^\\S]$',
  '^[a\\S]$',
  '^[\\s\\S]$',
  '^[\\d\\D]$',
  '^\\W+$',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '^[\\u{1F600}-\\u{1F64F}]$',
  '^\\u00e9$',
  'é',
  '^[à-ÿ]+$',
  '^\\x41$',
  '^\\0$',
  '^\\cJ$',
  '^[\\cJ]$',
  '^\\v$',
  '^\\t\\n?$',
  '^[\\b]$',
  '\\bfoo\\b',
  '\\Bo',
  '\\/',
  '^[\\-a]$',
  '^[a-]$',
  '^[-a]$',
  '^[\\w-]$',
  '^[\\]\\[]+$',
  '\\.',
  '\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\',
  '^[.*+?^${}()|]+$',
  '^ $',
  '^a|b$',
  '^a$|^b$',
  '^(?:a|b)$',
  '^(a)|(b)$',
  '^a^b$',
  '^a$b$',
  '^(?:a$|b)$',
  '^\\^a\\$$',
  '^[$^]$',
  '^\\p{L}+$',
  '^[\\p{L} ]{1,50}$',
  '\\p{Script=Greek}',
  '\\p{sc=Latin}',
  '\\p{General_Category=Letter}',
  '\\p{gc=Lu}',
  '\\P{Lu}',
  '[\\P{Lu}]',
  '[^\\P{Lu}]',
  '^\\p{ASCII}+$',
  '\\p{Any}',
  '^\\p{Nd}+$',
  '^\\p{Lowercase}$',
];

const INPUTS = [
  '',
  'a',
  'aa',
  'a\n',
  'aa\n',
  'aaa!',
  'ab',
  'b',
  'x',
  '  x',
  '1.2',
  'v1.2',
  '12',
  'abc-def',
  'abc-',
  '1.2.3',
  'héllo',
  'héllo wörld',
  '2024-05',
  'en',
  'en-US',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u00a0',
  '\u000b',
  '\ufeff',
  '\u3000',
  ' ',
  '😀',
  'x😀',
  '😀😀',
  '\\',
  '/',
  '-',
  ']',
  'Ω',
  'ω',
  'AB',
  'A',
  '\0',
  'foo',
  'a foo b',
  'afoob',
  '\b',
  'é',
  'e\u0301',
  'à',
  '.',
  '*+?()[]{}|^$\\',
  '\t',
  '\t\n',
  '١٢٣',
  'Ǆ',
];

/** The Unicode version of re2js's property tables. */
const RE2JS_UNICODE = '17.0';

describe('an ECMAScript pattern on the linear-time engine', () => {
  it.each(PATTERNS)('answers %s as the native engine does, on every input', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const linear = compilePattern(pattern);
    const differ = INPUTS.filter((text) => native.test(text) !== linear.test(text));
    expect(differ).toEqual([]);
  });

  /** Every code point (surrogates left out), as one string. */
  const everyCodePoint = (() => {
    const chunks: string[] = [];
    for (let start = 0; start <= 0x10ffff; start += 4096) {
      const cps: number[] = [];
      for (let cp = start; cp < start + 4096 && cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) cps.push(cp);
      chunks.push(String.fromCodePoint(...cps));
    }
    return chunks.join('');
  })();

  /**
   * The native engine splits every code point into those `atom` matches and the others; the linear engine must match
   * each of the first (one anchored test over all of them) and none of the others (one search): the same set, checked
   * on its match-only path (two passes, no match objects). On a difference, the code points it is at.
   */
  const sameCodePoints = (atom: string): void => {
    const inside: string[] = [];
    const outside: string[] = [];
    let next = 0;
    for (const m of everyCodePoint.matchAll(new RegExp(`${atom}+`, 'gu'))) {
      outside.push(everyCodePoint.slice(next, m.index));
      inside.push(m[0]);
      next = m.index + m[0].length;
    }
    outside.push(everyCodePoint.slice(next));
    const source = translatePattern(atom);
    const allInside = RE2JS.compile(`(?:${source})*`).testExact(inside.join(''));
    const noneOutside = !RE2JS.compile(source).test(outside.join(''));
    const differ: string[] = [];
    if (!allInside || !noneOutside) {
      const native = new RegExp(`^${atom}$`, 'u');
      const linear = RE2JS.compile(source);
      for (const c of everyCodePoint)
        if (differ.length < 20 && native.test(c) !== linear.testExact(c))
          differ.push(`U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
    }
    expect({ allInside, noneOutside, differ }).toEqual({ allInside: true, noneOutside: true, differ: [] });
  };

  const tableFree = ['\\s', '\\S', '.', '\\w', '\\d', '\\p{ASCII}', '\\p{Any}'];
  it.each(tableFree)('matches %s on the same code points as the native engine', sameCodePoints);

  // Property tables come from re2js (Unicode 17.0) and from the runtime's ICU: compared where the versions agree.
  it
    .runIf(process.versions.unicode === RE2JS_UNICODE)
    .each([
      '\\p{L}',
      '\\p{Lu}',
      '\\p{Ll}',
      '\\p{Lt}',
      '\\p{Lm}',
      '\\p{Lo}',
      '\\p{LC}',
      '\\p{M}',
      '\\p{N}',
      '\\p{Nd}',
      '\\p{P}',
      '\\p{S}',
      '\\p{Z}',
      '\\p{Zs}',
      '\\p{C}',
      '\\p{Cc}',
      '\\p{Cf}',
      '\\p{Cn}',
      '\\p{Co}',
      '\\p{Script=Greek}',
      '\\p{sc=Han}',
      '\\p{Script=Common}',
      '\\p{Assigned}',
      '\\p{Alphabetic}',
      '\\p{White_Space}',
      '\\p{Emoji}',
      '\\p{Extended_Pictographic}',
      '\\p{Uppercase}',
    ])('matches %s on the same code points as the native engine (Unicode tables of one version)', sameCodePoints);

  it.each([
    ['(?=a)', "pattern '(?=a)' uses a lookahead: patterns run on a linear-time engine (RE2), which has no lookarounds"],
    ['a(?!b)', 'uses a lookahead'],
    ['(?<=a)b', 'uses a lookbehind'],
    ['(?<!a)b', 'uses a lookbehind'],
    ['(a)\\1', 'uses a backreference (\\1)'],
    ['(?<n>a)\\k<n>', 'uses a backreference (\\k<n>)'],
    ['\\p{Script=Grek}', 'knows scripts by their long names only'],
    ['\\p{scx=Greek}', 'has no scx property'],
    ['\\p{Bidi_Control}', 'does not have that Unicode property'],
    ['a{1001}', 'repeats more than 1000 times ({1001})'],
    ['(?:a{100}){100}', 'repeats more than 1000 times in all'],
    ['\\uD800', 'contains a lone surrogate'],
    ['[\\uDC00-\\uDFFF]', 'contains a lone surrogate'],
  ])('refuses %s, saying why', (pattern, reason) => {
    expect(patternProblem(pattern)).toContain(reason);
  });

  it('reports a pattern that is not valid ECMAScript with the native reason', () => {
    expect(patternProblem('a{')).toMatch(/^Invalid regular expression: .*Incomplete quantifier/);
  });
});

describe('ajv on the linear-time engine', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('compiles each pattern once per engine, not per request', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    const validator = new ArgumentValidatorCache().compile([{ name: 'ticket', pattern: '^[A-Z]+-\\d+$' }], undefined);
    validator.check();
    expect(validator.validate({ ticket: 'AB-1' }).ok).toBe(true);
    const compiled = compile.mock.calls.length;
    expect(compiled).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++)
      expect(validator.validate({ ticket: i % 2 === 0 ? `AB-${i}` : 'nope' }).ok).toBe(i % 2 === 0);
    expect(compile.mock.calls.length).toBe(compiled);
    const engine = createPatternEngine(new PatternBudget());
    expect(engine('^a$', 'u')).toBe(engine('^a$', 'u'));
  });

  it('keeps the patterns of schemas sharing one ajv instance apart', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile([{ name: 'x', pattern: '^a+$' }], undefined);
    const b = cache.compile(
      [
        { name: 'x', pattern: '^b+$' },
        { name: 'y', pattern: '^c+$' },
      ],
      undefined,
    );
    expect(a.validate({ x: 'aa' }).ok).toBe(true);
    expect(b.validate({ x: 'bb', y: 'cc' }).ok).toBe(true);
    expect(b.validate({ x: 'aa' }).ok).toBe(false);
    expect(b.validate({ x: 'bb', y: 'bb' }).ok).toBe(false);
  });

  it('accepts patterns a star-height detector refused, and answers them', () => {
    const args: PromptArgumentDefinition[] = [
      { name: 'slug', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
      { name: 'version', pattern: '^\\d+(\\.\\d+)*$' },
    ];
    expect(validatePromptArguments({ slug: 'a-b-c', version: '1.2.3' }, args).ok).toBe(true);
    expect(validatePromptArguments({ slug: 'a--b', version: '1.2.' }, args).ok).toBe(false);
  });
});

describe('an author pattern cannot stall a request', () => {
  // Sizes where the backtracking engine takes minutes (or hours): a regression hangs the test until its timeout.
  const n = 9_999;
  /** The keyword the first failure names ('ok' when the arguments pass). */
  const failedKeyword = (result: ReturnType<typeof validatePromptArguments>): unknown =>
    result.ok ? 'ok' : (result.error.data as { details?: { keyword?: string }[] } | undefined)?.details?.[0]?.keyword;

  it.each([
    ['overlapping alternation', '^(a|a)+$', `${'a'.repeat(n)}!`, 'a'.repeat(n)],
    ['overlapping classes', '^(\\w|\\d)+$', `${'1'.repeat(n)}!`, '1'.repeat(n)],
    ['nested quantifiers', '^(a+)+$', `${'a'.repeat(n)}!`, 'a'.repeat(n)],
    ['adjacent overlapping repeats', '\\s*\\s*\\s*x', `${' '.repeat(n)}!`, `${' '.repeat(n)}x`],
    ['repeats of the same character', '^a*a*a*$', `${'a'.repeat(n)}!`, 'a'.repeat(n)],
  ])('answers %s (%s) over a 10,000-character argument', (_, pattern, failing, matching) => {
    expect(failedKeyword(validatePromptArguments({ x: failing }, [{ name: 'x', pattern }]))).toBe('pattern');
    expect(failedKeyword(validatePromptArguments({ x: matching }, [{ name: 'x', pattern }]))).toBe('ok');
  });

  // Unanchored: the backtracking engine retries from every position (a+b: quadratic; the others: cubic, hours).
  it.each([
    ['a+b', 'a'],
    ['[a-z]+_?[a-z]+\\d', 'a'],
  ])('answers an unanchored propertyNames pattern (%s) over 100 keys of 10,000 characters', (pattern, fill) => {
    const schema: JsonSchema = { type: 'object', properties: { o: { type: 'object', propertyNames: { pattern } } } };
    const o: Record<string, number> = {};
    for (let i = 0; i < 100; i++) o[`${String(i).padStart(3, '-')}${fill.repeat(9_990)}`] = i;
    expect(failedKeyword(validatePromptArguments({ o }, undefined, schema))).toBe('pattern');
    expect(failedKeyword(validatePromptArguments({ o: { ab_c1: 1 } }, undefined, schema))).toBe('ok');
  });

  it.each(['\\d+\\.\\d+$', '\\d+,?\\d+\\.\\d+$'])(
    'answers an unanchored items pattern (%s) over 100 strings of 10,000 digits',
    (pattern) => {
      const schema: JsonSchema = {
        type: 'object',
        properties: { xs: { type: 'array', items: { type: 'string', pattern } } },
      };
      const xs = Array.from({ length: 100 }, () => '1'.repeat(9_990));
      expect(failedKeyword(validatePromptArguments({ xs }, undefined, schema))).toBe('pattern');
      expect(failedKeyword(validatePromptArguments({ xs: ['12.5', 'v12.10'] }, undefined, schema))).toBe('ok');
    },
  );

  // RE2 is linear, but its constant grows with the pattern's program: (?:a|aa|aaa|aaaa){1,1000}! has 11,002
  // instructions and takes over a second per 10,000 characters. The work budget refuses it before it runs.
  it('refuses pattern work past maxPatternWork before matching, for a pattern whose program is large', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { xs: { type: 'array', items: { type: 'string', pattern: '(?:a|aa|aaa|aaaa){1,1000}!' } } },
    };
    const xs = Array.from({ length: 100 }, () => `${'a'.repeat(9_990)}b!`);
    const result = validatePromptArguments({ xs }, undefined, schema);
    expect(result.ok ? undefined : result.error.data).toMatchObject({
      error_type: 'schema_validation_failed',
      details: [
        {
          argument: '',
          keyword: 'maxPatternWork',
          message: 'needs more than 25000000 steps of pattern matching (limit maxPatternWork)',
        },
      ],
    });
    expect(failedKeyword(validatePromptArguments({ xs: ['aaaa!'] }, undefined, schema))).toBe('ok');
  });

  it('counts every pattern check of a request against one budget, and takes the limit from the options', () => {
    const args: PromptArgumentDefinition[] = [
      { name: 'a', pattern: '^[^<>]*$' },
      { name: 'b', pattern: '^[^<>]*$' },
    ];
    const text = 'x'.repeat(1_000);
    const size = (text.length + 1) * 4; // a 4-instruction program, checked once per argument
    expect(validatePromptArguments({ a: text, b: text }, args, undefined, { maxPatternWork: 2 * size }).ok).toBe(true);
    const over = validatePromptArguments({ a: text, b: text }, args, undefined, { maxPatternWork: 2 * size - 1 });
    expect(failedKeyword(over)).toBe('maxPatternWork');
    expect(failedKeyword(validatePromptArguments({ a: text }, args, undefined, { maxPatternWork: 2 * size - 1 }))).toBe(
      'ok',
    );
  });

  it('leaves ordinary patterns over a megabyte of text well inside the default budget', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { xs: { type: 'array', items: { type: 'string', pattern: '^[^<>]*$' } } },
    };
    const xs = Array.from({ length: 100 }, () => 'x'.repeat(9_990));
    expect(failedKeyword(validatePromptArguments({ xs }, undefined, schema))).toBe('ok');
  });

  it('answers patternProperties over a hostile key', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { o: { type: 'object', patternProperties: { '^(a|a)+$': { type: 'integer' } } } },
    };
    expect(validatePromptArguments({ o: { [`${'a'.repeat(n)}!`]: 'text' } }, undefined, schema).ok).toBe(true);
    expect(validatePromptArguments({ o: { aaa: 'text' } }, undefined, schema).ok).toBe(false);
  });

  it.each([
    [
      'an argument default',
      [{ name: 'x', pattern: '^(a|a)+$', default: `${'a'.repeat(n)}!` }],
      undefined,
      '/arguments/0/default',
    ],
    [
      'an items default (checked through ajv)',
      undefined,
      {
        type: 'object',
        properties: {
          xs: { type: 'array', items: { type: 'string', pattern: '^(a|a)+$' }, default: [`${'a'.repeat(n)}!`] },
        },
      },
      '/inputSchema/properties/xs/default',
    ],
  ] as [string, PromptArgumentDefinition[] | undefined, JsonSchema | undefined, string][])(
    'checks %s against its own pattern at registration',
    (_, args, schema, path) => {
      const error = thrownBy(() => new ArgumentValidatorCache().compile(args, schema).check());
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(error.data).toMatchObject({
        problems: [{ path, message: expect.stringContaining('must match pattern') }],
      });
    },
  );
});
