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
      expect(Object.prototype.isPrototypeOf(out)).toBe(false);
      expect(Object.hasOwn(out, '__proto__')).toBe(true);
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

  for (const [label, args] of paths) {
    it(`reads each own property of the arguments object once, as a spread does, and never a getter inside a value (${label})`, () => {
      let calls = 0;
      const provided = {
        focus: 'data',
        nested: {
          get inner() {
            return ((calls += 100), 'x');
          },
        },
      };
      Object.defineProperty(provided, 'topic', { enumerable: true, get: () => (calls++, 'from a getter') });
      const result = okArguments(
        validatePromptArguments(provided, [...args, { name: 'focus' }, { name: 'nested', type: 'object' }]),
      );
      expect(result).toEqual({ topic: 'from a getter', focus: 'data', nested: {} });
      expect(calls).toBe(1);
    });
  }

  for (const [label, extra] of paths) {
    it(`does not see Object.prototype members as given values for arguments named like them (${label})`, () => {
      const result = validatePromptArguments({}, [
        { name: 'toString', required: true },
        { name: 'hasOwnProperty', required: true },
        ...extra,
      ]);
      expect(result).toMatchObject({
        ok: false,
        error: { data: { missing_arguments: ['toString', 'hasOwnProperty'] } },
      });
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
  it('is a new object that inherits nothing', () => {
    const provided = { topic: 't' };
    const out = okArguments(validatePromptArguments(provided, [{ name: 'topic' }]));
    expect(out).not.toBe(provided);
    expect(Object.prototype.isPrototypeOf(out)).toBe(false);
    for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) expect(key in out).toBe(false);
    expect(Object.isFrozen(Object.getPrototypeOf(out))).toBe(true);
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
    const validator = new ArgumentValidatorCache().compile(
      [{ name: 'tags', type: 'array', default: ['a'] }],
      undefined,
    );
    const first = okArguments(validator.validate({}));
    (first['tags'] as string[]).push('mutated');
    const second = okArguments(validator.validate({}));
    expect(second['tags']).toEqual(['a']);
  });
});
