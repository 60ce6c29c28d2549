/**
 * Long block scalars (`|`, `>`), read in linear time: the YAML library splits a block scalar's lines with a regular
 * expression and lexes them one by one (a 1 MB block takes many times its JSON twin), so the text it parses holds a
 * short stand-in (the header, the leading blank lines, the first content line reduced to its indentation and one `x`,
 * the trailing blank lines) and the value is read here with the library's own rules. The library's reading of the
 * stand-in is checked against ours (same extent, same value), so a case read differently falls back to the library.
 */

import { stripIndent } from './yaml-fold.js';
import { dense } from './yaml-fold.js';
import { lineBreaks } from './yaml-quoted.js';
import { perIndent } from './indent-patterns.js';

/** Block scalars at least this long (source characters, header included) are read here. */
export const LONG_BLOCK = 256;

/** A block scalar's header: `|` or `>`, its chomping indicator and its explicit indentation (0 when detected). */
export interface BlockHeader {
  mode: '|' | '>';
  chomp: '' | '-' | '+';
  indent: number;
}

/** A long block scalar found in a text: its extent, its stand-in and how to read it. */
export interface BlockScalar {
  /** The offset of the indicator. */
  start: number;
  /** The offset after the scalar's last line (as the library's lexer ends it). */
  end: number;
  /** The header's length (indicator, comment and line break): the content starts at `start + headerLength`. */
  headerLength: number;
  header: BlockHeader;
  /** The indentation the library is expected to give the scalar (used with an explicit indentation indicator). */
  scalarIndent: number;
  /** The short text that stands in for `text.slice(start, end)`. */
  standIn: string;
}

const HEADER = /[|>](?:([1-9])([+-])?|([+-])([1-9])?)?(?:[ \t]+(?:#[^\n]*)?)?\r?\n/y;

/** The block scalar header at `at` (up to its line break) and its length, or undefined when there is none. */
export function blockHeader(text: string, at: number): { header: BlockHeader; length: number } | undefined {
  HEADER.lastIndex = at;
  const found = HEADER.exec(text);
  if (found === null) return undefined;
  const digit = found[1] ?? found[4];
  const chomp = (found[2] ?? found[3] ?? '') as BlockHeader['chomp'];
  const mode = text[at] as BlockHeader['mode'];
  return { header: { mode, chomp, indent: digit === undefined ? 0 : Number(digit) }, length: found[0].length };
}

/** The number of spaces at `from`. */
function spacesAt(text: string, from: number): number {
  let k = from;
  while (text.charCodeAt(k) === 0x20) k++;
  return k - from;
}

/**
 * The block scalar whose indicator is at `at`, or undefined when it is shorter than `minLength`, or a case left to the library
 * (a header with anything unusual, content at column 0, a tab after the last line, no content).
 */
export function findBlockScalar(text: string, at: number, minLength = LONG_BLOCK): BlockScalar | undefined {
  const n = text.length;
  const found = blockHeader(text, at);
  if (found === undefined) return undefined;
  const { chomp, indent: explicit } = found.header;
  const first = at + found.length;
  // The column of the node that holds the scalar: the header line's spaces and `- ` entries.
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  let base = lineStart;
  for (;;) {
    base += spacesAt(text, base);
    if (text[base] === '-' && text[base + 1] === ' ') base++;
    else break;
  }
  const column = base - lineStart;
  // The leading blank lines, then the first content line (as the library's lexer finds it).
  let nl = first - 1;
  let lineIndent = 0;
  let i = first;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20) lineIndent++;
    else if (c === 0x0a) {
      nl = i;
      lineIndent = 0;
    } else if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
      // a CR before a line break
    } else break;
    i++;
  }
  if (i >= n) return undefined;
  const contentStart = nl + 1;
  const contentIndent = lineIndent;
  const need = explicit === 0 ? contentIndent : column + explicit;
  if (need < 1 || contentIndent < need) return undefined;
  // Lines continue while blank or indented at least `need`.
  let lastContentEnd = -1;
  let s = contentStart;
  // Whole lines first, natively (in bounded runs), then the last content line among them.
  const lineRun = new RegExp(`(?: {${need}}[^\\n]*\\n| *\\r?\\n){1,256}`, 'y');
  for (;;) {
    lineRun.lastIndex = s;
    if (!lineRun.test(text)) break;
    s = lineRun.lastIndex;
  }
  if (s > contentStart) {
    nl = s - 1;
    for (let e = s - 1; e >= contentStart; ) {
      const from = text.lastIndexOf('\n', e - 1) + 1;
      let k = from;
      while (k < e && text.charCodeAt(k) === 0x20) k++;
      if (k === e || (k === e - 1 && text.charCodeAt(k) === 0x0d)) {
        e = from - 1;
        continue;
      }
      lastContentEnd = text.charCodeAt(e - 1) === 0x0d ? e - 1 : e;
      break;
    }
  }
  for (;;) {
    const k = spacesAt(text, s);
    const c = text.charCodeAt(s + k);
    const blank = c === 0x0a || (c === 0x0d && text.charCodeAt(s + k + 1) === 0x0a);
    if (s + k >= n) {
      if (k >= need && s < n) return undefined; // trailing spaces at the very end: left to the library
      break;
    }
    if (!blank && k < need) break;
    let lf = text.indexOf('\n', s + k);
    if (lf === -1) lf = n;
    if (!blank) lastContentEnd = lf > s + k && text.charCodeAt(lf - 1) === 0x0d ? lf - 1 : lf;
    nl = lf;
    if (lf >= n) break;
    s = lf + 1;
  }
  if (lastContentEnd === -1) return undefined;
  // A tab after the scalar's last line: the library includes it to report it.
  if (nl < n && text.charCodeAt(nl + 1 + spacesAt(text, nl + 1)) === 0x09) return undefined;
  if (chomp !== '+') {
    // The library's lexer leaves trailing blank lines not indented past the first content line out.
    for (;;) {
      let k = nl - 1;
      if (text.charCodeAt(k) === 0x0d) k--;
      const lastChar = k;
      while (text.charCodeAt(k) === 0x20) k--;
      if (k >= first && text.charCodeAt(k) === 0x0a && k + 1 + contentIndent > lastChar) nl = k;
      else break;
    }
  }
  const end = Math.min(nl + 1, n);
  if (end - at < minLength || lastContentEnd > end) return undefined;
  const standIn = `${text.slice(at, contentStart)}${' '.repeat(contentIndent)}x${text.slice(lastContentEnd, end)}`;
  return {
    start: at,
    end,
    headerLength: found.length,
    header: found.header,
    scalarIndent: column,
    standIn,
  };
}

/**
 * The content's lines as the library splits them (`\n` followed by spaces): indentation, content start and end, flat.
 */
function splitLines(text: string, from: number, to: number): number[] {
  const lines: number[] = [];
  let s = from;
  for (;;) {
    let k = s;
    while (k < to && text.charCodeAt(k) === 0x20) k++;
    let lf = text.indexOf('\n', k);
    if (lf === -1 || lf > to) lf = to;
    lines.push(k - s, k, lf);
    if (lf >= to) break;
    s = lf + 1;
  }
  return lines;
}

/** The value of a block scalar {@link findBlockScalar} found (see {@link readBlockScalar}). */
export function readFoundBlock(text: string, block: BlockScalar): string | undefined {
  return readBlockScalar(text, block.start + block.headerLength, block.end, block.header, block.scalarIndent, true);
}

/**
 * The value of the block scalar whose content is `text.slice(from, to)`, with the library's rules (its
 * `resolveBlockScalar`): indentation, folding, more-indented lines, chomping. Undefined where the library reports
 * an error (the library then reads the scalar itself). `indented`: every line is known blank or indented at least as
 * the content (as {@link findBlockScalar} found them).
 */
export function readBlockScalar(
  text: string,
  from: number,
  to: number,
  header: BlockHeader,
  scalarIndent: number,
  indented = false,
): string | undefined {
  const fast = readRegular(text, from, to, header, scalarIndent, indented);
  if (fast !== undefined) return fast;
  const lines = from >= to ? [] : splitLines(text, from, to);
  const count = lines.length / 3;
  const indentOf = (i: number): number => lines[3 * i]!;
  const isEmpty = (i: number): boolean => {
    const start = lines[3 * i + 1]!;
    const end = lines[3 * i + 2]!;
    return start === end || (end - start === 1 && text.charCodeAt(start) === 0x0d);
  };
  let chompStart = count;
  for (let i = count - 1; i >= 0; --i) {
    if (isEmpty(i)) chompStart = i;
    else break;
  }
  if (chompStart === 0) return header.chomp === '+' && count > 0 ? '\n'.repeat(Math.max(1, count - 1)) : '';
  let trimIndent = scalarIndent + header.indent;
  let contentStart = 0;
  for (let i = 0; i < chompStart; ++i) {
    if (isEmpty(i)) {
      if (header.indent === 0 && indentOf(i) > trimIndent) trimIndent = indentOf(i);
    } else {
      if (indentOf(i) < trimIndent) return undefined;
      if (header.indent === 0) trimIndent = indentOf(i);
      contentStart = i;
      if (trimIndent === 0) return undefined;
      break;
    }
  }
  for (let i = count - 1; i >= chompStart; --i) if (indentOf(i) > trimIndent) chompStart = i + 1;
  const pad = (i: number): string => (indentOf(i) > trimIndent ? ' '.repeat(indentOf(i) - trimIndent) : '');
  let value = '';
  for (let i = 0; i < contentStart; ++i) value += `${pad(i)}\n`;
  let sep = '';
  let prevMoreIndented = false;
  const literal = header.mode === '|';
  for (let i = contentStart; i < chompStart; ++i) {
    const indent = lines[3 * i]!;
    const start = lines[3 * i + 1]!;
    let end = lines[3 * i + 2]!;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    if (end > start && indent < trimIndent) return undefined;
    if (literal) {
      value += indent > trimIndent ? `${sep}${pad(i)}${text.slice(start, end)}` : sep + text.slice(start, end);
      sep = '\n';
    } else if (indent > trimIndent || text.charCodeAt(start) === 0x09) {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      value += `${sep}${pad(i)}${text.slice(start, end)}`;
      sep = '\n';
      prevMoreIndented = true;
    } else if (end === start) {
      if (sep === '\n') value += '\n';
      else sep = '\n';
    } else {
      value += sep + text.slice(start, end);
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  return chomped(value, header, chompStart, count, pad);
}

/** `value` with the scalar's final line break(s) as its chomping indicator says. */
function chomped(
  value: string,
  header: BlockHeader,
  chompStart: number,
  count: number,
  pad: (i: number) => string,
): string {
  if (header.chomp === '+') {
    let kept = value;
    for (let i = chompStart; i < count; ++i) kept += `\n${pad(i)}`;
    return kept.endsWith('\n') ? kept : `${kept}\n`;
  }
  return header.chomp === '' ? `${value}\n` : value;
}

/**
 * How the lines after the first in `text.slice(from, to)` sit against `indent` (one pass with indexOf): `exact`: all
 * at `indent` spaces then text not starting with a blank; `indented`: all at `indent` or more, or empty; `short
 * blank`: some blank with fewer spaces; `less`: some with text less indented.
 */
function lineShape(
  text: string,
  from: number,
  to: number,
  indent: number,
): 'exact' | 'indented' | 'short blank' | 'less' {
  // Every line exact: found by one native search; otherwise the lines are looked at one by one.
  if (!notExact(indent).test(text.slice(from, to))) return 'exact';
  let shape: 'exact' | 'indented' | 'short blank' = 'exact';
  for (let lf = text.indexOf('\n', from); lf !== -1 && lf < to; lf = text.indexOf('\n', lf + 1)) {
    let k = lf + 1;
    const stop = k + indent;
    while (k < stop && text.charCodeAt(k) === 0x20) k++;
    const c = text.charCodeAt(k);
    if (k < stop) {
      if (c !== 0x0a && k < to) return 'less';
      if (k > lf + 1) shape = 'short blank';
      else if (shape === 'exact') shape = 'indented';
    } else if (shape === 'exact' && (c === 0x20 || c === 0x09 || c === 0x0a)) {
      shape = 'indented';
    }
  }
  return shape;
}

/** Per indentation: a line break not followed by exactly that indentation and a character other than a blank. */
const notExact = perIndent((indent) => new RegExp(`\\n(?! {${indent}}[^ \\t\\n])`));

/**
 * A block scalar read natively by one replacement when it is regular: content on its first line, no CR, trailing
 * blank lines not more indented; literal: no line less indented than the first (each line loses its indentation);
 * folded: every line at exactly the first one's indentation, none blank or starting with a tab (each break folds
 * into a space). Undefined otherwise (the general reading applies).
 */
function readRegular(
  text: string,
  from: number,
  to: number,
  header: BlockHeader,
  scalarIndent: number,
  indented: boolean,
): string | undefined {
  const indent = spacesAt(text, from);
  const first = text.charCodeAt(from + indent);
  if (from + indent >= to || first === 0x0a || first === 0x0d) return undefined;
  const trimIndent = header.indent === 0 ? indent : scalarIndent + header.indent;
  if (trimIndent === 0 || indent < trimIndent) return undefined;
  // The trailing blank lines (the last line runs to `to`), none more indented than the content.
  let end = to;
  let trailing = 0;
  for (;;) {
    const lineStart = text.lastIndexOf('\n', end - 1) + 1;
    const start = Math.max(lineStart, from);
    const k = spacesAt(text, start);
    if (start + k < end) break; // content
    if (k > trimIndent) return undefined;
    trailing++;
    end = start - 1;
  }
  const region = text.slice(from + trimIndent, end);
  if (region.includes('\r')) return undefined;
  const lines = lineShape(text, from + trimIndent, end, trimIndent);
  let value: string;
  // Many short lines: one loop (a replacement costs ~100 ns per line); long ones: one native replacement.
  const loop = dense(region, '\n');
  if (header.mode === '>') {
    if (lines !== 'exact' || region.charCodeAt(0) <= 0x20) return undefined;
    value = loop
      ? stripIndent(text, from + trimIndent, end, trimIndent, ' ')
      : region.replace(lineBreaks(trimIndent), ' ');
  } else {
    // A line less indented than the first, not blank: the library reports it.
    if (lines === 'less' && !indented) return undefined;
    value = loop
      ? stripIndent(text, from + trimIndent, end, trimIndent, '\n')
      : lines === 'less' || lines === 'short blank'
        ? region.replace(new RegExp(`\\n {0,${trimIndent}}`, 'g'), '\n')
        : region.replace(lineBreaks(trimIndent), '\n');
  }
  if (header.chomp === '+') {
    const kept = value + '\n'.repeat(trailing);
    return kept.endsWith('\n') ? kept : `${kept}\n`;
  }
  return header.chomp === '' ? `${value}\n` : value;
}
