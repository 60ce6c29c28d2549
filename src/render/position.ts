/**
 * Offsets to 1-based line/column positions inside a template text.
 *
 * @module
 */

/** A 1-based position inside a text; columns count UTF-16 code units. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The 1-based line and column of a character offset in `text`. Lines end at `\n` (so `\r\n` is one line break);
 * columns count UTF-16 code units. An offset past the end points just after the last character.
 */
export function offsetToPosition(text: string, offset: number): TextPosition {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * A reusable offset -> position lookup for one text: finds line starts once, then answers each offset by binary
 * search (use it when locating many offsets in the same text; same results as {@link offsetToPosition}).
 */
export function createPositionLookup(text: string): (offset: number) => TextPosition {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    const end = Math.max(0, Math.min(offset, text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= end) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: end - (starts[lo] as number) + 1 };
  };
}
