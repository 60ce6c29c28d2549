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
    expect(other).toMatchObject({ path: ['y'], message: expect.stringMatching(/different integer/) });
    expect(body('{"o":{"x":1e400,"x":1e400}}')['o']).toMatchObject({ path: ['x'], message: expect.stringMatching(/beyond the range/) });
  });

  it('accepts wire text whose changed number is overridden by a later duplicate key', () => {
    expect(validatePromptArguments({ o: '{"x":1e400,"x":1}' }, [{ name: 'o', type: 'object' }])).toEqual({ ok: true, arguments: { o: { x: 1 } } });
  });

  it('leaves a changed number under a key over the length limit to the maxLength rule, and never accepts it', () => {
    const key = 'k'.repeat(50_000);
    const text = `{"o":{"${key}":9007199254740993},"p":[{"a":{"${key}":{"n":1e400}}}]}`;
    const declared = [{ name: 'o', type: 'object' }, { name: 'p', type: 'array' }] as const;
    const refused = validatePromptArguments(body(text), [...declared]);
    if (refused.ok) throw new Error('expected a failure');
    expect((refused.error.data as SchemaValidationData).details).toEqual([
      { argument: 'o', keyword: 'maxLength', message: 'has a property name longer than 10000 characters (limit maxLength)' },
      { argument: 'p', keyword: 'maxLength', message: '/0/a: has a property name longer than 10000 characters (limit maxLength)' },
    ]);
    // Under a limit that allows the key, the number is still refused, its location cut in the message.
    const roomy = validatePromptArguments(body(text), [...declared], undefined, { maxLength: 60_000 });
    if (roomy.ok) throw new Error('expected a failure');
    const details = (roomy.error.data as SchemaValidationData).details;
    expect(details.map((d) => [d.argument, d.keyword])).toEqual([['o', 'exactNumber'], ['p', 'exactNumber']]);
    expect(JSON.stringify(details).length).toBeLessThan(1_000);
  });
});
