import { describe, expect, it } from 'vitest';
import {
  ArgumentValidatorCache,
  argumentFailureToPromptError,
  validatePromptArguments,
} from '../../src/arguments/index.js';
import type { SchemaValidationData } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import { PromptError } from '../../src/errors.js';
import type { JsonSchema } from '../../src/types.js';

describe('the -32602 error object', () => {
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

  it('words only the details it sends when arguments refused before the schema join its errors, counting the rest', () => {
    // The allowed value counts how often a message quotes it (JSON.stringify calls toJSON).
    let worded = 0;
    const allowed = { id: 'a', toJSON: () => (worded++, 'a') };
    const schema = {
      type: 'object',
      properties: { topic: { type: 'string' }, xs: { type: 'array', items: { enum: [allowed] } } },
    };
    const validator = new ArgumentValidatorCache().compile(undefined, schema as JsonSchema);
    expect(validator.validate({}).ok).toBe(true);
    worded = 0;
    const result = validator.validate({ topic: 'a\uD800', xs: Array.from({ length: 9_999 }, (_, i) => i) });
    if (result.ok) throw new Error('expected a failure');
    const data = result.error.data as SchemaValidationData;
    expect(worded).toBe(19);
    expect(data.details).toHaveLength(20);
    expect(data.details.slice(0, 2)).toEqual([
      {
        argument: 'topic',
        keyword: 'wellFormed',
        message: 'must be well-formed Unicode text (it contains a lone surrogate)',
      },
      { argument: 'xs', keyword: 'enum', message: '/0: must be one of: "a"' },
    ]);
    expect(data).toMatchObject({ truncated: true, total_errors: 10_000 });
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

describe('messages quote at most 128 characters of a client-supplied name, so the reason always survives', () => {
  // The longest name an undeclared argument may have (a longer one is refused for its length alone).
  const long = 'N'.repeat(10_000);
  const quoted = `${'N'.repeat(128)}…`;

  it("cuts an undeclared argument's name in the too-long message, keeping 'exceeds N characters'", () => {
    const result = validatePromptArguments({ [long]: 'v'.repeat(10_001) }, [{ name: 'a' }]);
    if (result.ok) throw new Error('expected a failure');
    expect(argumentFailureToPromptError(result.error).toJsonRpcError().message).toBe(
      `Argument '${quoted}' exceeds 10000 characters`,
    );
  });

  it('cuts a nested key of a value in a detail message, keeping the check that failed', () => {
    const schema = {
      type: 'object',
      properties: {
        closed: { type: 'object', additionalProperties: false },
        texts: { type: 'object', additionalProperties: { type: 'string' } },
      },
    } as const;
    const key = 'k'.repeat(5_000);
    const result = validatePromptArguments({ closed: { [key]: 1 }, texts: { [key]: 1 } }, undefined, schema);
    if (result.ok) throw new Error('expected a failure');
    const messages = (result.error.data as SchemaValidationData).details.map((d) => d.message);
    expect(messages).toEqual([`must not have property '${'k'.repeat(128)}…'`, `/${'k'.repeat(127)}…: must be string`]);
  });

  it('cuts the location of a changed number in the exactNumber message, keeping the reason', () => {
    const key = 'k'.repeat(5_000);
    const result = validatePromptArguments({ o: `{"${key}": 9007199254740993}` }, [{ name: 'o', type: 'object' }]);
    if (result.ok) throw new Error('expected a failure');
    expect((result.error.data as SchemaValidationData).details).toEqual([
      {
        argument: 'o',
        keyword: 'exactNumber',
        message: `/${'k'.repeat(127)}…: would become a different integer (a double holds whole numbers exactly only up to ±9007199254740991)`,
      },
    ]);
  });
});
