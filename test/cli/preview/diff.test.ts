import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../src/cli/preview/diff.js';

const show = (lines: ReturnType<typeof diffLines>) => lines.map((l) => `${l.op}${l.text}`);

describe('preview line diff', () => {
  it('keeps equal lines and marks a changed line as removed then added', () => {
    expect(show(diffLines('a\nb\nc', 'a\nB\nc'))).toEqual([' a', '-b', '+B', ' c']);
  });

  it('aligns insertions and deletions in the middle by the longest common subsequence', () => {
    expect(show(diffLines('x\n1\n2\n3\ny', 'x\n0\n1\n3\n4\ny'))).toEqual([' x', '+0', ' 1', '-2', ' 3', '+4', ' y']);
  });

  it('shows nothing as changed for equal texts', () => {
    expect(diffLines('same\ntext', 'same\ntext').every((l) => l.op === ' ')).toBe(true);
  });

  it('falls back to all removed then all added when the middle passes the cell budget', () => {
    const before = Array.from({ length: 50 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? `old ${i}` : `new ${i}`)).join('\n');
    const bounded = diffLines(`head\n${before}\ntail`, `head\n${after}\ntail`, 100);
    expect(show(bounded).slice(0, 3)).toEqual([' head', ' old 0', '-old 1']);
    expect(bounded.filter((l) => l.op === '-')).toHaveLength(49);
    expect(bounded.filter((l) => l.op === '+')).toHaveLength(49);
    expect(show(bounded).at(-1)).toBe(' tail');
    // Within the budget the same texts keep their common lines.
    expect(diffLines(before, after).filter((l) => l.op === ' ')).toHaveLength(25);
  });
});
