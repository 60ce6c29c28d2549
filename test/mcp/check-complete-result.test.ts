/**
 * checkCompleteResult: what a completeResource function returns reaches the client only when it is spec-shaped, and
 * only as a fresh copy holding the spec's fields.
 */
import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { checkCompleteResult } from '../../src/mcp/resource-completion.js';

function failure(result: unknown): PromptError {
  try {
    checkCompleteResult(result);
  } catch (error) {
    if (error instanceof PromptError) return error;
    throw error;
  }
  throw new Error('expected checkCompleteResult to throw');
}

describe('checkCompleteResult', () => {
  const offSpec: [string, unknown, RegExp][] = [
    ['not an object', 'paris', /the result is not an object/],
    ['no completion', {}, /completion is not an object/],
    ['values missing', { completion: {} }, /completion\.values is not an array/],
    ['a number among the values', { completion: { values: ['a', 1] } }, /not a string/],
    ['a hole in the values', { completion: { values: ['a', , 'b'] } }, /not a string/],
    ['a string total', { completion: { values: ['a'], total: 'x' } }, /completion\.total/],
    ['a negative total', { completion: { values: [], total: -1 } }, /completion\.total/],
    ['a fractional total', { completion: { values: ['a'], total: 1.5 } }, /completion\.total/],
    ['an infinite total', { completion: { values: ['a'], total: Infinity } }, /completion\.total/],
    ['a total below the number of values', { completion: { values: ['a', 'b'], total: 1 } }, /completion\.total/],
    ['a string hasMore', { completion: { values: ['a'], hasMore: 'yes' } }, /completion\.hasMore is not a boolean/],
    ['a null hasMore', { completion: { values: ['a'], hasMore: null } }, /completion\.hasMore is not a boolean/],
    ['a string _meta', { completion: { values: ['a'] }, _meta: 'x' }, /_meta is not an object/],
  ];
  for (const [title, result, rule] of offSpec) {
    it(`rejects a result with ${title} as INTERNAL_ERROR naming the rule`, () => {
      const error = failure(result);
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toMatch(rule);
    });
  }

  it('never quotes a value in its error message', () => {
    expect(failure({ completion: { values: ['hunter2', 7], total: 'hunter2' } }).message).not.toContain('hunter2');
  });

  it('keeps a valid total and hasMore, including hasMore: false and a total of 0', () => {
    expect(checkCompleteResult({ completion: { values: ['a', 'b'], total: 9, hasMore: true } })).toEqual({
      completion: { values: ['a', 'b'], total: 9, hasMore: true },
    });
    expect(checkCompleteResult({ completion: { values: [], total: 0, hasMore: false } })).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it('returns a fresh copy holding only the spec fields', () => {
    const values = ['a', 'b'];
    const meta = { trace: 't1' };
    const result = { completion: { values, total: 2, extra: 'x' }, _meta: meta, other: 1 };
    const checked = checkCompleteResult(result);
    expect(checked).toEqual({ completion: { values: ['a', 'b'], total: 2 }, _meta: { trace: 't1' } });
    expect(checked.completion.values).not.toBe(values);
    expect(checked._meta).not.toBe(meta);
    values.push('c');
    expect(checked.completion.values).toEqual(['a', 'b']);
  });

  it('sends well-formed values and a plain-data _meta snapshot, and refuses _meta that cannot be serialized', () => {
    let reads = 0;
    const flaky = Object.defineProperty({}, 'x', { enumerable: true, get: () => (reads++ === 0 ? 'v\uD800' : 2n) });
    const checked = checkCompleteResult({ completion: { values: ['a\uDC00'] }, _meta: { f: flaky } });
    expect(JSON.stringify(checked)).toBe('{"completion":{"values":["a\uFFFD"]},"_meta":{"f":{"x":"v\uFFFD"}}}');
    expect(failure({ completion: { values: [] }, _meta: { n: 1n } }).message).toMatch(
      /_meta cannot be serialized as JSON/,
    );
  });

  it('cuts over 100 values to the first 100 with hasMore: true, keeping a given total or counting the values', () => {
    const values = Array.from({ length: 150 }, (_, i) => `v${i}`);
    const counted = checkCompleteResult({ completion: { values, hasMore: false } }).completion;
    expect(counted).toEqual({ values: values.slice(0, 100), total: 150, hasMore: true });
    expect(checkCompleteResult({ completion: { values, total: 4000 } }).completion).toMatchObject({
      total: 4000,
      hasMore: true,
    });
  });

  it('cuts values over 64 KiB together to the first that fit, with hasMore: true', () => {
    const values = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(4000, 'é')); // about 8,000 bytes each
    const checked = checkCompleteResult({ completion: { values } }).completion;
    expect(checked.values).toEqual(values.slice(0, 8));
    expect(checked).toMatchObject({ total: 50, hasMore: true });
  });
});
