import { isSpecType } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM_LIMITS, elicitationForm, formField } from '../../src/definition/elicitation-form.js';
import type { FieldConversion } from '../../src/definition/elicitation-form.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import type { PromptDefinition } from '../../src/definition/types.js';

/** [what the case shows, argument schema, the form field or the reason it is left out] */
const FIELD_CASES: [string, Record<string, unknown>, FieldConversion][] = [
  ['a plain argument is a text field', {}, { field: { type: 'string' } }],
  [
    'string limits and a default are kept',
    { type: 'string', minLength: 2, maxLength: 40, default: 'Ada' },
    { field: { type: 'string', minLength: 2, maxLength: 40, default: 'Ada' } },
  ],
  ['the formats the form knows are kept', { format: 'email' }, { field: { type: 'string', format: 'email' } }],
  ['date-time is kept', { type: 'string', format: 'date-time' }, { field: { type: 'string', format: 'date-time' } }],
  ['other formats are dropped (checked on the retry)', { format: 'uuid' }, { field: { type: 'string' } }],
  ['a pattern is dropped (checked on the retry)', { pattern: '^[a-z]+$' }, { field: { type: 'string' } }],
  ['negative or fractional lengths are dropped', { minLength: -1, maxLength: 2.5 }, { field: { type: 'string' } }],
  ['a non-string default of a text field is dropped', { type: 'string', default: 5 }, { field: { type: 'string' } }],
  [
    'a string enum is a select with its default',
    { enum: ['warm', 'dry'], default: 'dry' },
    { field: { type: 'string', enum: ['warm', 'dry'], default: 'dry' } },
  ],
  [
    'a default outside the options is dropped',
    { enum: ['warm', 'dry'], default: 'cold' },
    { field: { type: 'string', enum: ['warm', 'dry'] } },
  ],
  [
    'a number enum offers the numbers as the text the wire carries',
    { type: 'integer', enum: [1, 2, 3], default: 2 },
    { field: { type: 'string', enum: ['1', '2', '3'], default: '2' } },
  ],
  ['null in an enum is not an option', { enum: ['a', null, true] }, { field: { type: 'string', enum: ['a', 'true'] } }],
  ['const is a one-option select', { const: 'only' }, { field: { type: 'string', enum: ['only'] } }],
  [
    'oneOf of titled consts is a titled select',
    { oneOf: [{ const: 'py', title: 'Python' }, { const: 'ts' }], default: 'ts' },
    {
      field: {
        type: 'string',
        oneOf: [
          { const: 'py', title: 'Python' },
          { const: 'ts', title: 'ts' },
        ],
        default: 'ts',
      },
    },
  ],
  [
    'numbers keep minimum and maximum',
    { type: 'number', minimum: 0, maximum: 1.5, default: 0.5 },
    { field: { type: 'number', minimum: 0, maximum: 1.5, default: 0.5 } },
  ],
  [
    'exclusive bounds and multipleOf are dropped',
    { type: 'integer', exclusiveMinimum: 0, multipleOf: 5 },
    { field: { type: 'integer' } },
  ],
  ['a fractional default of an integer is dropped', { type: 'integer', default: 1.5 }, { field: { type: 'integer' } }],
  ['a nullable type is its non-null type', { type: ['boolean', 'null'] }, { field: { type: 'boolean' } }],
  ['a boolean keeps its default', { type: 'boolean', default: true }, { field: { type: 'boolean', default: true } }],
  [
    'an array of options is a multi-select',
    { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['a'] },
    {
      field: {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: { type: 'string', enum: ['a', 'b', 'c'] },
        default: ['a'],
      },
    },
  ],
  [
    'an array of titled options is a titled multi-select',
    { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
    { field: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } } },
  ],
  [
    'a multi-select default with a value outside the options is dropped',
    { type: 'array', items: { enum: ['a'] }, default: ['a', 'z'] },
    { field: { type: 'array', items: { type: 'string', enum: ['a'] } } },
  ],
  [
    'an array of free values is left out',
    { type: 'array', items: { type: 'string' } },
    { omitted: 'an array is asked only when its items are a list of options' },
  ],
  ['an object is left out', { type: 'object' }, { omitted: 'an object cannot be asked in a form' }],
  [
    'several types are left out',
    { type: ['string', 'number'] },
    { omitted: 'its type allows more than one kind of value' },
  ],
  [
    'a composed schema without a type is left out',
    { anyOf: [{ type: 'string' }, { type: 'number' }] },
    { omitted: 'its schema has no type and is composed ($ref, anyOf, oneOf, allOf, not, if)' },
  ],
  [
    'a $ref without a type is left out',
    { $ref: '#/$defs/x' },
    {
      omitted: 'its schema has no type and is composed ($ref, anyOf, oneOf, allOf, not, if)',
    },
  ],
  [
    'a composed schema with a type keeps its type',
    { type: 'string', allOf: [{ minLength: 1 }] },
    { field: { type: 'string' } },
  ],
  [
    'an enum over the option limit is left out',
    { enum: Array.from({ length: DEFAULT_FORM_LIMITS.maxOptions + 1 }, (_, i) => `v${i}`) },
    { omitted: `it has more than ${DEFAULT_FORM_LIMITS.maxOptions} options` },
  ],
  [
    'an enum of objects only is left out',
    { enum: [{ a: 1 }] },
    { omitted: 'none of its allowed values is text, a number or a boolean' },
  ],
];

describe('formField', () => {
  for (const [title, schema, expected] of FIELD_CASES) {
    it(title, () => {
      const conversion = formField(schema);
      expect(conversion).toEqual(expected);
      if ('field' in conversion) expect(isSpecType.PrimitiveSchemaDefinition(conversion.field)).toBe(true);
    });
  }
});

function definition(def: PromptDefinition): { def: PromptDefinition; registry: PromptRegistry } {
  const registry = new PromptRegistry();
  registry.add(def);
  return { def: registry.definition(def.name)!, registry };
}

function formOf(
  def: PromptDefinition,
  given: Record<string, unknown>,
  missing: string[],
  limits = DEFAULT_FORM_LIMITS,
) {
  const { def: parsed, registry } = definition(def);
  return elicitationForm(parsed, registry.get(def.name)!.arguments ?? [], (n) => given[n] != null, missing, limits);
}

const MESSAGES = [{ role: 'user' as const, content: 'x' }];

describe('elicitationForm', () => {
  it('asks the missing required arguments first, then the optional ones not given, with listing titles', () => {
    const form = formOf(
      {
        name: 'p',
        arguments: [
          { name: 'a', title: 'The A', description: 'what a is' },
          { name: 'b', required: true },
          { name: 'c', type: 'integer', minimum: 1 },
          { name: 'd', type: 'object' },
        ],
        messages: MESSAGES,
      },
      { c: '2' },
      ['b'],
    );
    expect(form).toEqual({
      schema: {
        type: 'object',
        properties: { b: { type: 'string' }, a: { type: 'string', title: 'The A', description: 'what a is' } },
        required: ['b'],
      },
      asked: ['b', 'a'],
      omitted: [{ argument: 'd', reason: 'an object cannot be asked in a form' }],
    });
    expect(isSpecType.ElicitRequestFormParams({ message: 'm', requestedSchema: form!.schema })).toBe(true);
  });

  it('reads an inputSchema property, which wins over the argument entry of the same name', () => {
    const form = formOf(
      {
        name: 'p',
        arguments: [{ name: 'n', type: 'string' }],
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'integer', maximum: 9, description: 'count' } },
          required: ['n'],
        },
        messages: MESSAGES,
      },
      {},
      ['n'],
    );
    expect(form?.schema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', maximum: 9, description: 'count' } },
      required: ['n'],
    });
  });

  it('gives no form when a missing required argument cannot be asked', () => {
    const def: PromptDefinition = {
      name: 'p',
      arguments: [{ name: 'o', type: 'object', required: true }, { name: 's' }],
      messages: MESSAGES,
    };
    expect(formOf(def, {}, ['o'])).toBeUndefined();
  });

  it('leaves optional fields out past the field limit, and gives no form when a required one would be past it', () => {
    const args = Array.from({ length: 5 }, (_, i) => ({ name: `a${i}` }));
    const def: PromptDefinition = {
      name: 'p',
      arguments: [...args, { name: 'r', required: true }],
      messages: MESSAGES,
    };
    const limits = { ...DEFAULT_FORM_LIMITS, maxFields: 3 };
    const form = formOf(def, {}, ['r'], limits);
    expect(form?.asked).toEqual(['r', 'a0', 'a1']);
    expect(form?.omitted.map((o) => o.argument)).toEqual(['a2', 'a3', 'a4']);
    const needsFour = { name: 'q', arguments: args.map((a) => ({ ...a, required: true })), messages: MESSAGES };
    expect(formOf(needsFour, {}, ['a0', 'a1', 'a2', 'a3'], limits)).toBeUndefined();
  });

  it('keeps the form within its byte limit and cuts long descriptions', () => {
    const long = 'd'.repeat(5_000);
    const def: PromptDefinition = {
      name: 'p',
      arguments: [
        { name: 'r', required: true, description: long },
        ...Array.from({ length: 30 }, (_, i) => ({ name: `o${i}`, description: long })),
      ],
      messages: MESSAGES,
    };
    const limits = { ...DEFAULT_FORM_LIMITS, maxBytes: 4_096 };
    const form = formOf(def, {}, ['r'], limits)!;
    expect(Buffer.byteLength(JSON.stringify(form.schema))).toBeLessThanOrEqual(limits.maxBytes);
    expect((form.schema.properties['r'] as { description: string }).description.length).toBe(1_000);
    expect(form.asked.length).toBeGreaterThan(1);
    expect(form.omitted[0]?.reason).toBe('the form holds at most 4096 bytes');
  });
});
