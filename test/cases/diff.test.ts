import { describe, expect, it } from 'vitest';
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
