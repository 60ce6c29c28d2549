/**
 * One pass over a flow or plain scalar's body, character by character into one buffer: line folding, `''` pairs and
 * double-quoted escapes with the YAML library's rules, and the indentation of the lines after the first. A native
 * replacement costs about 100 ns a match (a 1 MB body of short lines: 13 ms); this loop costs a few ns a character,
 * whatever the lines' length, and allocates only its buffer and the result.
 */

/** How a body is read: a plain scalar, a single-quoted one (`''` is a quote), a double-quoted one (escapes). */
export type FoldStyle = 'plain' | 'single' | 'double';

/** A problem inside a scalar, at an offset of the whole text. */
export interface FoldProblem {
  message: string;
  offset: number;
}

/** A body read: its value and how its lines after the first are indented. */
export interface FoldRead {
  value: string;
  /** The least indentation (spaces) of the lines with text after the first; undefined for one line. */
  least?: number;
  /** Whether a line after the first starts with spaces then a tab. */
  tabbed: boolean;
}

/** Per ASCII character after a backslash: the character the escape stands for, plus 1 (0: not a one-character escape). */
export const ESCAPES = new Uint16Array(128);
for (const [c, v] of Object.entries({
  '0': 0,
  a: 7,
  b: 8,
  e: 0x1b,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  N: 0x85,
  _: 0xa0,
  ' ': 0x20,
  '"': 0x22,
  '/': 0x2f,
  '\\': 0x5c,
  '\t': 9,
  L: 0x2028,
  P: 0x2029,
})) {
  ESCAPES[c.charCodeAt(0)] = v + 1; // 0: not an escape
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** The value of `length` hex digits at `from`, or -1. */
function hexAt(text: string, from: number, length: number, to: number): number {
  if (from + length > to) return -1;
  let code = 0;
  for (let k = from; k < from + length; k++) {
    const c = text.charCodeAt(k);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return -1;
    code = code * 16 + digit;
  }
  return code;
}

/**
 * Reads `text.slice(from, to)` as the body of a scalar of `style` (a quoted scalar's body is between its quotes). A
 * line break folds into a space, n + 1 breaks (blank lines between) into n newlines; the blanks before a break and at
 * the start of the next line go (not those an escape wrote). An escaped break joins the lines.
 */
export function readFolded(text: string, from: number, to: number, style: FoldStyle): FoldRead | FoldProblem {
  const out = new Uint16Array(to - from);
  const plain = style === 'plain';
  let n = 0;
  // Output below `kept` was written by an escape or a fold: the blanks before a break are trimmed down to it only.
  let kept = 0;
  // The least indentation of the lines with text after the first (-1: none yet), and whether one starts with a tab.
  let least = -1;
  let tabbed = false;
  // The character that starts an escape (double) or a quote pair (single); none for plain.
  const special = style === 'double' ? 0x5c : style === 'single' ? 0x27 : -1;
  let i = from;
  while (i < to) {
    let c = text.charCodeAt(i);
    // Ordinary characters: copied in a tight loop.
    while (c !== LF && c !== CR && c !== special) {
      out[n++] = c;
      if (++i === to) break;
      c = text.charCodeAt(i);
    }
    if (i === to) break;
    if (c === LF || (c === CR && text.charCodeAt(i + 1) === LF)) {
      while (n > kept && (out[n - 1] === SPACE || out[n - 1] === TAB)) n--;
      // The break, the blank lines after it, and the next line's leading blanks.
      let breaks = 0;
      let k = c === CR ? i + 1 : i;
      for (;;) {
        // One pass over the next line's leading blanks: its indentation, whether it has text, then the rest of them.
        let t = k + 1;
        while (t < to && text.charCodeAt(t) === SPACE) t++;
        const d = t < to ? text.charCodeAt(t) : -1;
        if (d === TAB) tabbed = true;
        // A line with text (a quoted scalar's last line has its closing quote) counts for the least indentation.
        if ((d === -1 ? !plain : d !== LF && d !== CR) && (least === -1 || t - k - 1 < least)) least = t - k - 1;
        while (t < to && (text.charCodeAt(t) === SPACE || text.charCodeAt(t) === TAB)) t++;
        const e = t < to ? text.charCodeAt(t) : -1;
        if (e === LF) k = t;
        else if (e === CR && text.charCodeAt(t + 1) === LF) k = t + 1;
        else {
          i = t;
          break;
        }
        breaks++;
      }
      if (breaks === 0) out[n++] = SPACE;
      else for (let b = 0; b < breaks; b++) out[n++] = LF;
      kept = n;
      continue;
    }
    if (c === 0x5c) {
      const next = text.charCodeAt(i + 1);
      const escaped = next < 128 ? ESCAPES[next]! : 0;
      if (escaped !== 0) {
        out[n++] = escaped - 1;
        i += 2;
      } else if (next === LF || (next === CR && text.charCodeAt(i + 2) === LF)) {
        // An escaped line break joins the lines; the next line's leading blanks still go.
        const lineStart = i + (next === LF ? 2 : 3);
        let k = lineStart;
        while (k < to && text.charCodeAt(k) === SPACE) k++;
        const d = k < to ? text.charCodeAt(k) : -1;
        if (d === TAB) tabbed = true;
        if ((d === -1 ? !plain : d !== LF && d !== CR) && (least === -1 || k - lineStart < least))
          least = k - lineStart;
        while (k < to && (text.charCodeAt(k) === SPACE || text.charCodeAt(k) === TAB)) k++;
        i = k;
      } else if (next === 0x78 || next === 0x75 || next === 0x55) {
        const length = next === 0x78 ? 2 : next === 0x75 ? 4 : 8;
        const code = hexAt(text, i + 2, length, to);
        if (code < 0 || code > 0x10ffff) {
          return { message: `Invalid escape sequence ${text.slice(i, i + 2 + length)}`, offset: i };
        }
        if (code > 0xffff) {
          out[n++] = 0xd800 + ((code - 0x10000) >> 10);
          out[n++] = 0xdc00 + ((code - 0x10000) & 0x3ff);
        } else {
          out[n++] = code;
        }
        i += 2 + length;
      } else {
        return { message: `Invalid escape sequence ${text.slice(i, i + 2)}`, offset: i };
      }
      kept = n;
      continue;
    }
    if (c === 0x27) {
      out[n++] = 0x27; // '' is one quote
      kept = n;
      i += 2;
      continue;
    }
    out[n++] = c;
    i++;
  }
  const value = Buffer.from(out.buffer, 0, n * 2).toString('utf16le');
  return least === -1 ? { value, tabbed } : { value, least, tabbed };
}

/**
 * `text.slice(from, to)` with each line break written as `join` (a space or a line break) and up to `indent` spaces
 * after it left out: a block scalar's lines without their indentation, in one loop (see {@link readFolded}).
 */
export function stripIndent(text: string, from: number, to: number, indent: number, join: ' ' | '\n'): string {
  const out = new Uint16Array(to - from);
  const joined = join.charCodeAt(0);
  let n = 0;
  let i = from;
  while (i < to) {
    let c = text.charCodeAt(i);
    while (c !== LF) {
      out[n++] = c;
      if (++i === to) break;
      c = text.charCodeAt(i);
    }
    if (i === to) break;
    out[n++] = joined;
    const stop = Math.min(i + 1 + indent, to);
    for (i++; i < stop && text.charCodeAt(i) === SPACE; i++);
  }
  return Buffer.from(out.buffer, 0, n * 2).toString('utf16le');
}

/**
 * Whether `mark` (a line break, a quote pair) comes often in `body`: 32 times in its first 512 characters. A native
 * replacement costs about 100 ns per match, more than the character loop of {@link readFolded} spends on 16
 * characters.
 */
export function dense(body: string, mark: string): boolean {
  let at = -1;
  for (let k = 0; k < 32; k++) {
    at = body.indexOf(mark, at + 1);
    if (at === -1 || at >= 512) return false;
  }
  return true;
}
