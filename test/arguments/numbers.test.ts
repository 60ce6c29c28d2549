import { describe, expect, it } from 'vitest';
import { validatePromptArguments } from '../../src/arguments/index.js';
import type { SchemaValidationData } from '../../src/arguments/index.js';
import { InexactNumber, markInexactNumbers } from '../../src/arguments/numbers.js';

/** A JSON body's arguments as the HTTP handlers read them: parsed, then marked from the text. */
function body(text: string): Record<string, unknown> {
  const args = JSON.parse(text) as Record<string, unknown>;
  markInexactNumbers(text, args);
  return args;
}

describe('numbers of a JSON body that JSON.parse changed', () => {
  it('marks only the last occurrence of a duplicated key, the one JSON.parse keeps, at any depth', () => {
    expect(body('{"a":1e400,"a":1}')).toEqual({ a: 1 });
    expect(body('{"a":1e400,"\\u0061":1}')).toEqual({ a: 1 });
    expect(body('{"a":1,"a":1e400}')['a']).toBeInstanceOf(InexactNumber);
    expect(body('{"o":{"x":1e400,"x":1},"a":[{"y":[1e-400],"y":0}]}')).toEqual({ o: { x: 1 }, a: [{ y: 0 }] });
    // Another changed number of the same value is still found when the first one found is overridden.
    const other = body('{"o":{"x":1e400,"y":9007199254740993,"x":1}}')['o'];
    expect(other).toBeInstanceOf(InexactNumber);
    expect(other).toMatchObject({ pointer: '/y', message: expect.stringMatching(/different integer/) });
    expect(body('{"o":{"x":1e400,"x":1e400}}')['o']).toMatchObject({ pointer: '/x', message: expect.stringMatching(/beyond the range/) });
  });

  it('accepts wire text whose changed number is overridden by a later duplicate key', () => {
    expect(validatePromptArguments({ o: '{"x":1e400,"x":1}' }, [{ name: 'o', type: 'object' }])).toEqual({ ok: true, arguments: { o: { x: 1 } } });
  });

  it('leaves a value whose path holds a key over the length limit to the maxLength rule, with a short message', () => {
    const key = 'k'.repeat(50_000);
    const args = body(`{"o":{"${key}":9007199254740993},"p":[{"${key}":{"n":1e400}}]}`);
    expect(args['o']).not.toBeInstanceOf(InexactNumber);
    expect(args['p']).not.toBeInstanceOf(InexactNumber);
    const result = validatePromptArguments(args, [{ name: 'o', type: 'object' }, { name: 'p', type: 'array' }]);
    if (result.ok) throw new Error('expected a failure');
    const details = (result.error.data as SchemaValidationData).details;
    expect(details.map((d) => [d.argument, d.keyword])).toEqual([['o', 'maxLength'], ['p', 'maxLength']]);
    expect(JSON.stringify(details).length).toBeLessThan(1_000);
  });
});
