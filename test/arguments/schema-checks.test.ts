import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { JsonSchema } from '../../src/types.js';
import type { PromptError } from '../../src/errors.js';
import { thrownBy } from '../support/errors.js';

/** The first problem an INVALID_PROMPT_DEFINITION error lists (the one its message names). */
function firstProblem(error: PromptError): unknown {
  return (error.data as { problems: unknown[] }).problems[0];
}

const bad = (a: Record<string, unknown>): PromptArgumentDefinition[] => [
  { name: 'ok' },
  { name: 'a', ...a } as PromptArgumentDefinition,
];

const rows: { title: string; args?: PromptArgumentDefinition[]; schema?: JsonSchema; path: string; message: RegExp }[] =
  [
    {
      title: "an unknown type ('strnig')",
      args: bad({ type: 'strnig' }),
      path: '/arguments/1/type',
      message: /must be one of: array, boolean/,
    },
    {
      title: 'an invalid regular expression pattern',
      args: bad({ pattern: '[' }),
      path: '/arguments/1/pattern',
      message: /Invalid regular expression/,
    },
    {
      title: 'a pattern with a lookahead (RE2 has none)',
      args: bad({ pattern: '(?=a)' }),
      path: '/arguments/1/pattern',
      message:
        /pattern '\(\?=a\)' uses a lookahead: patterns run on a linear-time engine \(RE2\), which has no lookarounds/,
    },
    {
      title: 'a pattern with a backreference deep in an inputSchema',
      schema: {
        type: 'object',
        properties: { o: { type: 'array', items: { type: 'string', pattern: '^(\\w)\\1$' } } },
      },
      path: '/inputSchema/properties/o/items/pattern',
      message: /uses a backreference \(\\1\)/,
    },
    {
      title: 'a patternProperties key with a lookbehind',
      schema: { type: 'object', properties: { o: { type: 'object', patternProperties: { '(?<!x)y': {} } } } },
      path: '/inputSchema/properties/o/patternProperties/(?<!x)y',
      message: /uses a lookbehind/,
    },
    {
      title: 'a propertyNames pattern repeating more than RE2 allows',
      schema: {
        type: 'object',
        properties: { o: { type: 'object', propertyNames: { pattern: '^(?:a{100}){100}$' } } },
      },
      path: '/inputSchema/properties/o/propertyNames/pattern',
      message: /repeats more than 1000 times in all/,
    },
    {
      title: 'an unknown format',
      args: bad({ format: 'emial' }),
      path: '/arguments/1/format',
      message: /unknown format "emial"/,
    },
    {
      title: 'a negative maxLength',
      args: bad({ type: 'integer', maxLength: -1 }),
      path: '/arguments/1/maxLength',
      message: /must be >= 0/,
    },
    {
      title: 'a duplicate argument name',
      args: [{ name: 'a' }, { name: 'a' }],
      path: '/arguments/1/name',
      message: /duplicate argument name 'a'/,
    },
    {
      title: 'an argument without a name',
      args: [{ required: true } as unknown as PromptArgumentDefinition],
      path: '/arguments/0/name',
      message: /non-empty string/,
    },
    {
      title: 'an inputSchema with an unknown type',
      schema: { type: 'object', properties: { a: { type: 'strnig' } } },
      path: '/inputSchema/properties/a/type',
      message: /must be one of/,
    },
    {
      title: 'an inputSchema with an invalid pattern',
      schema: { type: 'object', properties: { a: { pattern: '(' } } },
      path: '/inputSchema/properties/a/pattern',
      message: /Invalid regular expression/,
    },
    {
      title: 'an inputSchema for something other than an object',
      schema: { type: 'string' },
      path: '/inputSchema/type',
      message: /must be 'object'/,
    },
    {
      title: 'an inputSchema whose required is not a string array',
      schema: { type: 'object', required: 'a' },
      path: '/inputSchema/required',
      message: /array of strings/,
    },
    {
      title: 'an inputSchema with an unresolvable $ref',
      schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
      path: '/inputSchema/properties/a/$ref',
      message: /can't resolve reference/,
    },
    {
      title: 'an inputSchema whose $ref leads back to itself',
      schema: {
        type: 'object',
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
        properties: { x: { $ref: '#/$defs/a' } },
      },
      path: '/inputSchema/properties/x/$ref',
      message: /reference cycle/,
    },
    {
      title: 'an unknown $schema dialect',
      schema: { $schema: 'https://example.com/my-dialect', type: 'object' },
      path: '/inputSchema/$schema',
      message: /example\.com\/my-dialect/,
    },
    {
      title: 'an unknown format nested in an inputSchema',
      schema: { type: 'object', properties: { o: { type: 'object', properties: { d: { format: 'dayte' } } } } },
      path: '/inputSchema/properties/o/properties/d/format',
      message: /unknown format "dayte"/,
    },
    // reserved property names (ajv silently drops a `__proto__` property: it would never be validated)
    {
      title: "an inputSchema property named '__proto__'",
      schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}}}') as JsonSchema,
      path: '/inputSchema/properties/__proto__',
      message: /'__proto__' is reserved/,
    },
    {
      title: "an inputSchema property named 'constructor'",
      schema: { type: 'object', properties: { constructor: { type: 'string' } } },
      path: '/inputSchema/properties/constructor',
      message: /'constructor' is reserved/,
    },
    {
      title: "an inputSchema requiring 'prototype' without declaring it",
      schema: { type: 'object', required: ['prototype'] },
      path: '/inputSchema/required/0',
      message: /'prototype' is required but not declared/,
    },
    {
      title: "a nested inputSchema property named '__proto__'",
      schema: JSON.parse(
        '{"type":"object","properties":{"o":{"type":"object","properties":{"__proto__":{"type":"integer"}}}}}',
      ) as JsonSchema,
      path: '/inputSchema/properties/o/properties/__proto__',
      message: /'__proto__' is reserved/,
    },
    {
      title: "an argument named '__proto__'",
      args: [{ name: '__proto__' }],
      path: '/arguments/0/name',
      message: /'__proto__' is reserved/,
    },
    {
      title: "an argument named 'prototype'",
      args: bad({}).map((a, i) => (i === 1 ? { ...a, name: 'prototype' } : a)),
      path: '/arguments/1/name',
      message: /'prototype' is reserved/,
    },
    // the argument name rule holds for declarations given in code too
    {
      title: 'an argument name with a Hangul filler',
      args: bad({}).map((a, i) => (i === 1 ? { ...a, name: 'x\u3164' } : a)),
      path: '/arguments/1/name',
      message: /must not contain invisible characters/,
    },
    {
      title: 'argument names equal after NFC',
      args: [{ name: 'caf\u00e9' }, { name: 'cafe\u0301' }],
      path: '/arguments/1/name',
      message: /duplicate argument name 'cafe\u0301' \(first declared at \/arguments\/0, as 'caf\u00e9'/,
    },
    {
      title: 'an inputSchema property name with a lone surrogate',
      schema: { type: 'object', properties: { 'a\ud800': { type: 'string' } } },
      path: '/inputSchema/properties/a\ud800',
      message: /lone surrogate/,
    },
    // defaults that do not satisfy their own property schema
    {
      title: 'a default of the wrong type',
      args: bad({ type: 'integer', default: 'ten' }),
      path: '/arguments/1/default',
      message: /default value must be integer/,
    },
    {
      title: 'a default outside the enum',
      args: bad({ enum: ['a', 'b'], default: 'c' }),
      path: '/arguments/1/default',
      message: /default value must be one of: a, b/,
    },
    {
      title: 'a default below the minimum',
      args: bad({ type: 'number', minimum: 0, default: -1 }),
      path: '/arguments/1/default',
      message: /default value must be >= 0/,
    },
    {
      title: 'a default longer than the declared maxLength',
      args: bad({ maxLength: 3, default: 'abcd' }),
      path: '/arguments/1/default',
      message: /default value must NOT have more than 3 characters/,
    },
    {
      title: 'a default that does not match the pattern',
      args: bad({ pattern: '^[a-z]+$', default: 'ABC' }),
      path: '/arguments/1/default',
      message: /default value must match pattern/,
    },
    {
      title: 'a non-string default for an argument that declares no type',
      args: bad({ default: 5 }),
      path: '/arguments/1/default',
      message: /default value must be string/,
    },
    {
      title: 'an inputSchema property default that breaks its schema',
      schema: { type: 'object', properties: { tone: { enum: ['calm', 'firm'], default: 'loud' } } },
      path: '/inputSchema/properties/tone/default',
      message: /default value must be one of: calm, firm/,
    },
    {
      title: 'a default whose items break the items schema',
      schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a', 2] } } },
      path: '/inputSchema/properties/tags/default',
      message: /default value at \/1 must be string/,
    },
    // defaults a request could not carry (the request checks never see them: every get leaving them out would fail)
    {
      title: 'a default with a lone surrogate',
      args: bad({ default: 'a\uD800b' }),
      path: '/arguments/1/default',
      message: /default value must be well-formed Unicode text \(it contains a lone surrogate\)/,
    },
    {
      title: 'an array default with a lone surrogate in an item',
      args: bad({ type: 'array', default: ['ok', '\uDC00'] }),
      path: '/arguments/1/default',
      message: /default value must be well-formed Unicode text/,
    },
    {
      title: 'an object default with a lone surrogate in a nested key',
      schema: { type: 'object', properties: { o: { type: 'object', default: { a: [{ 'k\uD800': 1 }] } } } },
      path: '/inputSchema/properties/o/default',
      message: /default value must be well-formed Unicode text/,
    },
    {
      title: 'an array default over the item limit of a request',
      schema: {
        type: 'object',
        properties: {
          xs: {
            type: 'array',
            items: { type: 'string', pattern: '^a+$' },
            default: Array.from({ length: 100_000 }, () => 'a'),
          },
        },
      },
      path: '/inputSchema/properties/xs/default',
      message: /default value holds more than 10000 items/,
    },
    {
      title: 'a default nested deeper than the depth limit',
      args: bad({ type: 'array', default: JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) as unknown[] }),
      path: '/arguments/1/default',
      message: /default value nests deeper than 64 levels \(limit maxDepth\)/,
    },
    {
      title: 'a default with a property name over the length limit',
      schema: { type: 'object', properties: { o: { type: 'object', default: { a: { ['k'.repeat(10_001)]: 1 } } } } },
      path: '/inputSchema/properties/o/default',
      message: /default value at \/a: has a property name longer than 10000 characters/,
    },
    {
      title: 'a default that breaks the schema its $ref points to',
      schema: {
        type: 'object',
        $defs: { n: { type: 'integer', minimum: 0 } },
        properties: { n: { $ref: '#/$defs/n', default: -1 } },
      },
      path: '/inputSchema/properties/n/default',
      message: /default value must be >= 0/,
    },
  ];

function problemOf(error: PromptError): { path: string; message: string } {
  return (error.data as { problems: { path: string; message: string }[] }).problems[0] as {
    path: string;
    message: string;
  };
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...extra,
});

describe('an invalid argument schema', () => {
  for (const row of rows) {
    it(`throws INVALID_PROMPT_DEFINITION naming the location for ${row.title}`, () => {
      const error = thrownBy(() => validatePromptArguments({}, row.args, row.schema));
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(error.message).toMatch(row.message);
      expect(firstProblem(error)).toMatchObject({ path: row.path });
    });

    it(`is caught by check() at registration for ${row.title}`, () => {
      const validator = new ArgumentValidatorCache().compile(row.args, row.schema);
      const error = thrownBy(() => validator.check());
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(error.message).toMatch(row.message);
      expect(firstProblem(error)).toMatchObject({ path: row.path });
      // The same remembered error from validate(), without compiling.
      expect(thrownBy(() => validator.validate({}))).toBe(error);
    });
  }

  it('lists every problem of a schema, each with its JSON pointer', () => {
    const error = thrownBy(() =>
      new ArgumentValidatorCache()
        .compile(undefined, {
          type: 'object',
          properties: { a: { type: 'integer', default: 'x' }, b: { type: 'string', default: 1 }, c: { default: 1 } },
        })
        .check(),
    );
    expect(error.message).toMatch(
      /\/inputSchema\/properties\/a\/default: default value must be integer \(and 1 more\)/,
    );
    expect(error.data).toEqual({
      problems: [
        { path: '/inputSchema/properties/a/default', message: 'default value must be integer' },
        { path: '/inputSchema/properties/b/default', message: 'default value must be string' },
      ],
    });
  });

  it('accepts defaults that satisfy their property schemas, simple or not', () => {
    const validator = new ArgumentValidatorCache().compile(
      [
        { name: 'n', type: 'integer', minimum: 0, default: 0 },
        { name: 'mode', enum: ['fast', 'slow'], default: 'slow' },
        { name: 'tags', type: 'array', items: { type: 'string' }, default: ['a'] },
        { name: 'when', format: 'date', default: '2025-01-31' },
        { name: 'note', maxLength: 4, default: '😀😀😀😀' },
        { name: 'gone', type: 'integer', default: null as unknown as number },
      ],
      undefined,
    );
    expect(() => validator.check()).not.toThrow();
    expect(validator.validate({})).toEqual({
      ok: true,
      arguments: { n: 0, mode: 'slow', tags: ['a'], when: '2025-01-31', note: '😀😀😀😀' },
    });
  });

  it('rejects defaults whose pattern checks alone take more than maxPatternWork, which every get leaving them out would pay', () => {
    const items = { type: 'string', pattern: '^a+$' };
    const schema = object({
      xs: { type: 'array', items, default: Array.from({ length: 100 }, () => 'a'.repeat(100)) },
    });
    const cache = new ArgumentValidatorCache();
    const tight = thrownBy(() => cache.compile(undefined, schema, { maxPatternWork: 5_000 }).check());
    expect(firstProblem(tight)).toEqual({
      path: '/inputSchema/properties/xs/default',
      message: expect.stringMatching(/more than 5000 steps of pattern matching \(limit maxPatternWork/),
    });
    const text = [{ name: 's', pattern: '^a+$', default: 'a'.repeat(5_000) }];
    expect(
      firstProblem(thrownBy(() => cache.compile(text, undefined, { maxPatternWork: 1_000 }).check())),
    ).toMatchObject({ path: '/arguments/0/default' });
    expect(thrownBy(() => validatePromptArguments({}, undefined, schema, { maxPatternWork: 5_000 })).code).toBe(
      'INVALID_PROMPT_DEFINITION',
    );
    // The same schema shared under the default limit: registered, and a get leaving the default out succeeds.
    const roomy = cache.compile(undefined, schema);
    expect(() => roomy.check()).not.toThrow();
    expect(roomy.validate({}).ok).toBe(true);
  });

  it('is a server fault: a client only ever sees -32603 with a generic message', () => {
    const error = thrownBy(() => validatePromptArguments({ a: 'x' }, bad({ type: 'strnig' })));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(error.httpStatus).toBe(500);
  });

  it('throws the same remembered error on every call without recompiling', () => {
    const cache = new ArgumentValidatorCache();
    const validator = cache.compile(bad({ pattern: '[' }), undefined);
    const first = thrownBy(() => validator.validate({}));
    const second = thrownBy(() => validator.validate({}));
    expect(second).toBe(first);
  });

  it('leaves nothing behind in the cache or ajv', () => {
    const cache = new ArgumentValidatorCache();
    const good = cache.compile([{ name: 'n', minimum: 0 }], undefined);
    good.validate({});
    expect(cache.stats().pinned).toBe(1);
    for (const args of [bad({ pattern: '[' }), bad({ format: 'emial' }), bad({ type: 'strnig' })]) {
      thrownBy(() => cache.compile(args, undefined).validate({}));
    }
    expect(cache.size).toBe(1);
    expect(cache.stats().pinned).toBe(1);
  });

  it('rejects an invalid options.maxLength', () => {
    const error = thrownBy(() => validatePromptArguments({}, [{ name: 'a' }], undefined, { maxLength: -5 }));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it('rejects a cyclic inputSchema', () => {
    const schema: JsonSchema = { type: 'object', properties: {} };
    (schema['properties'] as Record<string, unknown>)['self'] = schema;
    const error = thrownBy(() => new ArgumentValidatorCache().compile(undefined, schema).validate({}));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toMatch(/cycle/);
  });
});

describe('check() rejects references that cannot resolve locally', () => {
  const defs = { $defs: { x: { type: 'string', $anchor: 'ex' } } };
  const cases: { title: string; schema: JsonSchema; path: string; message: RegExp }[] = [
    {
      title: 'an absolute URI',
      schema: object({ a: { $ref: 'https://example.com/s.json' } }, defs),
      path: '/inputSchema/properties/a/$ref',
      message: /external reference .* not supported/,
    },
    {
      title: 'a relative file',
      schema: object({ a: { $ref: 'other.json' } }, defs),
      path: '/inputSchema/properties/a/$ref',
      message: /external reference other\.json/,
    },
    {
      title: 'an unknown anchor',
      schema: object({ a: { $ref: '#nope' } }, defs),
      path: '/inputSchema/properties/a/$ref',
      message: /can't resolve reference #nope/,
    },
    {
      title: 'an unknown $dynamicRef anchor',
      schema: object({ a: { $dynamicRef: '#nope' } }, defs),
      path: '/inputSchema/properties/a/$dynamicRef',
      message: /can't resolve/,
    },
    {
      title: 'a pointer into an embedded resource that is not there',
      schema: object({ a: { $ref: 'sub.json#/$defs/none' } }, { $defs: { s: { $id: 'sub.json', $defs: {} } } }),
      path: '/inputSchema/properties/a/$ref',
      message: /can't resolve/,
    },
    {
      title: 'a $ref next to a nested $id (ajv overflows its stack)',
      schema: object({ a: { $id: 'https://x.test/a', $defs: { n: { type: 'integer' } }, $ref: '#/$defs/n' } }),
      path: '/inputSchema/properties/a/$ref',
      message: /nested \$id/,
    },
    {
      title: 'the empty reference (the whole schema, which ajv resolves only as "#")',
      schema: object({ a: { $ref: '' } }),
      path: '/inputSchema/properties/a/$ref',
      message: /names the whole schema.*write "#"/,
    },
    {
      title: 'an empty $dynamicRef',
      schema: object({ a: { $dynamicRef: '' } }),
      path: '/inputSchema/properties/a/$dynamicRef',
      message: /names the whole schema/,
    },
    {
      title: 'the document $id as a reference',
      schema: object({ a: { $ref: 'https://x.test/root' } }, { $id: 'https://x.test/root' }),
      path: '/inputSchema/properties/a/$ref',
      message: /names the whole schema/,
    },
    {
      title: '"#/", read as the root by ajv and as the property "" by JSON Pointer',
      schema: object({ a: { $ref: '#/' } }, { '': { type: 'integer' } }),
      path: '/inputSchema/properties/a/$ref',
      message: /read two ways/,
    },
    {
      title: 'a relative reference in a schema without $id (no base URI)',
      schema: object({ a: { $ref: './#/$defs/x' } }, defs),
      path: '/inputSchema/properties/a/$ref',
      message: /external reference/,
    },
    {
      title: 'a pointer to a value that is not a schema (the required list)',
      schema: object({ a: { $ref: '#/required' } }, { required: ['a'] }),
      path: '/inputSchema/properties/a/$ref',
      message: /reference #\/required leads to an array, not a schema/,
    },
    {
      title: 'a chain of references ending at a string',
      schema: object({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { $ref: '#/title' } }, title: 't' }),
      path: '/inputSchema/properties/a/$ref',
      message: /reference #\/title leads to a string, not a schema/,
    },
    {
      title: 'two nested resources with one $id (ajv cannot compile it)',
      schema: object({ a: { $id: 'x', type: 'integer' }, b: { $id: 'x', type: 'string' } }),
      path: '/inputSchema/properties/a/$id',
      message: /ajv cannot resolve it: reference .* resolves to more than one schema/,
    },
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
      object(
        { a: { $ref: 'sub.json#k' } },
        { $defs: { s: { $id: 'sub.json', $defs: { n: { $anchor: 'k', type: 'integer' } } } } },
      ),
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

describe('argument schemas the library could not handle safely', () => {
  const nested = (depth: number): JsonSchema => {
    let node: JsonSchema = { type: 'string' };
    for (let i = 0; i < depth; i++) node = { not: node };
    return node;
  };

  for (const depth of [1_000, 5_000]) {
    it(`reports a ${depth}-deep schema as a located definition error, not a stack overflow`, () => {
      const error = thrownBy(() =>
        validatePromptArguments({}, undefined, { type: 'object', properties: { a: nested(depth) } }),
      );
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(firstProblem(error)).toMatchObject({
        path: expect.stringMatching(/^\/inputSchema\/properties\/a\/not\/not/),
        message: /nests deeper than 256 levels/,
      });
    });
  }

  it("resolves $ref '#' (recursion to the root) instead of failing every request", () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { tree: { type: 'object', properties: { child: { $ref: '#' } } } },
    };
    expect(validatePromptArguments({ tree: '{"child":{"tree":{}}}' }, undefined, schema).ok).toBe(true);
    expect(validatePromptArguments({ tree: '{"child":{"tree":1}}' }, undefined, schema).ok).toBe(false);
  });

  it('rejects a reference that leads back to itself without reaching data (60 self-references in an allOf)', () => {
    const allOf = Array.from({ length: 60 }, () => ({ $ref: '#/$defs/n' }));
    const schema: JsonSchema = { type: 'object', $defs: { n: { allOf } }, properties: { a: { $ref: '#/$defs/n' } } };
    const error = thrownBy(() => validatePromptArguments({ a: '1' }, undefined, schema));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(firstProblem(error)).toMatchObject({
      path: '/inputSchema/$defs/n/allOf/0/$ref',
      message: /infinite recursion/,
    });
  });

  it('rejects a required argument with a default, which would never be missing', () => {
    const declared = thrownBy(() => validatePromptArguments({}, [{ name: 'a', required: true, default: 'x' }]));
    expect(firstProblem(declared)).toMatchObject({
      path: '/arguments/0/default',
      message: /required argument cannot have a default/,
    });
    const schema = { type: 'object', properties: { a: { type: 'string', default: 'x' } }, required: ['a'] } as const;
    expect(firstProblem(thrownBy(() => validatePromptArguments({}, undefined, schema)))).toMatchObject({
      path: '/inputSchema/properties/a/default',
    });
  });

  it('rejects arguments declared only through a root allOf or $ref, saying why', () => {
    const viaAllOf = { type: 'object', allOf: [{ properties: { x: { type: 'string' } }, required: ['x'] }] } as const;
    expect(firstProblem(thrownBy(() => validatePromptArguments({}, undefined, viaAllOf)))).toMatchObject({
      path: '/inputSchema/allOf/0/properties/x',
      message:
        /root-level allOf cannot declare listed arguments: declare 'x' under properties \(only arguments declared there are listed in prompts\/list, coerced from text and usable in templates\)/,
    });
    const viaRef = { type: 'object', $ref: '#/$defs/a', $defs: { a: { properties: { x: {} } } } } as const;
    expect(firstProblem(thrownBy(() => validatePromptArguments({}, undefined, viaRef)))).toMatchObject({
      path: '/inputSchema/$ref',
    });
    const constraintOnly = {
      type: 'object',
      properties: { x: { type: 'string' } },
      allOf: [{ required: ['x'] }],
    } as const;
    expect(validatePromptArguments({ x: 'y' }, undefined, constraintOnly).ok).toBe(true);
  });
});

describe('registration work on an author schema is bounded', () => {
  /** The first problem of the definition error that registering (`check()`) `schema` throws. */
  const registrationProblem = (schema: JsonSchema): unknown => {
    const error = thrownBy(() => new ArgumentValidatorCache().compile(undefined, schema).check());
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    return firstProblem(error);
  };
  /** `d0` is `first`; each next definition applies the previous one twice through `keyword`. */
  const doubling = (keyword: 'allOf' | 'anyOf', levels: number, first: Record<string, unknown>): JsonSchema => {
    const $defs: Record<string, unknown> = { d0: first };
    for (let i = 1; i < levels; i++)
      $defs[`d${i}`] = { [keyword]: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    return { type: 'object', $defs, properties: { a: { $ref: `#/$defs/d${levels - 1}` } } };
  };

  for (const keyword of ['allOf', 'anyOf'] as const) {
    it(`rejects ${keyword} branches that reference the same schema level after level (2^120 subschemas in 8 KB)`, () => {
      const schema = doubling(keyword, 120, keyword === 'allOf' ? { type: 'integer' } : { enum: ['a', 1] });
      expect(JSON.stringify(schema).length).toBeLessThan(8_000);
      expect(registrationProblem(schema)).toMatchObject({
        path: '/inputSchema/$defs/d15',
        message: /references expand to more than 100000 subschemas/,
      });
    });
  }

  it('accepts a schema that references one definition from many places (a shared address)', () => {
    const schema = doubling('allOf', 12, { type: 'object', properties: { street: { type: 'string' } } });
    const validator = new ArgumentValidatorCache().compile(undefined, schema);
    expect(() => validator.check()).not.toThrow();
    expect(validator.validate({ a: { street: 'Main' } }).ok).toBe(true);
    expect(validator.validate({ a: { street: 1 } }).ok).toBe(false);
  });

  it('rejects a recursive reference whose branches read the same property (2^depth work per request)', () => {
    const branch = { properties: { x: { $ref: '#/$defs/d' } } };
    const schema: JsonSchema = {
      type: 'object',
      $defs: { d: { type: 'object', allOf: [branch, structuredClone(branch)] } },
      properties: { a: { $ref: '#/$defs/d' } },
    };
    expect(registrationProblem(schema)).toMatchObject({
      path: expect.stringMatching(/^\/inputSchema\/\$defs\/d/),
      message: /recursive references branch: two ways back into the recursion read the same part of a value/,
    });
  });

  it('accepts recursion whose branches read different properties or kinds of value (trees, JSON values, filters)', () => {
    const cases: [JsonSchema, unknown][] = [
      [
        {
          type: 'object',
          $defs: { t: { type: 'object', properties: { l: { $ref: '#/$defs/t' }, r: { $ref: '#/$defs/t' } } } },
          properties: { a: { $ref: '#/$defs/t' } },
        },
        { l: { r: {} } },
      ],
      [
        {
          type: 'object',
          $defs: {
            v: {
              anyOf: [
                { type: ['string', 'number', 'null'] },
                { type: 'array', items: { $ref: '#/$defs/v' } },
                { type: 'object', additionalProperties: { $ref: '#/$defs/v' } },
              ],
            },
          },
          properties: { a: { $ref: '#/$defs/v' } },
        },
        { x: [1, { y: 'z' }] },
      ],
      [
        {
          type: 'object',
          $defs: {
            f: {
              oneOf: [
                {
                  type: 'object',
                  properties: { and: { type: 'array', items: { $ref: '#/$defs/f' } } },
                  required: ['and'],
                },
                { type: 'object', properties: { not: { $ref: '#/$defs/f' } }, required: ['not'] },
              ],
            },
          },
          properties: { a: { $ref: '#/$defs/f' } },
        },
        { and: [{ not: { and: [] } }] },
      ],
    ];
    for (const [schema, value] of cases) {
      const validator = new ArgumentValidatorCache().compile(undefined, schema);
      expect(() => validator.check()).not.toThrow();
      expect(validator.validate({ a: value })).toMatchObject({ ok: true });
    }
  });

  it('stops following a long chain of references after its step budget (1,500 aliases)', () => {
    const $defs: Record<string, unknown> = { d1500: { type: 'string' } };
    for (let i = 0; i < 1_500; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    const problem = registrationProblem({ type: 'object', $defs, properties: { a: { $ref: '#/$defs/d0' } } });
    expect(problem).toMatchObject({
      path: expect.stringMatching(/^\/inputSchema\/\$defs\/d\d+\/\$ref$/),
      message: /too complex to check \(more than 1000000 steps/,
    });
  });

  it('checks 2,000 references into a web of definitions once per definition (each in-place loop found, no stall)', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++)
      $defs[`d${i}`] = {
        type: 'string',
        allOf: Array.from({ length: 10 }, (_, j) => ({ $ref: `#/$defs/d${(i + j + 1) % 200}` })),
      };
    const error = thrownBy(() =>
      new ArgumentValidatorCache()
        .compile(undefined, { type: 'object', $defs, properties: { a: { $ref: '#/$defs/d0' } } })
        .check(),
    );
    expect(firstProblem(error)).toMatchObject({
      path: '/inputSchema/$defs/d0/allOf/0/$ref',
      message: /infinite recursion/,
    });
    expect((error.data as { problems: unknown[] }).problems).toHaveLength(2_000);
  });

  it('stops inferring a type from a huge anyOf of enums after its step budget, naming the property', () => {
    const values = Array.from({ length: 300 }, (_, i) => i);
    const anyOf = Array.from({ length: 2_000 }, () => ({ $ref: '#/$defs/e' }));
    const problem = registrationProblem({
      type: 'object',
      $defs: { e: { enum: values } },
      properties: { a: { anyOf } },
    });
    expect(problem).toMatchObject({ path: '/inputSchema/properties/a', message: /too complex to infer its type from/ });
  });

  // Inlined into each of its 300 references, the definition's code overflowed the stack on the first request (after
  // 28 s and 2.5 GB); compiled once, it is a function each reference calls.
  it('compiles a definition referenced from 300 places once, so the first request answers', () => {
    const big = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`q${i}`, { type: 'string', maxLength: 3 }]),
      ),
    };
    const properties = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { $ref: '#/$defs/big' }]));
    const validator = new ArgumentValidatorCache().compile(undefined, { type: 'object', properties, $defs: { big } });
    validator.check();
    expect(validator.validate({ p1: '{"q0":"abc"}' }).ok).toBe(true);
    expect(validator.validate({ p1: '{"q0":"abcd"}' }).ok).toBe(false);
  });

  it('rejects at registration a schema too large to compile on the first request, saying where', () => {
    const props = (n: number, schema: unknown): Record<string, unknown> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, schema]));
    expect(
      registrationProblem({ type: 'object', properties: { o: { type: 'object', properties: props(1_001, {}) } } }),
    ).toEqual({
      path: '/inputSchema/properties/o/properties',
      message: 'declares more than 1000 properties',
    });
    const tooMuch = {
      type: 'object',
      properties: props(3, { type: 'object', properties: props(900, { type: 'string' }) }),
    };
    expect(registrationProblem(tooMuch)).toEqual({
      path: '/inputSchema',
      message:
        "is too large to compile: more than 2500 keywords in all (each subschema's, a referenced one counted once)",
    });
    // A definition counts once however many references lead to it; one nobody references costs nothing.
    const shared = {
      type: 'object',
      properties: props(100, { $ref: '#/$defs/d' }),
      $defs: { d: { type: 'object', properties: props(800, { type: 'string' }) }, unused: tooMuch },
    };
    expect(() => new ArgumentValidatorCache().compile(undefined, shared).check()).not.toThrow();
    // ajv writes a dependency list into the code of each of its names.
    const names = Array.from({ length: 5_000 }, (_, i) => `name${i}`);
    expect(
      registrationProblem({ type: 'object', properties: { o: { type: 'object', dependentRequired: { a: names } } } }),
    ).toMatchObject({ path: '/inputSchema', message: /too large to compile/ });
  });

  it('rejects a chain of 300 references, each into the next, that would overflow the stack on the first request', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++)
      $defs[`d${i}`] =
        i === 299 ? { type: 'string' } : { type: 'object', properties: { b: { $ref: `#/$defs/d${i + 1}` } } };
    expect(registrationProblem({ type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs })).toMatchObject({
      path: expect.stringMatching(/^\/inputSchema\/\$defs\/d\d+/),
      message: /nests deeper than 256 levels with its references followed/,
    });
    for (let i = 100; i < 300; i++) delete $defs[`d${i}`];
    $defs['d99'] = { type: 'string' };
    const validator = new ArgumentValidatorCache().compile(undefined, {
      type: 'object',
      properties: { a: { $ref: '#/$defs/d0' } },
      $defs,
    });
    expect(() => validator.check()).not.toThrow();
    expect(validator.validate({ a: { b: { b: 1 } } }).ok).toBe(false);
  });

  it('counts a shared object each time it appears: 40 levels of {allOf: [x, x]} are a located error, not a hang', () => {
    let node: JsonSchema = { type: 'string' };
    for (let i = 0; i < 40; i++) node = { allOf: [node, node] };
    const error = thrownBy(() => validatePromptArguments({}, undefined, { type: 'object', properties: { a: node } }));
    expect(firstProblem(error)).toMatchObject({
      path: expect.stringMatching(/^\/inputSchema\/properties\/a\/allOf\/[01]\//),
      message: /more than 100000 objects and arrays/,
    });
  });
});
