import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/cases/diff.js';
import { unifiedDiff } from '../../src/index.js';

const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join('\n');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb', 'a\nb')).toBe('');
  });

  it('shows each change with three lines of context and hunk headers', () => {
    const a = lines(20, (i) => `line ${i}`);
    const b = a.replace('line 3', 'line three').replace('line 16', 'line sixteen');
    expect(unifiedDiff(a, b)).toBe(
      [
        '--- expected',
        '+++ actual',
        '@@ -1,7 +1,7 @@',
        ' line 0',
        ' line 1',
        ' line 2',
        '-line 3',
        '+line three',
        ' line 4',
        ' line 5',
        ' line 6',
        '@@ -14,7 +14,7 @@',
        ' line 13',
        ' line 14',
        ' line 15',
        '-line 16',
        '+line sixteen',
        ' line 17',
        ' line 18',
        ' line 19',
      ].join('\n'),
    );
  });

  it('shows an added or removed line at the start and end', () => {
    expect(unifiedDiff('b', 'a\nb')).toBe('--- expected\n+++ actual\n@@ -1,1 +1,2 @@\n+a\n b');
    expect(unifiedDiff('a\nb', 'a')).toBe('--- expected\n+++ actual\n@@ -1,2 +1,1 @@\n a\n-b');
  });

  it('bounds its work and output on texts that differ everywhere', () => {
    const a = lines(50_000, (i) => `a${i}`);
    const b = lines(50_000, (i) => `b${i}`);
    const diff = unifiedDiff(a, b, { maxLines: 50 });
    const out = diff.split('\n');
    expect(out).toHaveLength(51);
    expect(out[50]).toMatch(/^\.\.\. \d+ more line\(s\) of diff$/);
    // Past maxEdits the texts are one replaced block: every expected line out, every actual line in.
    expect(out[2]).toBe('@@ -1,50000 +1,50000 @@');
  });

  it('cuts each long line of a failed snapshot, so a report stays small whatever the prompt renders', async () => {
    const { PromptRegistry } = await import('../../src/registry/registry.js');
    const { parsePromptCases, runPromptCases } = await import('../../src/index.js');
    const registry = new PromptRegistry();
    registry.add({ name: 'p', arguments: [{ name: 't' }], messages: [{ role: 'user', content: 'x\n{{t}}' }] });
    const long = 'y'.repeat(9_000);
    const { cases } = parsePromptCases([
      { name: 'c', arguments: { t: long }, messages: [{ role: 'user', content: 'x' }] },
    ]);
    const report = await runPromptCases(registry, [{ prompt: 'p', cases }]);
    const failure = report.results[0]!.failures[0]!;
    expect(failure.diff!.length).toBeLessThan(5_000);
    expect(failure.diff).toContain('… (9000 characters)');
  });
});

describe('diffLines', () => {
  const show = (lines: ReturnType<typeof diffLines>) => lines.map((l) => `${l.op}${l.text}`);

  it('keeps equal lines and marks a changed line as removed then added', () => {
    expect(show(diffLines('a\nb\nc', 'a\nB\nc'))).toEqual([' a', '-b', '+B', ' c']);
  });

  it('aligns insertions and deletions in the middle by the shortest edit script', () => {
    expect(show(diffLines('x\n1\n2\n3\ny', 'x\n0\n1\n3\n4\ny'))).toEqual([' x', '+0', ' 1', '-2', ' 3', '+4', ' y']);
  });

  it('shows nothing as changed for equal texts', () => {
    expect(diffLines('same\ntext', 'same\ntext').every((l) => l.op === ' ')).toBe(true);
  });

  it('falls back to all removed then all added when the middle needs more edits than the bound', () => {
    const before = Array.from({ length: 50 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? `old ${i}` : `new ${i}`)).join('\n');
    const bounded = diffLines(`head\n${before}\ntail`, `head\n${after}\ntail`, 10);
    expect(show(bounded).slice(0, 3)).toEqual([' head', ' old 0', '-old 1']);
    expect(bounded.filter((l) => l.op === '-')).toHaveLength(49);
    expect(bounded.filter((l) => l.op === '+')).toHaveLength(49);
    expect(show(bounded).at(-1)).toBe(' tail');
    // Within the bound the same texts keep their common lines.
    expect(diffLines(before, after).filter((l) => l.op === ' ')).toHaveLength(25);
  });

  it('searches fewer edits for long texts: the work of one diff stays within MAX_DIFF_WORK', () => {
    // About 200,000 lines between the first and last change allow MAX_DIFF_WORK / 200,000 = 20 edits: 34 changed
    // lines (68 edits) are shown as one replaced block.
    const before = Array.from({ length: 100_000 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i % 3_000 === 1 ? `changed ${i}` : l));
    const lines = diffLines(before.join('\n'), after.join('\n'));
    expect(lines.filter((l) => l.op === '-').length).toBe(99_001);
    expect(lines.filter((l) => l.op === ' ').length).toBe(lines.length - 2 * lines.filter((l) => l.op === '-').length);
    // Few changes in as many lines still diff exactly.
    const few = before.map((l, i) => (i === 500 || i === 90_000 ? `changed ${i}` : l));
    expect(diffLines(before.join('\n'), few.join('\n')).filter((l) => l.op !== ' ')).toHaveLength(4);
  });
});
