/**
 * Unified diffs of two texts, line by line (Myers' algorithm), bounded: past a number of edits the texts are shown
 * as one replaced block, and the output stops after a number of lines.
 *
 * @module
 */

/** Bounds of {@link unifiedDiff}. */
export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  /** Most edits searched for (default 500); past it the whole text is one change. */
  maxEdits?: number;
  /** Most lines of output (default 200); the rest is counted in a last line. */
  maxLines?: number;
}

type Op = [kind: ' ' | '-' | '+', line: string];

/** The shortest edit script, or undefined past `maxEdits` (work O((n+m)·maxEdits)). */
function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d, k);
    }
  }
  return undefined;
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  offset: number,
  dEnd: number,
  kEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  let k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push([' ', a[--x]!]), y--;
    if (down) ops.push(['+', b[--y]!]);
    else ops.push(['-', a[--x]!]);
    k = prevK;
  }
  while (x > 0 && y > 0) ops.push([' ', a[--x]!]), y--;
  return ops.reverse();
}

/**
 * A unified diff of `expected` and `actual` (`-` lines expected, `+` lines actual) with `@@ -a,b +c,d @@` hunk
 * headers; empty when the texts are equal.
 *
 * @example
 * ```ts
 * unifiedDiff('a\nb\n', 'a\nc\n');
 * // '--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+c'
 * ```
 */
export function unifiedDiff(expected: string, actual: string, options: DiffOptions = {}): string {
  if (expected === actual) return '';
  const context = options.context ?? 3;
  const maxLines = options.maxLines ?? 200;
  const a = splitLines(expected);
  const b = splitLines(actual);
  const ops = editScript(a, b, options.maxEdits ?? 500) ?? [
    ...a.map((l): Op => ['-', l]),
    ...b.map((l): Op => ['+', l]),
  ];
  const out = ['--- expected', '+++ actual'];
  // Hunks: runs of changes with up to `context` unchanged lines around them (joined when closer than 2·context).
  let i = 0;
  let aLine = 0;
  let bLine = 0;
  let omitted = 0;
  while (i < ops.length) {
    if (ops[i]![0] === ' ') {
      i++;
      aLine++;
      bLine++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    let lastChange = i;
    while (end < ops.length) {
      if (ops[end]![0] !== ' ') lastChange = end;
      else if (end - lastChange > 2 * context) break;
      end++;
    }
    end = Math.min(ops.length, lastChange + context + 1);
    const lead = i - start;
    let aStart = aLine - lead;
    let bStart = bLine - lead;
    let aCount = 0;
    let bCount = 0;
    const body: string[] = [];
    for (let j = start; j < end; j++) {
      const [kind, line] = ops[j]!;
      body.push(`${kind}${line}`);
      if (kind !== '+') aCount++;
      if (kind !== '-') bCount++;
    }
    if (aCount === 0) aStart--;
    if (bCount === 0) bStart--;
    const header = `@@ -${aStart + 1},${aCount} +${bStart + 1},${bCount} @@`;
    for (const line of [header, ...body]) {
      if (out.length < maxLines) out.push(line);
      else omitted++;
    }
    for (let j = i; j < end; j++) {
      const kind = ops[j]![0];
      if (kind !== '+') aLine++;
      if (kind !== '-') bLine++;
    }
    i = end;
  }
  if (omitted > 0) out.push(`... ${omitted} more line(s) of diff`);
  return out.join('\n');
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
