import { describe, expect, it } from 'vitest';
import { expectPrototypeUntouched, expectUnchanged, holds, snapshot } from './properties.js';

describe('the property invariants', () => {
  it('sees any change to a caller’s JSON input: a leaf, a key, an element, -0, at any depth', () => {
    const make = () => ({ a: [1, 'x'.repeat(5_000), { b: -0 }], c: { d: null } as Record<string, unknown> });
    const changes: ((v: ReturnType<typeof make>) => void)[] = [
      (v) => {
        v.a[0] = 2;
      },
      (v) => {
        v.a[1] = `${'x'.repeat(4_999)}y`;
      },
      (v) => {
        (v.a[2] as { b: number }).b = 0;
      },
      (v) => {
        v.a.push(3);
      },
      (v) => {
        v.c['e'] = undefined;
      },
      (v) => {
        delete v.c['d'];
      },
    ];
    for (const change of changes) {
      const value = make();
      const before = snapshot(value);
      change(value);
      expect(() => expectUnchanged(before, value, 'the input')).toThrow('the input was changed by the call');
    }
    const value = make();
    const before = snapshot(value);
    expect(() => expectUnchanged(before, structuredClone(value), 'a copy')).not.toThrow();
  });

  it('takes a snapshot of any depth without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const before = snapshot(deep);
    expect(() => expectUnchanged(before, deep, 'deep')).not.toThrow();
  });

  it('fails with the message only when the condition does not hold', () => {
    expect(() => holds(true, () => 'never')).not.toThrow();
    expect(() => holds(false, () => 'status 500')).toThrow('status 500');
  });

  it('sees a property added to Object.prototype', () => {
    expectPrototypeUntouched();
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, configurable: true, enumerable: false });
    try {
      expect(() => expectPrototypeUntouched()).toThrow('Object.prototype changed');
    } finally {
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
    expectPrototypeUntouched();
  });
});
