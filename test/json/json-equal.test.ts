import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual, setOwn } from '../../src/json.js';

/** The same value with every object's keys in reverse order (as a database's jsonb may hand them back). */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  // setOwn: a `__proto__` key (fast-check generates it) stays a key of the copy, as JSON.parse makes it.
  for (const key of Object.keys(value).reverse()) setOwn(out, key, reordered((value as Record<string, unknown>)[key]));
  return out;
}

describe('jsonEqual', () => {
  it('holds for a JSON value and itself with its keys in any order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonEqual(value, reordered(value))).toBe(true);
      }),
      { examples: [[JSON.parse('{"": {"__proto__": 0}, "__proto__": [1]}')]] },
    );
  });

  it('agrees with a comparison of the values written with sorted keys', () => {
    const sorted = (value: unknown): string =>
      JSON.stringify(value, (_key, v: unknown) =>
        typeof v === 'object' && v !== null && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : v,
      );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonEqual(a, b)).toBe(sorted(a) === sorted(b));
      }),
    );
  });

  it('tells apart arrays from objects, a missing key from another, and element order', () => {
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({ a: [{ b: null }] }, { a: [{ b: null }] })).toBe(true);
  });

  it('compares values nested far deeper than the call stack allows', () => {
    let a: unknown = 'leaf';
    let b: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) {
      a = [a];
      b = [b];
    }
    expect(jsonEqual(a, b)).toBe(true);
  });
});
