import { describe, expect, it } from 'vitest';
import {
  ArgumentValidatorCache,
  argumentFailureToPromptError,
  validatePromptArguments,
} from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import { PromptError } from '../../src/errors.js';
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

describe('seed 003 error details', () => {
  const args: PromptArgumentDefinition[] = [
    { name: 'name', required: true },
    { name: 'email', required: true },
  ];

  it('names the missing fields in the error data', () => {
    const result = validatePromptArguments({}, args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.data).toMatchObject({ missing_arguments: ['name', 'email'] });
  });

  it('returns an error object of exactly code, message and data', () => {
    const result = validatePromptArguments({ name: 'Ada' }, args);
    if (result.ok) throw new Error('expected a failure');
    expect(Object.keys(result.error).sort()).toEqual(['code', 'data', 'message']);
    expect(result.error.code).toBe(-32602);
    expect(Object.keys(result.error.data).sort()).toEqual(['missing_arguments', 'provided_count', 'required_count']);
  });

  it('maps each failure to the PromptError code of the error table, keeping message and data', () => {
    const missing = validatePromptArguments({}, args);
    const invalid = validatePromptArguments({ l: 'rust' }, [{ name: 'l', enum: ['go'] }]);
    const long = validatePromptArguments({ c: 'abc' }, [{ name: 'c', maxLength: 2 }]);
    const errors = [missing, invalid, long].map((r) => {
      if (r.ok) throw new Error('expected a failure');
      return { failure: r.error, error: argumentFailureToPromptError(r.error) };
    });
    expect(errors.map((e) => e.error.code)).toEqual([
      'PROMPT_ARGUMENT_MISSING',
      'PROMPT_ARGUMENT_INVALID',
      'PROMPT_ARGUMENT_TOO_LONG',
    ]);
    for (const { failure, error } of errors) {
      expect(error).toBeInstanceOf(PromptError);
      expect(error.toJsonRpcError()).toEqual({ code: -32602, message: failure.message, data: failure.data });
    }
    expect(errors[2]?.error.message).toBe("Argument 'c' exceeds 2 characters");
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
