/** A line diff of two texts: common prefix and suffix kept, the middle aligned by LCS within a bounded table. */

/** One line of a diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Cells of the LCS table at most (lines before x lines after, in the differing middle): 4 million. */
export const MAX_DIFF_CELLS = 4_000_000;

/**
 * The lines of `before` and `after` as kept, removed and added lines. When the differing middle is larger than
 * `maxCells` allows, it is shown as all removed then all added (still correct, just not minimal).
 */
export function diffLines(before: string, after: string, maxCells = MAX_DIFF_CELLS): DiffLine[] {
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
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > maxCells || n === 0 || m === 0) {
    for (const text of midA) out.push({ op: '-', text });
    for (const text of midB) out.push({ op: '+', text });
  } else {
    // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..], in one flat table.
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? lcs[(i + 1) * width + j + 1]! + 1
            : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        out.push({ op: ' ', text: midA[i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push({ op: '-', text: midA[i++]! });
      else out.push({ op: '+', text: midB[j++]! });
    }
    while (i < n) out.push({ op: '-', text: midA[i++]! });
    while (j < m) out.push({ op: '+', text: midB[j++]! });
  }
  for (let k = endA; k < a.length; k++) out.push({ op: ' ', text: a[k]! });
  return out;
}
