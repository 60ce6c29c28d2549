import { afterEach, describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';

function okArguments(result: ReturnType<typeof validatePromptArguments>): Record<string, unknown> {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.arguments;
}

afterEach(() => {
  // Belt and braces: a failing pollution test must not leak into the others.
  delete (Object.prototype as Record<string, unknown>)['polluted'];
});

describe('prototype pollution', () => {
  const paths: [string, PromptArgumentDefinition[]][] = [
    ['the fast path', [{ name: 'topic' }]],
    ['the ajv path', [{ name: 'topic', minLength: 1 }]],
  ];

  for (const [label, args] of paths) {
    it(`keeps a client's __proto__ key as plain data and never pollutes Object.prototype (${label})`, () => {
      const provided: unknown = JSON.parse('{"topic": "t", "__proto__": {"polluted": 1}}');
      const out = okArguments(validatePromptArguments(provided, args));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.getPrototypeOf(out)).toBeNull();
      expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
      expect(out['__proto__']).toEqual({ polluted: 1 });
      expect(out['polluted']).toBeUndefined();
    });

    it(`keeps constructor and prototype keys as plain data (${label})`, () => {
      const provided: unknown = JSON.parse('{"constructor": {"prototype": {"polluted": 1}}, "prototype": "p"}');
      const out = okArguments(validatePromptArguments(provided, args));
      expect(Object.keys(out).sort()).toEqual(['constructor', 'prototype']);
      expect(out['constructor']).toEqual({ prototype: { polluted: 1 } });
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  }

  it('does not pollute through a JSON object argument carrying __proto__', () => {
    const out = okArguments(
      validatePromptArguments({ o: '{"__proto__": {"polluted": 1}}' }, [{ name: 'o', type: 'object' }]),
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(out['o'] as object)).toEqual(['__proto__']);
  });

  it('does not treat inherited properties of the provided object as arguments', () => {
    const provided = Object.create({ topic: 'inherited' }) as Record<string, unknown>;
    const result = validatePromptArguments(provided, [{ name: 'topic', required: true }]);
    expect(result.ok).toBe(false);
  });

  for (const [label, extra] of paths) {
    it(`does not see Object.prototype members as given values for arguments named like them (${label})`, () => {
      const result = validatePromptArguments({}, [
        { name: 'toString', required: true },
        { name: 'hasOwnProperty', required: true },
        ...extra,
      ]);
      expect(result).toMatchObject({ ok: false, error: { data: { missing_arguments: ['toString', 'hasOwnProperty'] } } });
    });
  }

  for (const name of ['__proto__', 'constructor', 'prototype']) {
    it(`refuses to declare an argument or inputSchema property named ${name}`, () => {
      const cache = new ArgumentValidatorCache();
      const declared = cache.compile([{ name }], undefined);
      const properties = JSON.parse(`{"${name}": {"type": "integer"}}`) as Record<string, unknown>;
      const schema = cache.compile(undefined, { type: 'object', properties });
      for (const validator of [declared, schema]) {
        expect(() => validator.check()).toThrow(expect.objectContaining({ code: 'INVALID_PROMPT_DEFINITION' }));
        expect(() => validator.validate(JSON.parse(`{"${name}": "not a number"}`))).toThrow(/is reserved/);
      }
    });
  }
});

describe('the validated arguments object', () => {
  it('is a new null-prototype object', () => {
    const provided = { topic: 't' };
    const out = okArguments(validatePromptArguments(provided, [{ name: 'topic' }]));
    expect(out).not.toBe(provided);
    expect(Object.getPrototypeOf(out)).toBeNull();
  });

  it('never mutates the caller’s object, even when coercing and applying defaults', () => {
    const provided = Object.freeze({ n: '5', s: 7, gone: null, extra: 'e' });
    const snapshot = JSON.stringify(provided);
    const out = okArguments(
      validatePromptArguments(provided, [
        { name: 'n', type: 'integer' },
        { name: 's', type: 'string' },
        { name: 'gone', default: 'd' },
        { name: 'fill', default: 'f' },
      ]),
    );
    expect(JSON.stringify(provided)).toBe(snapshot);
    expect(out).toEqual({ n: 5, s: '7', gone: 'd', fill: 'f', extra: 'e' });
  });

  it('gives each call its own copy of an object default', () => {
    const validator = new ArgumentValidatorCache().compile([{ name: 'tags', type: 'array', default: ['a'] }], undefined);
    const first = okArguments(validator.validate({}));
    (first['tags'] as string[]).push('mutated');
    const second = okArguments(validator.validate({}));
    expect(second['tags']).toEqual(['a']);
  });
});

describe('bounded typed values', () => {
  const list: PromptArgumentDefinition[] = [{ name: 'xs', type: 'array' }];
  const detailOf = (result: ReturnType<typeof validatePromptArguments>): unknown =>
    result.ok ? undefined : (result.error.data as { details?: unknown[] }).details?.[0];

  it('refuses a value nested deeper than the depth limit, naming the argument and the limit', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const result = validatePromptArguments({ xs: deep }, list);
    expect(result.ok).toBe(false);
    expect(detailOf(result)).toEqual({ argument: 'xs', keyword: 'maxDepth', message: expect.stringContaining('64') });
    expect(validatePromptArguments({ xs: `${'['.repeat(64)}${']'.repeat(64)}` }, list).ok).toBe(true);
    expect(validatePromptArguments({ xs: '[[[]]]' }, list, undefined, { maxDepth: 2 }).ok).toBe(false);
  });

  it('refuses too many items before the schema runs (uniqueItems over 20,000 objects answers at once)', () => {
    const xs = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    const schema = { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } } as const;
    const result = validatePromptArguments({ xs }, undefined, schema);
    expect(detailOf(result)).toEqual({ argument: 'xs', keyword: 'maxItems', message: expect.stringContaining('10000') });
  });

  it('refuses a value over the byte limit', () => {
    const xs = Array.from({ length: 130 }, () => 'x'.repeat(9_000));
    const result = validatePromptArguments({ xs }, list);
    expect(detailOf(result)).toEqual({ argument: 'xs', keyword: 'maxBytes', message: expect.stringContaining('1048576') });
  });

  it('applies the string length limit to strings at every depth', () => {
    const result = validatePromptArguments({ xs: [{ s: 'x'.repeat(10_001) }] }, list);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.data).toMatchObject({ error_type: 'argument_too_long', argument: 'xs', limit: 10_000 });
  });

  it('refuses lone surrogates in string arguments and nested strings, naming the argument', () => {
    const top = validatePromptArguments({ topic: 'a\uD800b' }, [{ name: 'topic' }]);
    expect(detailOf(top)).toMatchObject({ argument: 'topic', keyword: 'wellFormed' });
    expect(detailOf(validatePromptArguments({ xs: ['ok', '\uDC00'] }, list))).toMatchObject({ argument: 'xs' });
    expect(validatePromptArguments({ topic: 'emoji 😀' }, [{ name: 'topic' }]).ok).toBe(true);
    const required = validatePromptArguments({ topic: '\uDFFF' }, [{ name: 'topic', required: true }]);
    expect(detailOf(required)).toMatchObject({ argument: 'topic', keyword: 'wellFormed' });
  });

  it('copies own data properties only: getters and toJSON of values passed from code are never called', () => {
    let calls = 0;
    const item = { a: 1, toJSON: () => (calls++, 'json') };
    Object.defineProperty(item, 'secret', { enumerable: true, get: () => (calls++, 'got') });
    const out = okArguments(validatePromptArguments({ xs: [item] }, list));
    expect(calls).toBe(0);
    expect(out['xs']).toEqual([{ a: 1 }]);
    expect(JSON.stringify(out['xs'])).toBe('[{"a":1}]');
  });
});
