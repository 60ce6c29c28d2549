import { describe, expect, it } from 'vitest';
import { validatePromptArguments } from '../../src/arguments/index.js';
import type { JsonSchema } from '../../src/types.js';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...extra,
});

describe('coercion reads the values beside a type', () => {
  const rows: { title: string; property: unknown; wire: string; expected: unknown }[] = [
    {
      title: 'an anyOf of a string enum and an integer',
      property: { anyOf: [{ type: 'string', enum: ['auto'] }, { type: 'integer' }] },
      wire: '5',
      expected: 5,
    },
    {
      title: 'a string|integer type with an enum',
      property: { type: ['string', 'integer'], enum: ['auto', 5] },
      wire: '5',
      expected: 5,
    },
    {
      title: 'the string of such an enum',
      property: { type: ['string', 'integer'], enum: ['auto', 5] },
      wire: 'auto',
      expected: 'auto',
    },
    {
      title: 'an integer|string type with a const',
      property: { type: ['integer', 'string'], const: 1 },
      wire: '1',
      expected: 1,
    },
    {
      title: 'a mixed enum with an object value',
      property: { enum: ['a', { x: 1 }] },
      wire: '{"x":1}',
      expected: { x: 1 },
    },
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
      {
        $defs: {
          n: { type: 'string' },
          sub: { $id: 'https://example.com/sub', $defs: { n: { type: 'integer' } }, allOf: [{ $ref: '#/$defs/n' }] },
        },
      },
    );
    expect(validatePromptArguments({ a: '5' }, undefined, nested)).toEqual({ ok: true, arguments: { a: 5 } });
  });
});
