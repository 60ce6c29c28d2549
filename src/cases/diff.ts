/**
 * Line diffs of two texts (Myers' algorithm), bounded: past a number of edits, or past a budget of work, the differing
 * lines are shown as one replaced block. `unifiedDiff` for `mcp-prompt-kit test`, `diffLines` for the preview page.
 *
 * @module
 */

/** @internal Most edits one diff searches for by default. */
export const DEFAULT_MAX_DIFF_EDITS = 500;

/** Most steps of one diff's search (lines times edits searched): past it the edits searched are fewer. */
export const MAX_DIFF_WORK = 4_000_000;

/** @internal One line of a diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Bounds of {@link unifiedDiff}. */
export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  /** Most edits searched for (default 500, fewer for long texts); past it the whole text is one change. */
  maxEdits?: number;
  /** Most lines of output (default 200); the rest is counted in a last line. */
  maxLines?: number;
}

type Op = [kind: ' ' | '-' | '+', line: string];

/**
 * The shortest edit script, or undefined past `maxEdits`, or past the edits {@link MAX_DIFF_WORK} allows for texts this
 * long (work O((n+m)·edits)).
 */
function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits, Math.floor(MAX_DIFF_WORK / (n + m + 1)));
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
  const ops = editScript(a, b, options.maxEdits ?? DEFAULT_MAX_DIFF_EDITS) ?? [
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

/**
 * @internal The lines of `before` and `after` (split at every line break) as kept, removed and added lines: the
 * common first and last lines kept, the middle aligned by the shortest edit script, or shown as all removed then all
 * added past `maxEdits` (still correct, just not minimal).
 */
export function diffLines(before: string, after: string, maxEdits = DEFAULT_MAX_DIFF_EDITS): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = editScript(midA, midB, maxEdits) ?? [
    ...midA.map((l): Op => ['-', l]),
    ...midB.map((l): Op => ['+', l]),
  ];
  return [
    ...a.slice(0, start).map((text): DiffLine => ({ op: ' ', text })),
    ...middle.map(([op, text]): DiffLine => ({ op, text })),
    ...a.slice(endA).map((text): DiffLine => ({ op: ' ', text })),
  ];
}
