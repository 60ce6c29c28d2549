import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, getArgumentSchema } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';

const declared: PromptArgumentDefinition[] = [
  { name: 'code', required: true, description: 'The code', type: 'string', maxLength: 10_000 },
  { name: 'language', required: true, enum: ['typescript', 'python'], title: 'Language' },
  { name: 'focus', required: false },
  { name: 'depth', type: 'integer', minimum: 1, default: 2, complete: () => ['1', '2'] },
];

describe('getArgumentSchema', () => {
  it('builds an object schema with each argument as a property and the required list', () => {
    expect(getArgumentSchema(declared)).toEqual({
      type: 'object',
      properties: {
        code: { description: 'The code', type: 'string', maxLength: 10_000 },
        language: { title: 'Language', enum: ['typescript', 'python'] },
        focus: { type: 'string' },
        depth: { type: 'integer', minimum: 1, default: 2 },
      },
      required: ['code', 'language'],
    });
  });

  it('types an argument that declares no type and no enum as a string (a plain MCP argument)', () => {
    expect(
      getArgumentSchema([
        { name: 'a', description: 'x' },
        { name: 'b', enum: [1, 2] },
      ]),
    ).toEqual({
      type: 'object',
      properties: { a: { description: 'x', type: 'string' }, b: { enum: [1, 2] } },
    });
  });

  it('returns an empty object schema (without required) for undefined arguments', () => {
    expect(getArgumentSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(getArgumentSchema(undefined)).not.toHaveProperty('required');
  });

  it('returns a schema that a JSON Schema validator accepts and that judges like the validator', () => {
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile(getArgumentSchema(declared));
    expect(check({ code: 'x', language: 'python' })).toBe(true);
    expect(check({ code: 'x', language: 'rust' })).toBe(false);
    expect(check({ code: 'x' })).toBe(false);
    const validator = new ArgumentValidatorCache().compile(declared, undefined);
    for (const focus of ['f', ['f'], { f: 1 }]) {
      const args = { code: 'x', language: 'python', focus };
      expect(check(args)).toBe(validator.validate(args).ok);
    }
  });

  it('keeps an argument named __proto__ as a property, not a prototype', () => {
    const schema = getArgumentSchema([{ name: '__proto__', type: 'string' }]);
    const properties = schema['properties'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(['__proto__']);
  });
});

describe('CompiledArgumentValidator properties', () => {
  it('exposes argument names, required names and the validation schema without annotations', () => {
    const validator = new ArgumentValidatorCache().compile(declared, undefined, { extraArguments: 'reject' });
    expect(validator.argumentNames).toEqual(['code', 'language', 'focus', 'depth']);
    expect(validator.requiredArguments).toEqual(['code', 'language']);
    expect(validator.schema).toEqual({
      type: 'object',
      properties: {
        code: { type: 'string', maxLength: 10_000 },
        language: { enum: ['typescript', 'python'] },
        focus: { type: 'string' },
        depth: { type: 'integer', minimum: 1, default: 2 },
      },
      required: ['code', 'language'],
      additionalProperties: false,
    });
  });

  it('takes names and required names from an inputSchema (its properties, in order)', () => {
    const validator = new ArgumentValidatorCache().compile(declared, {
      type: 'object',
      properties: { b: { type: 'string' }, a: { type: 'string' } },
      required: ['a'],
    });
    expect(validator.argumentNames).toEqual(['b', 'a']);
    expect(validator.requiredArguments).toEqual(['a']);
  });
});
