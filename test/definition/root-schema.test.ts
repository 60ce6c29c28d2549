import { describe, expect, it } from 'vitest';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import { FunctionRegistry } from '../../src/functions/index.js';
import type { JsonSchema } from '../../src/types.js';
import { thrownBy } from '../support/errors.js';

describe('root keywords of an inputSchema: every argument a client can or must send is under properties', () => {
  const problemsOf = (schema: Record<string, unknown>): unknown[] =>
    (
      thrownBy(() => new ArgumentValidatorCache().compile(undefined, schema as JsonSchema).check()).data as {
        problems: unknown[];
      }
    ).problems;
  const y = { y: { type: 'string' } };
  const rows: { title: string; schema: Record<string, unknown>; path: string; message: RegExp }[] = [
    {
      title: 'a nested root allOf',
      schema: { type: 'object', allOf: [{ allOf: [{ properties: { x: { type: 'integer' } }, required: ['x'] }] }] },
      path: '/inputSchema/allOf/0/allOf/0/properties/x',
      message:
        /^root-level allOf cannot declare listed arguments: declare 'x' under properties \(only arguments declared there are listed/,
    },
    {
      title: 'a root anyOf branch',
      schema: { type: 'object', anyOf: [{ properties: { x: {} } }] },
      path: '/inputSchema/anyOf/0/properties/x',
      message: /^root-level anyOf cannot declare listed arguments/,
    },
    {
      title: 'a root oneOf branch requiring an undeclared name',
      schema: { type: 'object', properties: y, oneOf: [{ required: ['x'] }] },
      path: '/inputSchema/oneOf/0/required/0',
      message: /^root-level oneOf cannot require arguments that are not listed: declare 'x' under properties/,
    },
    {
      title: 'a root if/then',
      schema: {
        type: 'object',
        properties: y,
        if: { properties: { y: { const: 'a' } }, required: ['y'] },
        then: { properties: { x: { type: 'integer' } }, required: ['x'] },
      },
      path: '/inputSchema/then/properties/x',
      message: /^root-level if\/then\/else cannot declare listed arguments: declare 'x' under properties/,
    },
    {
      title: 'a root else inside an allOf',
      schema: { type: 'object', properties: y, allOf: [{ if: { required: ['y'] }, else: { required: ['x'] } }] },
      path: '/inputSchema/allOf/0/else/required/0',
      message: /^root-level allOf cannot require arguments that are not listed/,
    },
    {
      title: 'a root not',
      schema: { type: 'object', properties: y, not: { properties: { x: { type: 'string' } } } },
      path: '/inputSchema/not/properties/x',
      message: /^root-level not cannot declare listed arguments/,
    },
    {
      title: 'root dependentSchemas',
      schema: {
        type: 'object',
        properties: y,
        dependentSchemas: { y: { properties: { x: { type: 'integer' } }, required: ['x'] } },
      },
      path: '/inputSchema/dependentSchemas/y/properties/x',
      message: /^root-level dependentSchemas cannot declare listed arguments/,
    },
    {
      title: 'root dependentRequired naming an undeclared argument',
      schema: { type: 'object', properties: y, dependentRequired: { y: ['x'] } },
      path: '/inputSchema/dependentRequired/y/0',
      message: /^root-level dependentRequired names 'x', which is not declared: declare it under properties/,
    },
    {
      title: 'root dependencies keyed by an undeclared argument',
      schema: { type: 'object', properties: y, dependencies: { x: ['y'] } },
      path: '/inputSchema/dependencies/x',
      message: /^root-level dependencies names 'x', which is not declared/,
    },
    {
      title: 'root patternProperties',
      schema: { type: 'object', patternProperties: { '^x': { type: 'integer' } } },
      path: '/inputSchema/patternProperties',
      message: /^root-level patternProperties cannot declare listed arguments: declare each argument under properties/,
    },
    {
      title: 'a root const',
      schema: { type: 'object', properties: y, const: { y: 'a', x: 1 } },
      path: '/inputSchema/const',
      message: /^root-level const cannot declare listed arguments/,
    },
    {
      title: 'a root enum',
      schema: { type: 'object', properties: y, enum: [{ x: 1 }] },
      path: '/inputSchema/enum',
      message: /^root-level enum cannot declare listed arguments/,
    },
    {
      title: 'a root minProperties over the declared arguments',
      schema: { type: 'object', properties: y, minProperties: 2 },
      path: '/inputSchema/minProperties',
      message: /^root-level minProperties 2 is more than the 1 declared arguments/,
    },
    {
      title: 'a root $dynamicRef',
      schema: { type: 'object', $dynamicRef: '#/$defs/a', $defs: { a: { properties: { x: {} } } } },
      path: '/inputSchema/$dynamicRef',
      message: /^root-level \$dynamicRef cannot declare listed arguments \(its target is not read for them\)/,
    },
    {
      title: 'a $ref in a root allOf',
      schema: { type: 'object', allOf: [{ $ref: '#/$defs/a' }], $defs: { a: { properties: { x: {} } } } },
      path: '/inputSchema/allOf/0/$ref',
      message: /^root-level allOf \$ref cannot declare listed arguments/,
    },
    {
      title: 'a root required naming no property',
      schema: { type: 'object', properties: {}, required: ['x'] },
      path: '/inputSchema/required/0',
      message: /^'x' is required but not declared: declare 'x' under properties/,
    },
  ];
  for (const { title, schema, path, message } of rows) {
    it(`rejects ${title}, saying where and why`, () => {
      expect(problemsOf(schema)).toEqual([{ path, message: expect.stringMatching(message) }]);
    });
  }

  it('accepts root keywords that only constrain declared arguments or judge undeclared extras', () => {
    const properties = { a: { type: 'string' }, b: { type: 'string' }, n: { type: 'integer' } };
    const schemas: Record<string, unknown>[] = [
      { allOf: [{ required: ['a'] }, { properties: { a: { maxLength: 3 } } }] },
      { anyOf: [{ required: ['a'] }, { required: ['b'] }] },
      { if: { properties: { a: { const: 'file' } }, required: ['a'] }, then: { required: ['b'] } },
      { dependentRequired: { a: ['b'] }, dependentSchemas: { b: { properties: { n: { minimum: 1 } } } } },
      { not: { required: ['a', 'b'] } },
      { additionalProperties: false },
      { additionalProperties: { type: 'string' }, unevaluatedProperties: false },
      { propertyNames: { maxLength: 8 }, minProperties: 1, maxProperties: 3 },
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://example.test/args',
        title: 't',
        description: 'd',
        $comment: 'c',
        $defs: { s: { type: 'string' } },
      },
    ];
    for (const extra of schemas) {
      const validator = new ArgumentValidatorCache().compile(undefined, {
        type: 'object',
        properties,
        ...extra,
      } as JsonSchema);
      expect(() => validator.check(), JSON.stringify(extra)).not.toThrow();
      expect(validator.argumentNames).toEqual(['a', 'b', 'n']);
    }
    const either = { type: 'object', properties, anyOf: [{ required: ['a'] }, { required: ['b'] }] } as const;
    expect(validatePromptArguments({ b: 'x', n: '2' }, undefined, either)).toMatchObject({
      ok: true,
      arguments: { b: 'x', n: 2 },
    });
    expect(validatePromptArguments({}, undefined, either).ok).toBe(false);
  });

  it('holds for function inputSchemas too', () => {
    const error = thrownBy(() =>
      new FunctionRegistry().add({
        name: 'f',
        inputSchema: { type: 'object', if: { required: ['y'] }, then: { properties: { x: { type: 'integer' } } } },
        run: () => 1,
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toContain('/inputSchema/if/required/0');
  });
});
