import { describe, expect, it } from 'vitest';
import { validatePromptArguments } from '../../src/arguments/index.js';
import type { SchemaValidationData } from '../../src/arguments/index.js';
import { InexactNumber, inexactLiterals, markInexactNumbers } from '../../src/arguments/numbers.js';

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
    expect(body('{"o":{"x":1e400,"x":1e400}}')['o']).toMatchObject({
      path: ['x'],
      message: expect.stringMatching(/beyond the range/),
    });
  });

  it('accepts wire text whose changed number is overridden by a later duplicate key', () => {
    expect(validatePromptArguments({ o: '{"x":1e400,"x":1}' }, [{ name: 'o', type: 'object' }])).toEqual({
      ok: true,
      arguments: { o: { x: 1 } },
    });
  });

  it('leaves a changed number under a key over the length limit to the maxLength rule, and never accepts it', () => {
    const key = 'k'.repeat(50_000);
    const text = `{"o":{"${key}":9007199254740993},"p":[{"a":{"${key}":{"n":1e400}}}]}`;
    const declared = [
      { name: 'o', type: 'object' },
      { name: 'p', type: 'array' },
    ] as const;
    const refused = validatePromptArguments(body(text), [...declared]);
    if (refused.ok) throw new Error('expected a failure');
    expect((refused.error.data as SchemaValidationData).details).toEqual([
      {
        argument: 'o',
        keyword: 'maxLength',
        message: 'has a property name longer than 10000 characters (limit maxLength)',
      },
      {
        argument: 'p',
        keyword: 'maxLength',
        message: '/0/a: has a property name longer than 10000 characters (limit maxLength)',
      },
    ]);
    // Under a limit that allows the key, the number is still refused, its location cut in the message.
    const roomy = validatePromptArguments(body(text), [...declared], undefined, { maxLength: 60_000 });
    if (roomy.ok) throw new Error('expected a failure');
    const details = (roomy.error.data as SchemaValidationData).details;
    expect(details.map((d) => [d.argument, d.keyword])).toEqual([
      ['o', 'exactNumber'],
      ['p', 'exactNumber'],
    ]);
    expect(JSON.stringify(details).length).toBeLessThan(1_000);
  });

  it('reports the changed numbers of deep nesting with one path each, its heap bounded by the text, not depth times count', () => {
    // Every open level once held a full path for every changed number below it: k levels and k numbers took k²
    // segments.
    const k = 20_000;
    const keys = Array.from({ length: k }, (_, i) => `"k${i}":1e400`).join(',');
    const text = `{"o":${'{"a":'.repeat(k)}{${keys}}${'}'.repeat(k)},"p":${'['.repeat(k)}${'1e400,'.repeat(k)}1${']'.repeat(k)}}`;
    const args = JSON.parse(text) as Record<string, unknown>;
    const before = process.memoryUsage().heapUsed;
    const found = inexactLiterals(text);
    const grown = process.memoryUsage().heapUsed - before;
    expect(found.map((f) => [f.path[0], f.path.length])).toEqual([
      ['o', k + 2],
      ['p', k + 1],
    ]);
    expect(found[0]?.path.at(-1)).toBe('k0');
    expect(grown).toBeLessThan(64 * 2 ** 20);
    markInexactNumbers(text, args);
    expect(args['o']).toBeInstanceOf(InexactNumber);
  });

  it('records nothing outside the container asked about, and reads each of its entries', () => {
    const text =
      '{"a":{"x":1e400},"params":{"_meta":[1e400],"arguments":{"b":[1,{"c":1e-400}],"d":9007199254740993,"e":1}}}';
    expect(inexactLiterals(text, ['params', 'arguments'])).toEqual([
      { path: ['b', 1, 'c'], message: expect.stringMatching(/too small/) },
      { path: ['d'], message: expect.stringMatching(/different integer/) },
    ]);
    expect(inexactLiterals(text, ['params', 'arguments'], true)).toHaveLength(1);
    expect(inexactLiterals(text, ['nothing', 'here'])).toEqual([]);
    expect(inexactLiterals(text, ['a']).map((f) => f.path)).toEqual([['x']]);
    // A later duplicate of a key on the path replaces the container, as JSON.parse keeps the last one.
    expect(inexactLiterals('{"p":{"x":1e400},"p":{"x":1}}', ['p'])).toEqual([]);
    expect(inexactLiterals('{"p":{"x":1},"p":{"y":1e400}}', ['p']).map((f) => f.path)).toEqual([['y']]);
    expect(inexactLiterals('{"p":{"x":1e400},"p":5}', ['p'])).toEqual([]);
    expect(inexactLiterals('1e400')).toEqual([{ path: [], message: expect.stringMatching(/beyond the range/) }]);
    expect(inexactLiterals('1e400', ['p'])).toEqual([]);
  });

  it('answers a changed number nested deeper than maxDepth with the maxDepth rule, as any value that deep', () => {
    const text = `{"o":${'['.repeat(100)}1e400${']'.repeat(100)}}`;
    const refused = validatePromptArguments(body(text), [{ name: 'o', type: 'array' }], undefined, { maxDepth: 64 });
    if (refused.ok) throw new Error('expected a failure');
    expect((refused.error.data as SchemaValidationData).details).toEqual([
      { argument: 'o', keyword: 'maxDepth', message: 'nests deeper than 64 levels (limit maxDepth)' },
    ]);
  });
});
