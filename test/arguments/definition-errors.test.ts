import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { JsonSchema } from '../../src/types.js';
import { PromptError } from '../../src/errors.js';

function thrownBy(fn: () => unknown): PromptError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PromptError) return error;
    throw error;
  }
  throw new Error('expected a PromptError');
}

const bad = (a: Record<string, unknown>): PromptArgumentDefinition[] => [
  { name: 'ok' },
  { name: 'a', ...a } as PromptArgumentDefinition,
];

const rows: { title: string; args?: PromptArgumentDefinition[]; schema?: JsonSchema; path: string; message: RegExp }[] = [
  { title: "an unknown type ('strnig')", args: bad({ type: 'strnig' }), path: '/arguments/1/type', message: /must be one of: array, boolean/ },
  { title: 'an invalid regular expression pattern', args: bad({ pattern: '[' }), path: '/arguments/1/pattern', message: /Invalid regular expression/ },
  { title: 'an unknown format', args: bad({ format: 'emial' }), path: '/arguments/1/format', message: /unknown format "emial"/ },
  { title: 'a negative maxLength', args: bad({ type: 'integer', maxLength: -1 }), path: '/arguments/1/maxLength', message: /must be >= 0/ },
  { title: 'a duplicate argument name', args: [{ name: 'a' }, { name: 'a' }], path: '/arguments/1/name', message: /duplicate argument name 'a'/ },
  { title: 'an argument without a name', args: [{ required: true } as unknown as PromptArgumentDefinition], path: '/arguments/0/name', message: /non-empty string/ },
  { title: 'an inputSchema with an unknown type', schema: { type: 'object', properties: { a: { type: 'strnig' } } }, path: '/inputSchema/properties/a/type', message: /must be one of/ },
  { title: 'an inputSchema with an invalid pattern', schema: { type: 'object', properties: { a: { pattern: '(' } } }, path: '/inputSchema/properties/a/pattern', message: /Invalid regular expression/ },
  { title: 'an inputSchema for something other than an object', schema: { type: 'string' }, path: '/inputSchema/type', message: /must be 'object'/ },
  { title: 'an inputSchema whose required is not a string array', schema: { type: 'object', required: 'a' }, path: '/inputSchema/required', message: /array of strings/ },
  { title: 'an inputSchema with an unresolvable $ref', schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, path: '/inputSchema', message: /can't resolve reference/ },
];

describe('an invalid argument schema', () => {
  for (const row of rows) {
    it(`throws INVALID_PROMPT_DEFINITION naming the location for ${row.title}`, () => {
      const error = thrownBy(() => validatePromptArguments({}, row.args, row.schema));
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(error.message).toMatch(row.message);
      expect(error.data).toMatchObject({ problems: [{ path: row.path }] });
    });
  }

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
    const ajv = (cache as unknown as { store: { ajvInstance: { _cache: Map<unknown, unknown> } } }).store.ajvInstance;
    const before = ajv._cache.size;
    for (const args of [bad({ pattern: '[' }), bad({ format: 'emial' }), bad({ type: 'strnig' })]) {
      thrownBy(() => cache.compile(args, undefined).validate({}));
    }
    expect(cache.size).toBe(1);
    expect(ajv._cache.size).toBe(before);
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

describe('inputSchema dialect', () => {
  it('evaluates 2020-12 keywords such as prefixItems and $defs references', () => {
    const schema: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { lang: { enum: ['typescript', 'python'] } },
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] }, lang: { $ref: '#/$defs/lang' } },
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
    const a = cache.compile(undefined, { $id: 'https://example.com/args', type: 'object', properties: { n: { type: 'integer' } } });
    const b = cache.compile(undefined, { $id: 'https://example.com/args', type: 'object', properties: { n: { type: 'string' } } });
    expect(a.validate({ n: '1' })).toMatchObject({ ok: true, arguments: { n: 1 } });
    expect(b.validate({ n: '1' })).toMatchObject({ ok: true, arguments: { n: '1' } });
    expect(cache.size).toBe(2);
  });

  it('reports a root-level problem with an empty argument name', () => {
    const result = validatePromptArguments({ a: 'x', b: 'y' }, undefined, { type: 'object', maxProperties: 1 });
    expect(result).toMatchObject({
      ok: false,
      error: { data: { details: [{ argument: '', keyword: 'maxProperties', message: 'must NOT have more than 1 properties' }] } },
    });
  });
});
