/**
 * Long quoted YAML scalars, read in linear time: the YAML library builds a double-quoted value one character at a
 * time (a 1 MB string takes hundreds of milliseconds), so the text it parses holds a short stand-in of the same lines
 * and the value is read here with the library's rules (escapes, line folding, trailing blanks): by one native
 * replacement where that is exact and the lines are long, else by the character loop of yaml-fold.ts. Offsets in the
 * parsed text map back to the original text.
 */

import { dense, readFolded } from './yaml-fold.js';
import { foldQuotedLines } from './yaml-lines.js';
import type { ByteText } from './yaml-lines.js';
import type { FoldProblem, FoldStyle } from './yaml-fold.js';
import { perIndent } from './indent-patterns.js';

/** Quoted scalars at least this long (source characters, quotes included) are read here. */
export const LONG_QUOTED = 256;

/** A problem inside a double-quoted scalar, at an offset of the whole text. */
export type QuotedProblem = FoldProblem;

/** An escape (a backslash after an even run of them) that does not mean the same in JSON and in YAML. */
const NOT_JSON_ESCAPE = /(?<!\\)(?:\\\\)*\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;
/** A control character (JSON refuses them raw; YAML keeps tabs). */
const CONTROL = /[\x00-\x1f]/;
/**
 * The lines of a scalar's body folded in one native replacement, when every line after the first has the same
 * indentation (spaces) before its text and no line ends in blanks or is blank: each break and the indentation after
 * it become one space. Undefined otherwise (the general reading applies). Checked by one native search, not a loop
 * per line. With the value, the indentation of the lines after the first (undefined for one line).
 */
function foldUniformly(text: string, from: number, to: number): { value: string; indent?: number } | undefined {
  const body = text.slice(from, to);
  const lf = body.indexOf('\n');
  if (lf === -1) return { value: body };
  if (dense(body, '\n')) return undefined;
  let k = lf + 1;
  while (body.charCodeAt(k) === 0x20) k++;
  const indent = k - lf - 1;
  if (irregularFold(indent).test(body)) return undefined;
  return { value: body.replace(lineBreaks(indent), ' '), indent };
}

/**
 * Per indentation: a line break and that many spaces, global (a replacement by a regular expression builds its result
 * in one buffer; `replaceAll` with a string concatenates piece by piece).
 */
export const lineBreaks = perIndent((indent) => new RegExp(`\\n {${indent}}`, 'g'));

/** Per indentation: a line ending in blanks, or a break not followed by exactly that indentation then text. */
const irregularFold = perIndent((indent) => new RegExp(`[ \\t\\r]\\n|\\n(?! {${indent}}(?:[^ \\t\\n\\r]|$))`));

/**
 * The value of a double-quoted scalar's body by native means, where they give the library's value: a single line
 * whose escapes all mean the same in JSON (JSON.parse), or lines without escapes at one indentation (one
 * replacement). Undefined otherwise (the general reading applies).
 */
function readDoubleFast(text: string, from: number, to: number): { value: string; indent?: number } | undefined {
  const body = text.slice(from, to);
  if (!body.includes('\\')) return body.includes('\r') ? undefined : foldUniformly(text, from, to);
  if (CONTROL.test(body) || NOT_JSON_ESCAPE.test(body)) return undefined;
  return { value: JSON.parse(`"${body}"`) as string };
}

/**
 * Whether `text.slice(from, to)` holds a line break, searched in that stretch only (an indexOf from `from` would run
 * on to the end of the line, and many scalars on one long line would make that quadratic).
 */
function hasBreak(text: string, from: number, to: number): boolean {
  return to > from && text.slice(from, to).includes('\n');
}

/**
 * The value of the quoted scalar `text.slice(start, end)` (quotes included, double or single), or its first
 * problem. The rules are the YAML library's, so a long scalar reads exactly as a short one does. With `bytes` (the
 * text as bytes), a scalar no native replacement reads is read by the byte loop of yaml-lines.ts.
 */
export function readQuoted(
  text: string,
  start: number,
  end: number,
  bytes?: ByteText,
): { value: string; indent?: number } | QuotedProblem {
  const from = start + 1;
  const to = end - 1;
  const double = text[start] === '"';
  if (double) {
    const fast = readDoubleFast(text, from, to);
    if (fast !== undefined) return fast;
  } else if (!dense(text.slice(from, to), "''")) {
    const uniform = foldUniformly(text, from, to);
    if (uniform !== undefined) return { value: uniform.value.replace(QUOTE_PAIRS, "'"), indent: uniform.indent };
  }
  return readAll(text, from, to, double ? 'double' : 'single', bytes);
}

/** {@link readFolded}, with the least indentation of the lines after the first when none has a tab in it. */
function readAll(
  text: string,
  from: number,
  to: number,
  style: FoldStyle,
  bytes?: ByteText,
): { value: string; indent?: number } | QuotedProblem {
  const fast = bytes === undefined || style === 'plain' ? undefined : foldQuotedLines(bytes, from, to, style);
  const read = fast ?? readFolded(text, from, to, style);
  if ('message' in read) return read;
  return read.tabbed || read.least === undefined ? { value: read.value } : { value: read.value, indent: read.least };
}

/**
 * The value of the plain scalar `text.slice(start, end)` over several lines (its extent as the lexer reads it): each
 * line without its leading and trailing blanks, one line break a space, n + 1 breaks n newlines. Undefined if it
 * starts or ends with a blank (not an extent the shape scan gives).
 */
export function readPlain(text: string, start: number, end: number): string | undefined {
  return readPlainLines(text, start, end)?.value;
}

/**
 * {@link readPlain}, with the indentation of the lines after the first when it is one (then it is their least: no
 * other search is needed for the stand-in).
 */
export function readPlainLines(
  text: string,
  start: number,
  end: number,
): { value: string; indent?: number } | undefined {
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  if (end <= start || isBlankCode(first) || isBlankCode(last)) return undefined;
  const uniform = foldUniformly(text, start, end);
  if (uniform !== undefined) return uniform;
  const read = readAll(text, start, end, 'plain');
  return 'value' in read ? read : undefined;
}

function isBlankCode(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

const QUOTE_PAIRS = /''/g;

/**
 * The stand-in of a long plain scalar over several lines whose next lines are indented at least `indent` spaces: its
 * first character (and an `x` when its second is not blank, as the lexer's rule for a scalar first on its line
 * looks), then one line of `indent` spaces and an `x`. Whether the lexer goes on over a line depends on its
 * indentation only, so the library reads the stand-in as one scalar exactly when it reads every line of the original
 * into it (the caller checks the stand-in's extent and value: see {@link readPlain}).
 */
export function plainStandIn(text: string, start: number, indent: number): string {
  const second = text.charCodeAt(start + 1);
  const blank = second === 0x20 || second === 0x09 || second === 0x0a || second === 0x0d || Number.isNaN(second);
  return `${text[start] ?? ''}${blank ? '' : 'x'}\n${' '.repeat(indent)}x`;
}

/**
 * The least indentation (spaces) of the lines with text after the first of `text.slice(start, end)`: each native
 * search finds the next line indented less than the least so far, from where the last one was found (one pass in
 * all; after 64 such lines, one line at a time).
 */
export function leastIndent(text: string, start: number, end: number): number {
  const body = text.slice(start, end);
  let least = -1;
  let at = 0;
  for (let steps = 0; least !== 0; steps++) {
    const lines = least === -1 || steps > 64 ? TEXT_LINE : lessIndented(least);
    lines.lastIndex = at;
    const found = lines.exec(body);
    if (found === null) break;
    const indent = found[1]!.length;
    if (least === -1 || indent < least) least = indent;
    at = found.index + 1;
  }
  return Math.max(least, 0);
}

/** A line with text after a break: its indentation captured. */
const TEXT_LINE = /\n( *)[^ \r\n]/g;

/** Per indentation: a line with text indented less. */
const lessIndented = perIndent((indent) => new RegExp(`\\n( {0,${indent - 1}})[^ \\r\\n]`, 'g'));

/** A text with long quoted scalars replaced by short stand-ins, and the way back to the original offsets. */
export interface MaskedText {
  text: string;
  /** The original offset of an offset of `text` (inside a stand-in: the scalar's start). */
  original(offset: number): number;
  /** Offsets in `text` where stand-ins start, in order. */
  standIns: number[];
}

const MARKER = /^(?:---|\.\.\.)(?=[ \t\r]|$)/;

/**
 * The stand-in of a quoted scalar: quoted as it is (the parser's messages name the quote), each line reduced to its leading blanks and one `x` (a document
 * marker kept), each distinct line once, so the parser sees the same kinds of lines and indentation (and reports the
 * same first indentation error).
 */
function standIn(text: string, start: number, end: number, indent: number | undefined): string {
  const quote = text[start] === '"' ? '"' : "'";
  const well = indent === undefined ? wellIndented(text, start, end) : indent >= continuationIndent(text, start);
  if (well) return `${quote}x${quote}`;
  const to = end - 1;
  const out: string[] = [];
  // A run of lines of one kind becomes two (the last line kept): the parser reads the lines of a run alike, and a
  // line it refuses would otherwise be refused (an error built) once per line.
  let previous: string | number | undefined;
  let repeats = 0;
  let s = start + 1;
  for (let i = 0; ; i++) {
    let lf = text.indexOf('\n', s);
    const last = lf === -1 || lf >= to;
    if (last) lf = to;
    const cr = !last && lf > s && text.charCodeAt(lf - 1) === 0x0d ? '\r' : '';
    const bodyEnd = lf - cr.length;
    let k = s;
    let tabs = false;
    for (let c = text.charCodeAt(k); k < bodyEnd && (c === 0x20 || c === 0x09); c = text.charCodeAt(++k)) {
      if (c === 0x09) tabs = true;
    }
    const blank = k === bodyEnd;
    const c = text.charCodeAt(k);
    const marker = !blank && (c === 0x2d || c === 0x2e) ? (MARKER.exec(text.slice(k, bodyEnd))?.[0] ?? '') : '';
    // The line's kind: its leading blanks, blank or not, its marker, its CR.
    const kind = tabs
      ? `${text.slice(s, k)}|${blank}|${marker}|${cr}`
      : ((k - s) * 2 + (blank ? 1 : 0)) * 8 + (marker === '---' ? 2 : marker === '' ? 0 : 4) + (cr === '' ? 0 : 1);
    repeats = kind === previous ? repeats + 1 : 0;
    previous = kind;
    if (i === 0 || last || repeats < 2) {
      if (i === 0) out.push(blank && k === s ? cr : `x${cr}`);
      else out.push(blank ? `${text.slice(s, k)}${cr}` : `${text.slice(s, k)}${marker}x${cr}`);
    }
    if (last) break;
    s = lf + 1;
  }
  return `${quote}${out.join('\n')}${quote}`;
}

/**
 * Whether every continuation line of the quoted scalar is indented (with spaces) past the node its first line opens
 * (past any `- ` entries): then the parser accepts its lines whatever they hold, and a one-line stand-in will do.
 */
function wellIndented(text: string, start: number, end: number): boolean {
  if (!hasBreak(text, start, end)) return true; // one line: no continuation line to check
  return !shortLine(continuationIndent(text, start)).test(text.slice(start, end));
}

/** The least indentation of a quoted scalar's next lines for {@link wellIndented}: past the node its first line opens. */
function continuationIndent(text: string, start: number): number {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let base = lineStart;
  for (;;) {
    while (text[base] === ' ') base++;
    if (text[base] === '-' && text[base + 1] === ' ') base++;
    else break;
  }
  return base - lineStart + 1;
}

/** Per indentation: a line, not blank, indented with fewer spaces, or whose text starts with a tab. */
const shortLine = perIndent((indent) => new RegExp(`\\n(?! *(?:[\\n\\r]|$))(?! {${indent}})|\\n *\\t`));

/** A stretch of text and the short text that stands in for it. */
export interface StandIn {
  start: number;
  end: number;
  standIn: string;
}

/**
 * The stand-ins of long quoted scalars (start, end); `indents`: per scalar, the one indentation of its next lines when
 * {@link readQuoted} found them all alike (then no other search of its lines is needed).
 */
export function quotedStandIns(
  text: string,
  scalars: readonly (readonly [number, number])[],
  indents: readonly (number | undefined)[] = [],
): StandIn[] {
  return scalars.map(([start, end], i) => ({ start, end, standIn: standIn(text, start, end, indents[i]) }));
}

/** `text` with each listed stretch (sorted, not overlapping) replaced by its stand-in. */
export function maskText(text: string, stretches: readonly StandIn[]): MaskedText {
  if (stretches.length === 0) return { text, original: (offset) => offset, standIns: [] };
  const out: string[] = [];
  const standIns: number[] = [];
  const standInEnds: number[] = [];
  let from = 0;
  let length = 0;
  for (const { start, end, standIn: replacement } of stretches) {
    const before = text.slice(from, start);
    out.push(before, replacement);
    length += before.length;
    standIns.push(length);
    length += replacement.length;
    standInEnds.push(length);
    from = end;
  }
  out.push(text.slice(from));
  return {
    text: out.join(''),
    standIns,
    original(offset) {
      let lo = 0;
      let hi = standIns.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (standIns[mid]! <= offset) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (found === -1) return offset;
      const { start, end } = stretches[found]!;
      return offset < standInEnds[found]! ? start : end + (offset - standInEnds[found]!);
    },
  };
}
