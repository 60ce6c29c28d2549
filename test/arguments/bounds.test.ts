import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { JsonSchema } from '../../src/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

function okArguments(result: ReturnType<typeof validatePromptArguments>): Record<string, unknown> {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.arguments;
}

const object = (properties: Record<string, unknown>): JsonSchema => ({ type: 'object', properties });

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
    expect(detailOf(result)).toEqual({
      argument: 'xs',
      keyword: 'maxItems',
      message: expect.stringContaining('10000'),
    });
  });

  it('refuses a value over the byte limit', () => {
    const xs = Array.from({ length: 130 }, () => 'x'.repeat(9_000));
    const result = validatePromptArguments({ xs }, list);
    expect(detailOf(result)).toEqual({
      argument: 'xs',
      keyword: 'maxBytes',
      message: expect.stringContaining('1048576'),
    });
  });

  it('applies the string length limit to strings at every depth', () => {
    const result = validatePromptArguments({ xs: [{ s: 'x'.repeat(10_001) }] }, list);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.data).toMatchObject({ error_type: 'argument_too_long', argument: 'xs', limit: 10_000 });
  });

  it('refuses lone surrogates in string arguments and nested strings, naming the argument', () => {
    const top = validatePromptArguments({ topic: 'a\uD800b' }, [{ name: 'topic' }]);
    expect(detailOf(top)).toMatchObject({ argument: 'topic', keyword: 'wellFormed' });
    expect(detailOf(validatePromptArguments({ xs: ['ok', '\uDC00'] }, list))).toMatchObject({ argument: 'xs' });
    expect(validatePromptArguments({ topic: 'emoji 😀' }, [{ name: 'topic' }]).ok).toBe(true);
    const required = validatePromptArguments({ topic: '\uDFFF' }, [{ name: 'topic', required: true }]);
    expect(detailOf(required)).toMatchObject({ argument: 'topic', keyword: 'wellFormed' });
  });

  it('keeps the reason of an argument refused before the schema runs when another argument fails the schema', () => {
    const result = validatePromptArguments({ topic: 'a\uD800', n: 'x' }, [
      { name: 'topic' },
      { name: 'n', type: 'integer' },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.data).toMatchObject({
        details: [
          { argument: 'topic', keyword: 'wellFormed' },
          { argument: 'n', keyword: 'type', message: 'must be integer' },
        ],
      });
    }
  });

  it('holds argument names and property names at every depth to the string limit, naming the argument and path', () => {
    const long = 'k'.repeat(200_000);
    const schema = object({ x: { type: 'object' } });
    // Undeclared argument names (inputSchema and declarations alike): the name, cut, is the argument.
    expect(detailOf(validatePromptArguments({ x: {}, [long]: 'v' }, undefined, schema))).toEqual({
      argument: `${'k'.repeat(128)}…`,
      keyword: 'maxLength',
      message: 'is an argument name longer than 10000 characters (limit maxLength)',
    });
    expect(detailOf(validatePromptArguments({ [long]: 'v' }, [{ name: 'topic' }]))).toMatchObject({
      keyword: 'maxLength',
    });
    // Keys inside typed values: the argument, and the pointer of the object holding the key.
    const nested = validatePromptArguments({ x: { a: [{ ok: 1 }, { [long]: 1 }] } }, undefined, schema);
    expect(detailOf(nested)).toEqual({
      argument: 'x',
      keyword: 'maxLength',
      message: '/a/1: has a property name longer than 10000 characters (limit maxLength)',
    });
    expect(detailOf(validatePromptArguments({ xs: [{ [long]: 1 }] }, list))).toMatchObject({
      argument: 'xs',
      message: /^\/0: has a property name/,
    });
    const atLimit = 'k'.repeat(10_000);
    expect(validatePromptArguments({ x: { [atLimit]: 1 } }, undefined, object({ x: { type: 'object' } })).ok).toBe(
      true,
    );
    expect(validatePromptArguments({ [atLimit]: 'v' }, [{ name: 'topic' }]).ok).toBe(true);
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

describe('limits per request, not per argument', () => {
  const detailsOf = (result: ReturnType<typeof validatePromptArguments>): unknown[] =>
    result.ok ? [] : ((result.error.data as { details?: unknown[] }).details ?? []);
  const keys = (n: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`e${i}`, 'v']));

  it('refuses a request carrying more than 1,000 argument keys, extras and nulls included', () => {
    const tooMany = detailsOf(validatePromptArguments({ ...keys(1_000), last: null }, [{ name: 'topic' }]));
    expect(tooMany).toEqual([
      { argument: '', keyword: 'maxArguments', message: 'has more than 1000 arguments (limit maxArguments)' },
    ]);
    const schema = object({ x: { type: 'string' } });
    expect(detailsOf(validatePromptArguments(keys(500_000), undefined, schema))).toMatchObject([
      { keyword: 'maxArguments' },
    ]);
    expect(validatePromptArguments(keys(1_000), undefined, schema).ok).toBe(true);
    expect(validatePromptArguments(keys(11), undefined, schema, { maxArguments: 10 }).ok).toBe(false);
  });

  it('counts the argument keys before any other work: no value of a request over the limit is read', () => {
    let reads = 0;
    const given: Record<string, unknown> = keys(1_001);
    Object.defineProperty(given, 'e0', { enumerable: true, get: () => (reads++, 'v') });
    const result = validatePromptArguments(given, [{ name: 'e0', type: 'integer' }]);
    expect(detailsOf(result)).toEqual([
      { argument: '', keyword: 'maxArguments', message: 'has more than 1000 arguments (limit maxArguments)' },
    ]);
    expect(reads).toBe(0);
    expect(result.ok === false && result.error.data).toMatchObject({ provided_count: 1_001 });
  });

  it('refuses at registration a prompt declaring more arguments than a request may carry', () => {
    const declared = Array.from({ length: 1_001 }, (_, i) => ({ name: `a${i}` }));
    const cache = new ArgumentValidatorCache();
    expect(() => cache.compile(declared, undefined).check()).toThrow(
      /\/arguments\/1000: declares more than 1000 arguments/,
    );
    const properties = Object.fromEntries(declared.map((d) => [d.name, { type: 'number' }]));
    expect(() => cache.compile(undefined, object(properties)).check()).toThrow(
      /\/inputSchema\/properties: declares more than 1000 arguments/,
    );
    expect(() => cache.compile(declared.slice(0, 3), undefined, { maxArguments: 2 }).check()).toThrow(/maxArguments/);
  });

  it('shares one item and byte budget among all array/object values of a request', () => {
    const schema = {
      type: 'object',
      properties: { x: { type: 'string' } },
      additionalProperties: { type: 'array', uniqueItems: true },
    } as const;
    const items = Array.from({ length: 6_000 }, (_, i) => `s${i}`);
    expect(validatePromptArguments({ a: items }, undefined, schema).ok).toBe(true);
    expect(detailsOf(validatePromptArguments({ a: items, b: items }, undefined, schema))).toEqual([
      {
        argument: 'b',
        keyword: 'maxItems',
        message: 'holds more than 10000 items (all array/object arguments of a request together; limit maxItems)',
      },
    ]);
    const big = Array.from({ length: 65 }, (_, i) => String(i).padEnd(9_000, 'x'));
    expect(detailsOf(validatePromptArguments({ a: big, b: big }, undefined, schema))).toMatchObject([
      { argument: 'b', keyword: 'maxBytes' },
    ]);
    // Wire text coerced to arrays counts too: five 2,400-item arrays of a few KB each.
    const names = ['a', 'b', 'c', 'd', 'e'];
    const declared: PromptArgumentDefinition[] = names.map((name) => ({ name, type: 'array' }));
    const wire = JSON.stringify(Array.from({ length: 2_400 }, () => 1));
    const fromText = Object.fromEntries(names.map((k) => [k, wire]));
    expect(detailsOf(validatePromptArguments(fromText, declared))).toMatchObject([{ keyword: 'maxItems' }]);
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

describe('formats on hostile text', () => {
  // Only ajv-formats' own formats are accepted (an unknown one is a definition error): each must stay linear.
  const formats = Object.keys(addFormats.default(new Ajv2020()).formats);
  // 100,000 characters: a linear check takes milliseconds, a backtracking one minutes or more.
  const n = 100_000;
  const hostile = [
    `${'a'.repeat(n - 1)}!`,
    `${'0'.repeat(n - 1)}x`,
    `${'1.'.repeat(n / 2 - 1)}!`,
    'a@'.repeat(n / 2),
    `${'a.'.repeat(n / 2 - 1)}-`,
    `${'::'.repeat(n / 2 - 1)}x`,
    `${'/'.repeat(n - 1)} `,
    `http://${'a'.repeat(n - 8)}\u0001`,
    `${'a'.repeat(n / 2)}@${'a.'.repeat(n / 4 - 1)}!`,
    `2020-01-01T${'0'.repeat(n - 11)}`,
  ];

  it.each(formats)('checks 100,000-character hostile text against format %s, answering each', (format) => {
    for (const text of hostile) {
      const result = validatePromptArguments({ x: text }, [{ name: 'x', format }], undefined, { maxLength: n });
      // Valid, or refused by the format itself.
      expect(
        result.ok ? 'ok' : (result.error.data as { details?: { keyword: string }[] }).details?.[0]?.keyword,
      ).toMatch(/^(ok|format)$/);
    }
  });
});
