/**
 * Scalars over many lines, read from a Latin-1 text's bytes in one loop that finds their extent and builds their value
 * at once (the subset reader's fast path; texts it takes have no carriage return). A character loop over a string
 * costs about 3 ns a character and a native replacement about 100 ns a line; this loop over bytes with a line break
 * after the text's end (no bound check per character) about 2 ns a character. Each loop takes only what the general
 * reading would read the same way and returns undefined for the rest.
 */
import { ESCAPES, dense } from './yaml-fold.js';

import type { FoldRead, FoldStyle } from './yaml-fold.js';

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;

/** A text of one-byte characters (Latin-1) as bytes with a line break after its end, and room for one value read from it. */
export interface ByteText {
  readonly src: Buffer;
  readonly out: Buffer;
  /** The text's length (the sentinel line break is at this offset). */
  readonly length: number;
}

/** `text` as a {@link ByteText}, or undefined when a character of it is outside Latin-1 (above U+00FF). */
export function byteText(text: string): ByteText | undefined {
  // Instant for a string V8 holds one byte a character: the pattern cannot match one.
  if (BEYOND_LATIN1.test(text)) return undefined;
  const length = text.length;
  const both = Buffer.allocUnsafe(2 * (length + 1));
  const src = both.subarray(0, length + 1);
  src.write(text, 0, 'latin1');
  src[length] = LF;
  return { src, out: both.subarray(length + 1), length };
}

const BEYOND_LATIN1 = /[^\x00-\xff]/;
const CR = 0x0d;

/**
 * `text` with each CRLF line break written LF (as YAML reads it), or undefined when a carriage return stands alone
 * (YAML reads one as a line break too; the library decides). A line and column in the result are the same in `text`.
 */
export function withoutCarriageReturns(text: string): string | undefined {
  // Long lines: one native replacement (about 100 ns a line); many short ones: a loop over the bytes.
  if (!dense(text.slice(0, 512), '\r\n') || BEYOND_LATIN1.test(text)) {
    const read = text.replaceAll('\r\n', '\n');
    return read.includes('\r') ? undefined : read;
  }
  const length = text.length;
  const both = Buffer.allocUnsafe(2 * length + 1);
  const src = both.subarray(0, length + 1);
  src.write(text, 0, 'latin1');
  src[length] = CR;
  const out = both.subarray(length + 1);
  let n = 0;
  let i = 0;
  for (;;) {
    let c = src[i]!;
    while (c !== CR) {
      out[n++] = c;
      c = src[++i]!;
    }
    if (i >= length) break;
    if (src[i + 1] !== LF) return undefined;
    i++;
  }
  return out.toString('latin1', 0, n);
}

/** Bytes that stop the copy of a plain scalar's line: a line break, `:` and `#`. */
const PLAIN_STOP = new Uint8Array(256);
for (const c of '\n:#') PLAIN_STOP[c.charCodeAt(0)] = 1;
/** Bytes a later line of a plain scalar may not start with (after its indentation). */
const PLAIN_START = new Uint8Array(256);
for (const c of '\t\n#:-') PLAIN_START[c.charCodeAt(0)] = 1;

/**
 * A block scalar (`|` when `literal`, else `>`) whose lines start at `first`, its content indented past `parent` as
 * its first line with text is: its value after chomping (`chomp`, the library's rules: leading blank lines kept,
 * folded lines joined by a space, more-indented ones and the breaks around them kept) and the start of the line that
 * ends it. Undefined where the general reading decides: a blank line with more spaces than the content's, a less
 * indented line starting with a tab, no line break at the end.
 */
export function readBlockLines(
  t: ByteText,
  first: number,
  parent: number,
  literal: boolean,
  chomp: '' | '-' | '+',
): { value: string; end: number } | undefined {
  const { src, out, length } = t;
  // The leading blank lines, then the first line with text: its spaces are the content's indentation.
  let line = first;
  let leading = 0;
  let widest = 0;
  let k = line;
  for (;;) {
    while (src[k] === SPACE) k++;
    if (src[k] !== LF || k >= length) break;
    widest = Math.max(widest, k - line);
    leading++;
    line = k + 1;
    k = line;
  }
  const indent = k - line;
  if (indent <= parent || k >= length || src[k] === TAB || widest > indent) return undefined;
  let n = 0;
  for (; n < leading; n++) out[n] = LF;
  let blanks = 0;
  // Folded: the separator owed before the next line with text (none, a space, one or two line breaks).
  let sep = 0;
  let moreBefore = false;
  for (;;) {
    k = line;
    while (src[k] === SPACE) k++;
    let c = src[k]!;
    if (k >= length) {
      if (k > line) return undefined;
      break;
    }
    if (c === LF) {
      if (k - line > indent) return undefined;
      blanks++;
      line = k + 1;
      continue;
    }
    if (k - line < indent) {
      if (c === TAB) return undefined;
      break;
    }
    if (literal) {
      if (sep !== 0) for (let b = 0; b <= blanks; b++) out[n++] = LF;
      sep = 1;
    } else {
      // Each blank line: a line break, the first one taking the place of a space.
      if (blanks > 0) {
        if (sep === 1) {
          sep = 2;
          blanks--;
        }
        for (; blanks > 0; blanks--) out[n++] = LF;
      }
      const more = k - line > indent || src[line + indent] === TAB;
      if (more) {
        if (sep === 1) sep = 2;
        else if (sep === 2 && !moreBefore) sep = 3;
      }
      if (sep === 1) out[n++] = SPACE;
      else if (sep >= 2) {
        out[n++] = LF;
        if (sep === 3) out[n++] = LF;
      }
      sep = more ? 2 : 1;
      moreBefore = more;
    }
    blanks = 0;
    k = line + indent;
    c = src[k]!;
    while (c !== LF) {
      out[n++] = c;
      c = src[++k]!;
    }
    if (k >= length) return undefined;
    line = k + 1;
  }
  const value = out.toString('latin1', 0, n);
  if (chomp === '+') return { value: `${value}\n${'\n'.repeat(blanks)}`, end: line };
  return { value: chomp === '-' ? value : `${value}\n`, end: line };
}

/**
 * The lines after a plain scalar's first, from `from`, while they are indented past `parent` and have no `:`, `#`,
 * leading `-` or trailing blank, each ending in a line break (empty lines between them too): folded with the separator
 * before each (a space, or one line break per empty line), their indentation left out. With where they stop; undefined
 * when none is taken.
 */
export function foldPlainLines(t: ByteText, from: number, parent: number): { folded: string; end: number } | undefined {
  const { src, out, length } = t;
  let n = 0;
  let blanks = 0;
  let line = from;
  let taken = from;
  for (;;) {
    let c = src[line]!;
    if (c === LF) {
      if (line >= length) break;
      blanks++;
      line++;
      continue;
    }
    let k = line;
    while (src[k] === SPACE) k++;
    c = src[k]!;
    if (k - line <= parent || PLAIN_START[c] === 1) break;
    const before = n;
    if (blanks === 0) out[n++] = SPACE;
    else for (let b = 0; b < blanks; b++) out[n++] = LF;
    while (PLAIN_STOP[c] === 0) {
      out[n++] = c;
      c = src[++k]!;
    }
    const last = out[n - 1];
    if (c !== LF || k >= length || last === SPACE || last === TAB) {
      n = before;
      break;
    }
    blanks = 0;
    line = k + 1;
    taken = line;
  }
  if (taken === from) return undefined;
  return { folded: out.toString('latin1', 0, n), end: line };
}

/**
 * The body `from`..`to` of a quoted scalar of `style` (the closing quote at `to`), folded as yaml-fold.ts's
 * `readFolded` does; undefined for an escape that is not one character of Latin-1 (`\x`, `\u`, `\L`, an escaped
 * line break, an invalid one: the general reading takes or reports them).
 */
export function foldQuotedLines(
  t: ByteText,
  from: number,
  to: number,
  style: Exclude<FoldStyle, 'plain'>,
): FoldRead | undefined {
  const { src, out } = t;
  const double = style === 'double';
  let n = 0;
  let kept = 0;
  let least = -1;
  let tabbed = false;
  let i = from;
  for (;;) {
    let c = src[i]!;
    while (c > BACKSLASH || (c !== LF && c !== QUOTE && c !== APOSTROPHE && c !== BACKSLASH)) {
      out[n++] = c;
      c = src[++i]!;
    }
    if (c === LF) {
      while (n > kept && (out[n - 1] === SPACE || out[n - 1] === TAB)) n--;
      // Most often the next line has text after spaces: one space stands for the break.
      let s = i + 1;
      while (src[s] === SPACE) s++;
      const d = src[s];
      if (d !== LF && d !== TAB) {
        if (least === -1 || s - i - 1 < least) least = s - i - 1;
        out[n++] = SPACE;
        kept = n;
        i = s;
        continue;
      }
      let breaks = 0;
      let k = i;
      for (;;) {
        let s = k + 1;
        while (src[s] === SPACE) s++;
        const d = src[s];
        if (d === TAB) tabbed = true;
        if (d !== LF && (least === -1 || s - k - 1 < least)) least = s - k - 1;
        while (src[s] === SPACE || src[s] === TAB) s++;
        if (s < to && src[s] === LF) {
          k = s;
          breaks++;
          continue;
        }
        i = s;
        break;
      }
      if (breaks === 0) out[n++] = SPACE;
      else for (let b = 0; b < breaks; b++) out[n++] = LF;
      kept = n;
      continue;
    }
    if (i >= to) break;
    if (c === BACKSLASH && double) {
      const next = src[i + 1]!;
      const escaped = next < 128 ? ESCAPES[next]! : 0;
      if (escaped === 0 || escaped > 0x100) return undefined;
      out[n++] = escaped - 1;
      kept = n;
      i += 2;
    } else if (c === APOSTROPHE && !double) {
      out[n++] = c; // '' is one quote
      kept = n;
      i += 2;
    } else {
      out[n++] = c;
      i++;
    }
  }
  const value = out.toString('latin1', 0, n);
  return least === -1 ? { value, tabbed } : { value, least, tabbed };
}
