import { describe, expect, it } from 'vitest';
import {
  ArgumentValidatorCache,
  argumentFailureToPromptError,
  validatePromptArguments,
} from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { SchemaValidationData } from '../../src/arguments/index.js';
import { PromptError } from '../../src/errors.js';
import type { JsonSchema } from '../../src/types.js';
import { thrownBy } from '../support/errors.js';
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

describe('error details of argument failures', () => {
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

function problemOf(error: PromptError): { path: string; message: string } {
  return (error.data as { problems: { path: string; message: string }[] }).problems[0] as { path: string; message: string };
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...extra,
});

describe('schema failures stay small', () => {
  const values = Array.from({ length: 100 }, (_, i) => `option-value-${i}`);
  const args = [{ name: 'tags', type: 'array', items: { enum: values } }] as unknown as PromptArgumentDefinition[];

  it('lists at most 20 details, counts the rest, and shortens long enum lists', () => {
    const wire = `[${Array(3333).fill('1').join(',')}]`;
    const result = validatePromptArguments({ tags: wire }, args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const data = result.error.data as SchemaValidationData;
    expect(data.details).toHaveLength(20);
    expect(data.truncated).toBe(true);
    expect(data.total_errors).toBe(3333);
    expect(data.details[0]?.message).toBe(`/0: must be one of: ${values.slice(0, 10).join(', ')}, …`);
    expect(JSON.stringify(result).length).toBeLessThan(10_000);
  });

  it('reports neither truncated nor total_errors when every problem is listed', () => {
    const result = validatePromptArguments({ tags: '[1, "option-value-3"]' }, args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const data = result.error.data as SchemaValidationData;
    expect(data.details).toHaveLength(1);
    expect('truncated' in data).toBe(false);
    expect('total_errors' in data).toBe(false);
  });

  it('caps the details of the ajv-free path too (many undeclared arguments in reject mode)', () => {
    const given = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${i}`, 'v']));
    const result = validatePromptArguments(given, [{ name: 'a' }], undefined, { extraArguments: 'reject' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const data = result.error.data as SchemaValidationData;
    expect(data.details).toHaveLength(20);
    expect(data.total_errors).toBe(50);
  });
});

describe('check() rejects references that cannot resolve locally', () => {
  const defs = { $defs: { x: { type: 'string', $anchor: 'ex' } } };
  const cases: { title: string; schema: JsonSchema; path: string; message: RegExp }[] = [
    { title: 'an absolute URI', schema: object({ a: { $ref: 'https://example.com/s.json' } }, defs), path: '/inputSchema/properties/a/$ref', message: /external reference .* not supported/ },
    { title: 'a relative file', schema: object({ a: { $ref: 'other.json' } }, defs), path: '/inputSchema/properties/a/$ref', message: /external reference other\.json/ },
    { title: 'an unknown anchor', schema: object({ a: { $ref: '#nope' } }, defs), path: '/inputSchema/properties/a/$ref', message: /can't resolve reference #nope/ },
    { title: 'an unknown $dynamicRef anchor', schema: object({ a: { $dynamicRef: '#nope' } }, defs), path: '/inputSchema/properties/a/$dynamicRef', message: /can't resolve/ },
    { title: 'a pointer into an embedded resource that is not there', schema: object({ a: { $ref: 'sub.json#/$defs/none' } }, { $defs: { s: { $id: 'sub.json', $defs: {} } } }), path: '/inputSchema/properties/a/$ref', message: /can't resolve/ },
    { title: 'a $ref next to a nested $id (ajv overflows its stack)', schema: object({ a: { $id: 'https://x.test/a', $defs: { n: { type: 'integer' } }, $ref: '#/$defs/n' } }), path: '/inputSchema/properties/a/$ref', message: /nested \$id/ },
  ];
  for (const c of cases) {
    it(`rejects ${c.title} with the pointer of the reference`, () => {
      const validator = new ArgumentValidatorCache().compile(undefined, c.schema);
      const error = thrownBy(() => validator.check());
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(problemOf(error).path).toBe(c.path);
      expect(problemOf(error).message).toMatch(c.message);
    });
  }

  it('accepts anchors, embedded resources and the document $id', () => {
    const schemas: JsonSchema[] = [
      object({ a: { $ref: '#ex' } }, defs),
      object({ a: { $ref: 'sub.json#k' } }, { $defs: { s: { $id: 'sub.json', $defs: { n: { $anchor: 'k', type: 'integer' } } } } }),
      object({ a: { $ref: 'https://x.test/root#/$defs/x' } }, { $id: 'https://x.test/root', ...defs }),
      object({ a: { $id: 'https://x.test/a', $defs: { n: { type: 'integer' } }, allOf: [{ $ref: '#/$defs/n' }] } }),
    ];
    for (const schema of schemas) {
      const validator = new ArgumentValidatorCache().compile(undefined, schema);
      expect(() => validator.check()).not.toThrow();
      expect(validator.validate({ a: 'x' }).ok).toBe(schema === schemas[0] || schema === schemas[2]);
    }
  });
});

describe('coercion reads the values beside a type', () => {
  const rows: { title: string; property: unknown; wire: string; expected: unknown }[] = [
    { title: 'an anyOf of a string enum and an integer', property: { anyOf: [{ type: 'string', enum: ['auto'] }, { type: 'integer' }] }, wire: '5', expected: 5 },
    { title: 'a string|integer type with an enum', property: { type: ['string', 'integer'], enum: ['auto', 5] }, wire: '5', expected: 5 },
    { title: 'the string of such an enum', property: { type: ['string', 'integer'], enum: ['auto', 5] }, wire: 'auto', expected: 'auto' },
    { title: 'an integer|string type with a const', property: { type: ['integer', 'string'], const: 1 }, wire: '1', expected: 1 },
    { title: 'a mixed enum with an object value', property: { enum: ['a', { x: 1 }] }, wire: '{"x":1}', expected: { x: 1 } },
  ];
  for (const r of rows) {
    it(`accepts the wire text of ${r.title}`, () => {
      const result = validatePromptArguments({ n: r.wire }, undefined, object({ n: r.property }));
      expect(result).toEqual({ ok: true, arguments: { n: r.expected } });
    });
  }

  it('follows $anchor references and nested $id bases', () => {
    const anchored = object({ a: { $ref: '#int' } }, { $defs: { i: { $anchor: 'int', type: 'integer' } } });
    expect(validatePromptArguments({ a: '5' }, undefined, anchored)).toEqual({ ok: true, arguments: { a: 5 } });
    const nested = object(
      { a: { $ref: '#/$defs/sub' } },
      { $defs: { n: { type: 'string' }, sub: { $id: 'https://example.com/sub', $defs: { n: { type: 'integer' } }, allOf: [{ $ref: '#/$defs/n' }] } } },
    );
    expect(validatePromptArguments({ a: '5' }, undefined, nested)).toEqual({ ok: true, arguments: { a: 5 } });
  });
});

describe('cache keys keep non-JSON values apart', () => {
  it('rejects NaN and Infinity in a schema with their location, whatever was registered before', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile(undefined, object({ n: { type: 'number', default: null } })).check();
    cache.compile(undefined, object({ n: { const: null } })).check();
    const inf = thrownBy(() => cache.compile(undefined, object({ n: { type: 'number', default: Infinity } })).check());
    expect(problemOf(inf)).toEqual({ path: '/inputSchema/properties/n/default', message: 'must be a JSON value (got Infinity)' });
    const nan = thrownBy(() => cache.compile(undefined, object({ n: { const: NaN } })).check());
    expect(problemOf(nan).path).toBe('/inputSchema/properties/n/const');
  });

  it('does not let an undefined property share the check of a schema without it', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile(undefined, object({ b: { type: 'string' } })).check();
    const validator = cache.compile(undefined, object({ a: undefined, b: { type: 'string' } }));
    expect(thrownBy(() => validator.check()).code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it("does not let options.maxLength '5' share the plan of 5", () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'x', type: 'integer' }], undefined, { maxLength: 5 }).check();
    const validator = cache.compile([{ name: 'x', type: 'integer' }], undefined, { maxLength: '5' as unknown as number });
    expect(thrownBy(() => validator.check()).code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it('reads an options object again after it was changed', () => {
    const cache = new ArgumentValidatorCache();
    const options: { maxLength?: number } = { maxLength: 5 };
    cache.compile([{ name: 'x' }], undefined, options);
    options.maxLength = 50;
    expect(cache.compile([{ name: 'x' }], undefined, options).validate({ y: 'abcdefghij' }).ok).toBe(true);
  });
});

describe('a declared maxLength limits string arguments only', () => {
  it('does not apply maxLength to the wire text of an integer argument', () => {
    const schema = object({ n: { type: 'integer', maxLength: 2 } });
    expect(validatePromptArguments({ n: '123' }, undefined, schema)).toEqual({ ok: true, arguments: { n: 123 } });
  });

  it('still applies it to a string argument', () => {
    const result = validatePromptArguments({ s: 'abc' }, undefined, object({ s: { type: 'string', maxLength: 2 } }));
    expect(result.ok === false && result.error.message).toBe("Argument 's' exceeds 2 characters");
  });
});
