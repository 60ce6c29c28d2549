import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import { PromptError } from '../../src/errors.js';
import type { JsonSchema } from '../../src/types.js';
import { argumentCases } from './cases.js';

describe('validatePromptArguments (shared case table)', () => {
  for (const row of argumentCases) {
    it(row.title, () => {
      const result = validatePromptArguments(row.provided, row.arguments, row.inputSchema, row.options);
      expect(result).toEqual(row.expected);
    });
  }
});

describe('ArgumentValidatorCache validators (shared case table)', () => {
  for (const row of argumentCases) {
    it(row.title, () => {
      const cache = new ArgumentValidatorCache();
      const validator = cache.compile(row.arguments, row.inputSchema, row.options);
      expect(validator.validate(row.provided)).toEqual(row.expected);
      // A second call gives the same answer (nothing left over from the first).
      expect(validator.validate(row.provided)).toEqual(row.expected);
      validator.release();
      expect(cache.size).toBe(0);
    });
  }
});

describe('the ajv-free fast path', () => {
  const fastRows = argumentCases.filter((row) => {
    if (row.inputSchema !== undefined || row.arguments === undefined) return false;
    const cache = new ArgumentValidatorCache();
    cache.compile(row.arguments, undefined, row.options).validate(row.provided);
    return cache.size === 0;
  });

  it('serves plain string declarations (name, required, type string, enum, maxLength, default) without ajv', () => {
    const cache = new ArgumentValidatorCache();
    const validator = cache.compile(
      [
        { name: 'code', required: true, type: 'string', maxLength: 100 },
        { name: 'language', enum: ['typescript', 'python'], default: 'python' },
      ],
      undefined,
    );
    expect(validator.validate({ code: 'x' })).toEqual({ ok: true, arguments: { code: 'x', language: 'python' } });
    expect(cache.size).toBe(0);
    expect(fastRows.length).toBeGreaterThan(20);
  });

  it('compiles an ajv schema once a declaration uses another keyword', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'code', minLength: 1 }], undefined).validate({ code: 'x' });
    expect(cache.size).toBe(1);
  });

  for (const row of fastRows) {
    it(`agrees with the ajv path: ${row.title}`, () => {
      const forced: PromptArgumentDefinition[] = [...(row.arguments ?? []), { name: 'force_ajv', minLength: 0 }];
      const cache = new ArgumentValidatorCache();
      const validator = cache.compile(forced, undefined, row.options);
      expect(validator.validate(row.provided)).toEqual(row.expected);
      expect(cache.size).toBe(1);
    });
  }
});

describe('numbers that are not finite', () => {
  it('rejects Infinity and NaN given as typed values for number and integer arguments', () => {
    const args: PromptArgumentDefinition[] = [
      { name: 'n', type: 'number' },
      { name: 'i', type: 'integer' },
      { name: 'x', type: 'number' },
    ];
    expect(validatePromptArguments({ n: Infinity, i: -Infinity, x: Number.NaN }, args)).toMatchObject({
      ok: false,
      error: {
        data: {
          details: [
            { argument: 'n', keyword: 'type', message: 'must be number' },
            { argument: 'i', keyword: 'type', message: 'must be integer' },
            { argument: 'x', keyword: 'type', message: 'must be number' },
          ],
        },
      },
    });
  });

  it('does not turn Infinity into text for a string argument', () => {
    expect(validatePromptArguments({ s: Infinity }, [{ name: 's' }])).toMatchObject({
      ok: false,
      error: { data: { details: [{ argument: 's', keyword: 'type', message: 'must be string' }] } },
    });
  });
});

describe('provided arguments that are not an object', () => {
  for (const [label, value] of [
    ['an array', ['a']],
    ['a string', 'topic=x'],
    ['a number', 42],
    ['a boolean', true],
  ] as const) {
    it(`throws INVALID_PARAMS for ${label}`, () => {
      let thrown: unknown;
      try {
        validatePromptArguments(value, [{ name: 'topic' }]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(PromptError);
      expect(thrown).toMatchObject({ code: 'INVALID_PARAMS', message: 'arguments must be an object', rpcCode: -32602 });
    });
  }
});

describe('inputSchema dialect', () => {
  it('evaluates 2020-12 keywords such as prefixItems and $defs references', () => {
    const schema: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { lang: { enum: ['typescript', 'python'] } },
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
        lang: { $ref: '#/$defs/lang' },
      },
    };
    expect(validatePromptArguments({ pair: '["a", 1]', lang: 'python' }, undefined, schema).ok).toBe(true);
    const result = validatePromptArguments({ pair: '["a", "b"]', lang: 'rust' }, undefined, schema);
    expect(result).toMatchObject({
      ok: false,
      error: {
        data: {
          details: [
            { argument: 'pair', keyword: 'type', message: '/1: must be integer' },
            { argument: 'lang', keyword: 'enum', message: 'must be one of: typescript, python' },
          ],
        },
      },
    });
  });

  it('keeps two prompts whose inputSchemas share an $id apart', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile(undefined, {
      $id: 'https://example.com/args',
      type: 'object',
      properties: { n: { type: 'integer' } },
    });
    const b = cache.compile(undefined, {
      $id: 'https://example.com/args',
      type: 'object',
      properties: { n: { type: 'string' } },
    });
    expect(a.validate({ n: '1' })).toMatchObject({ ok: true, arguments: { n: 1 } });
    expect(b.validate({ n: '1' })).toMatchObject({ ok: true, arguments: { n: '1' } });
    expect(cache.size).toBe(2);
  });

  it('reports a root-level problem with an empty argument name', () => {
    const result = validatePromptArguments({ a: 'x', b: 'y' }, undefined, { type: 'object', maxProperties: 1 });
    expect(result).toMatchObject({
      ok: false,
      error: {
        data: {
          details: [{ argument: '', keyword: 'maxProperties', message: 'must NOT have more than 1 properties' }],
        },
      },
    });
  });
});
