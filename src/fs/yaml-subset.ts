/**
 * The subset of YAML that prompt files use (block mappings with plain or quoted keys, block sequences, flow
 * collections of scalars, plain, quoted and block scalars, comments), read in one linear pass without the YAML
 * library, which spends microseconds on every node and line (CRLF line breaks read as LF). Anything outside the
 * subset (anchors, aliases, tags, explicit keys, tabs in the structure, a carriage return alone, duplicate keys,
 * comments inside flow collections) or anything the library might read otherwise or refuse makes the reader give up,
 * and the caller parses the text with the library. Differential tests hold both to one value and position.
 */
import { setOwn, unescapePointerSegment } from '../json.js';
import { blockHeader, findBlockScalar, readFoundBlock } from './yaml-block.js';
import { foldPlainLines, readBlockLines, withoutCarriageReturns } from './yaml-lines.js';
import { dense, readFolded, stripIndent } from './yaml-fold.js';
import { lineBreaks, readPlainLines, readQuoted } from './yaml-quoted.js';
import {
  COLON,
  DASH,
  HASH,
  INDICATOR,
  LF,
  MAX_SUBSET_DEPTH,
  OUTSIDE,
  SubsetProblem,
  SPACE,
  TAB,
  resolvePlain,
  trimEnd,
} from './yaml-subset-cursor.js';
import { MAX_KEY } from './yaml-shape.js';
import { FlowReader } from './yaml-subset-flow.js';
import { perIndent } from './indent-patterns.js';

/** A text read by {@link readYamlSubset}: its value and where a JSON pointer's node starts. */
export interface SubsetRead {
  value: unknown;
  /** The offset of the node a pointer names (a mapping member's key) in {@link SubsetRead.text}. */
  offsetOf(pointer: string): number | undefined;
  /** The text read: the given one with CRLF line breaks written LF (a line and column in it are the same there). */
  text: string;
}

/** On a plain scalar's first line: a key indicator, a comment, or the line's end. */
const PLAIN_STOP = /:(?=[ \t\n]|$)|[ \t]#|\n/g;
/** In a plain scalar's later lines: a key indicator or a comment (both leave the subset). */
const PLAIN_LATER = /:(?:[ \t\n]|$)|[ \t]#/;
const NOT_BLANK = /[^ \n]/;

/** Per indentation: runs of plain lines at exactly that indentation (or empty), without `:`, `#` or trailing blanks. */
const uniformLines = perIndent(
  (indent) => new RegExp(`(?: {${indent}}[^ \\t\\n#:-](?:[^\\n:#]*[^ \\t\\n:#])?\\n|\\n){1,256}`, 'y'),
);

/** Per indentation: a line break, the empty lines after it (kept), and the indentation of the next line. */
const paragraphBreaks = perIndent((indent) => new RegExp(`\\n(\\n+) {${indent}}`, 'g'));

/** Per parent indentation: runs of plain lines past it (or empty), without `:`, `#` or trailing blanks. */
const cleanLines = perIndent(
  (parent) => new RegExp(`(?: {${parent + 1},}[^ \\t\\n#:-](?:[^\\n:#]*[^ \\t\\n:#])?\\n|\\n){1,256}`, 'y'),
);

/** Per parent indentation: runs of lines that go on a plain scalar (blank, or past the parent's indentation). */
const continuations = perIndent(
  (parent) => new RegExp(`(?: *\\n| {${parent + 1},}(?:[^ \\t\\n#-]|-[^ \\t\\n])[^\\n]*\\n){1,256}`, 'y'),
);

/**
 * Reads `text` when it keeps to the subset (see above) and holds at most `maxNodes` nodes; refuses it with the problem
 * and its offset when it holds one the library refuses too (a quoted string's line not indented enough); undefined
 * otherwise (the library then parses it, and reports any problem).
 */
export function readYamlSubset(
  text: string,
  maxNodes: number,
): SubsetRead | { problem: SubsetProblem; text: string } | undefined {
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  const read = text.includes('\r') ? withoutCarriageReturns(text) : text;
  if (read === undefined) return undefined;
  try {
    return new SubsetReader(read, maxNodes).read();
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    if (error instanceof SubsetProblem) return { problem: error, text: read };
    throw error;
  }
}

class SubsetReader extends FlowReader {
  read(): SubsetRead {
    const start = this.quiet(0);
    if (start >= this.n || this.indentAt(start) !== 0) throw OUTSIDE;
    const c = this.text.charCodeAt(start);
    if (!(c === DASH && this.blankOrEnd(start + 1)) && this.keyAt(start) === undefined) throw OUTSIDE;
    const value = this.block(start, -1);
    if (this.pos < this.n) throw OUTSIDE;
    return { value, offsetOf: (pointer) => this.offsetOf(value, start, pointer), text: this.text };
  }

  private offsetOf(root: unknown, rootAt: number, pointer: string): number | undefined {
    if (pointer === '') return rootAt;
    let node = root;
    let at: number | undefined = rootAt;
    for (const raw of pointer.slice(1).split('/')) {
      const segment = unescapePointerSegment(raw);
      if (Array.isArray(node)) {
        if (!/^\d+$/.test(segment)) return undefined;
        at = this.items.get(node)?.[Number(segment)];
        node = node[Number(segment)];
      } else if (node !== null && typeof node === 'object') {
        at = this.keys.get(node)?.get(segment);
        node = Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
      } else {
        return undefined;
      }
      if (at === undefined) return undefined;
    }
    return at;
  }

  /** The node whose first line starts at `lineStart`, inside a parent indented `parent`. */
  private block(lineStart: number, parent: number): unknown {
    if (++this.depth > MAX_SUBSET_DEPTH) throw OUTSIDE;
    const indent = this.indentAt(lineStart);
    const at = lineStart + indent;
    let value: unknown;
    if (this.text.charCodeAt(at) === DASH && this.blankOrEnd(at + 1)) value = this.sequence(lineStart, indent);
    else {
      const key = this.keyAt(at);
      value = key === undefined ? this.scalar(at, parent) : this.mapping(key, indent);
    }
    this.depth--;
    return value;
  }

  /**
   * The implicit key at `at` (plain or quoted, on one line, followed by `:` and a blank): its value and the offset after
   * the colon. Undefined when the line holds no key there.
   */
  private keyAt(at: number): { key: string; at: number; after: number } | undefined {
    const text = this.text;
    const c = text.charCodeAt(at);
    let key: string;
    let end: number;
    if (c === 0x22 || c === 0x27) {
      const close = this.closingQuote(at);
      const lf = text.indexOf('\n', at);
      if (lf !== -1 && lf < close) return undefined;
      const read = readQuoted(text, at, close + 1);
      if (!('value' in read)) throw OUTSIDE;
      key = read.value;
      end = close + 1;
      while (text.charCodeAt(end) === SPACE) end++;
      if (text.charCodeAt(end) !== COLON || !this.blankOrEnd(end + 1)) return undefined;
      if (end - at > MAX_KEY) throw OUTSIDE;
    } else {
      if (c < 128 && INDICATOR[c] === 1) return undefined;
      let i = at;
      for (;;) {
        const d = text.charCodeAt(i);
        if (d === LF || i >= this.n) return undefined;
        if (d === COLON && this.blankOrEnd(i + 1)) break;
        if (d === HASH && (text.charCodeAt(i - 1) === SPACE || text.charCodeAt(i - 1) === TAB)) return undefined;
        if (d === TAB) throw OUTSIDE;
        i++;
      }
      end = i;
      let e = i;
      while (text.charCodeAt(e - 1) === SPACE) e--;
      if (e - at > MAX_KEY) throw OUTSIDE;
      // A key that reads as null, a boolean or a number becomes the property the library names it by.
      const resolved = resolvePlain(text.slice(at, e));
      key = resolved === null ? '' : String(resolved);
    }
    return { key, at, after: end + 1 };
  }

  /** A block mapping indented `indent`, its first key read. */
  private mapping(first: { key: string; at: number; after: number }, indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    const offsets = new Map<string, number>();
    this.keys.set(map, offsets);
    this.count();
    let key = first;
    for (;;) {
      this.count();
      if (Object.hasOwn(map, key.key)) throw OUTSIDE;
      setOwn(map, key.key, this.valueAfter(key.after, indent));
      offsets.set(key.key, key.at);
      const next = this.pos;
      if (next >= this.n) break;
      const at = this.indentAt(next);
      if (at < indent) break;
      if (at > indent) throw OUTSIDE;
      const found = this.keyAt(next + at);
      if (found === undefined) {
        if (this.text.charCodeAt(next + at) === DASH && this.blankOrEnd(next + at + 1)) break;
        throw OUTSIDE;
      }
      key = found;
    }
    return map;
  }

  /** The value after a key's colon at `after`, in a mapping indented `indent`. */
  private valueAfter(after: number, indent: number): unknown {
    const text = this.text;
    let i = after;
    while (text.charCodeAt(i) === SPACE) i++;
    const c = text.charCodeAt(i);
    if (i < this.n && c !== LF && !(c === HASH && i > after)) return this.scalar(i, indent);
    const next = this.quiet(this.nextLine(i));
    if (next < this.n) {
      const at = this.indentAt(next);
      if (at > indent) return this.block(next, indent);
      if (at === indent && text.charCodeAt(next + at) === DASH && this.blankOrEnd(next + at + 1))
        return this.block(next, indent - 1);
    }
    this.count();
    this.pos = next;
    return null;
  }

  /** A block sequence whose entries' dashes are at column `indent` of their lines. */
  private sequence(lineStart: number, indent: number): unknown[] {
    const text = this.text;
    const list: unknown[] = [];
    const offsets: number[] = [];
    this.items.set(list, offsets);
    this.count();
    let line = lineStart;
    for (;;) {
      this.count();
      const dash = line + indent;
      let i = dash + 1;
      while (text.charCodeAt(i) === SPACE) i++;
      const c = text.charCodeAt(i);
      if (i >= this.n || c === LF || (c === HASH && i > dash + 1)) {
        const next = this.quiet(this.nextLine(i));
        if (next >= this.n || this.indentAt(next) <= indent) throw OUTSIDE; // an empty entry
        offsets.push(next + this.indentAt(next));
        list.push(this.block(next, indent));
      } else {
        if (c === DASH && this.blankOrEnd(i + 1)) throw OUTSIDE; // a compact nested sequence
        offsets.push(i);
        const key = this.keyAt(i);
        if (key === undefined) list.push(this.scalar(i, indent));
        else {
          if (++this.depth > MAX_SUBSET_DEPTH) throw OUTSIDE;
          list.push(this.mapping(key, i - line));
          this.depth--;
        }
      }
      const next = this.pos;
      if (next >= this.n) break;
      const at = this.indentAt(next);
      if (at === indent && text.charCodeAt(next + at) === DASH && this.blankOrEnd(next + at + 1)) {
        line = next;
        continue;
      }
      if (at > indent) throw OUTSIDE;
      break;
    }
    return list;
  }

  /** The scalar at `at`, in a parent indented `parent`; moves on to the next line with content. */
  private scalar(at: number, parent: number): unknown {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c === 0x5b || c === 0x7b) return this.flowCollection(at, parent);
    this.count();
    if (c === 0x22 || c === 0x27) return this.quoted(at, parent);
    if (c === 0x7c || c === 0x3e) return this.blockScalar(at, parent);
    if (c < 128 && INDICATOR[c] === 1 && !(c === DASH && !this.blankOrEnd(at + 1))) throw OUTSIDE;
    return this.plain(at, parent);
  }

  private quoted(at: number, parent: number): string {
    const text = this.text;
    const close = this.closingQuote(at);
    const lf = text.indexOf('\n', at);
    const lines = lf !== -1 && lf < close;
    // Lines after the first must be indented past the parent: the second line is checked before reading them all.
    if (lines) this.indentedPast(lf + 1, lf + 2, at, parent);
    const read = readQuoted(text, at, close + 1, this.denseBytes(at + 1, close));
    if (!('value' in read)) throw OUTSIDE;
    if (lines && read.indent === undefined) throw OUTSIDE;
    if (lines && read.indent! <= parent) {
      this.indentedPast(lf + 1, close, at, parent);
      throw OUTSIDE;
    }
    let i = close + 1;
    while (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB) i++;
    const d = text.charCodeAt(i);
    if (i < this.n && d !== LF && !(d === HASH && i > close + 1)) throw OUTSIDE;
    this.pos = this.quiet(this.nextLine(i));
    return read.value;
  }

  /**
   * Refuses the first line starting in `[from, to]` of the quoted scalar at `quote` that is not blank and not indented
   * past `parent` (the library refuses it too); leaves the subset where the library might read it otherwise.
   */
  private indentedPast(from: number, to: number, quote: number, parent: number): void {
    const text = this.text;
    for (let line = from; line <= to; line = this.nextLine(line)) {
      let k = line;
      while (text.charCodeAt(k) === SPACE) k++;
      const c = text.charCodeAt(k);
      if (c === LF || k - line > parent) continue;
      // Where the library's reading is less plain (a marker, a tab, a comment sign or an escaped quote), it decides.
      if (c === TAB || c === text.charCodeAt(quote) || (k === line && /^(?:---|\.\.\.)/.test(text.slice(k, k + 3))))
        throw OUTSIDE;
      if (/#|''|\\"/.test(text.slice(quote, this.closingQuote(quote)))) throw OUTSIDE;
      throw new SubsetProblem(
        `Missing closing ${text[quote]}quote: a line of a quoted string must be indented more than ${parent} spaces here`,
        k,
      );
    }
  }

  private blockScalar(at: number, parent: number): string {
    const text = this.text;
    // An explicit indentation indicator (`|2`, `>-1`) is left to the library, before the block is read.
    if (/^[|>][+-]?[1-9]/.test(text.slice(at, at + 3))) throw OUTSIDE;
    const lines = this.blockLines(at, parent);
    if (lines !== undefined) return lines;
    const block = findBlockScalar(text, at, 0);
    if (block === undefined || block.header.indent !== 0) throw OUTSIDE;
    // The first line with text must be indented past the parent.
    let s = block.start + block.headerLength;
    for (;;) {
      let k = s;
      while (text.charCodeAt(k) === SPACE) k++;
      if (text.charCodeAt(k) !== LF) {
        if (k - s <= parent) throw OUTSIDE;
        break;
      }
      s = k + 1;
    }
    const value = readFoundBlock(text, block);
    if (value === undefined) throw OUTSIDE;
    this.pos = this.quiet(block.end);
    return value;
  }

  /** A block scalar whose content is indented past `parent`, read from bytes; else undefined. */
  private blockLines(at: number, parent: number): string | undefined {
    const found = blockHeader(this.text, at);
    if (found === undefined) return undefined;
    const first = at + found.length;
    const bytes = this.denseBytes(first, this.n);
    if (bytes === undefined) return undefined;
    const read = readBlockLines(bytes, first, parent, found.header.mode === '|', found.header.chomp);
    if (read === undefined) return undefined;
    this.pos = this.quiet(read.end);
    return read.value;
  }

  /**
   * The common plain scalar over lines: every later line past the parent, without a key indicator, comment sign or
   * trailing blank, found by native runs (lines at one indentation first) and folded at once; undefined otherwise
   * (the general reading applies).
   */
  private cleanPlain(at: number, lineEnd: number, parent: number): string | undefined {
    const text = this.text;
    let s = lineEnd + 1;
    let d = s;
    while (text.charCodeAt(d) === SPACE) d++;
    const indent = d - s;
    if (indent <= parent) return undefined;
    const bytes = this.denseBytes(s, this.n);
    if (bytes !== undefined) {
      const read = foldPlainLines(bytes, s, parent);
      if (read === undefined) return undefined;
      const next = this.quiet(read.end);
      if (next < this.n && this.indentAt(next) > parent) {
        // A key indicator or comment on the line that stopped the loop leaves the subset however the lines are read.
        if (next === read.end && text.charCodeAt(next + this.indentAt(next)) !== HASH) {
          const lf = text.indexOf('\n', next);
          if (PLAIN_LATER.test(text.slice(next, lf === -1 ? this.n : lf))) throw OUTSIDE;
        }
        return undefined;
      }
      this.pos = next;
      return text.slice(at, lineEnd) + read.folded;
    }
    const uniform = uniformLines(indent);
    for (;;) {
      uniform.lastIndex = s;
      if (!uniform.test(text)) break;
      s = uniform.lastIndex;
    }
    let regular = true;
    const clean = cleanLines(parent);
    for (;;) {
      clean.lastIndex = s;
      if (!clean.test(text)) break;
      s = clean.lastIndex;
      regular = false;
    }
    if (s === lineEnd + 1) return undefined;
    const next = this.quiet(s);
    if (next < this.n && this.indentAt(next) > parent) return undefined;
    this.pos = next;
    const end = trimEnd(text, at, s);
    const body = text.slice(at, end);
    const many = dense(body, '\n');
    const paragraphs = body.includes('\n\n');
    if (!regular || (paragraphs && many)) {
      const read = readFolded(text, at, end, 'plain');
      if ('message' in read) throw OUTSIDE;
      return read.value;
    }
    // A break before blank lines keeps one line break per blank line; any other break is a space.
    if (paragraphs) return body.replace(paragraphBreaks(indent), '$1').replace(lineBreaks(indent), ' ');
    return many ? stripIndent(text, at, end, indent, ' ') : body.replace(lineBreaks(indent), ' ');
  }

  private plain(at: number, parent: number): unknown {
    const text = this.text;
    const n = this.n;
    PLAIN_STOP.lastIndex = at;
    const stop = PLAIN_STOP.exec(text);
    const lineEnd = stop === null ? n : stop.index;
    const c = stop === null ? LF : text.charCodeAt(lineEnd);
    if (c === COLON) throw OUTSIDE;
    let end = trimEnd(text, at, lineEnd);
    if (c !== LF) {
      // A comment ends the scalar: nothing may follow on indented lines (the parent checks the next line).
      this.pos = this.quiet(this.nextLine(lineEnd));
      return resolvePlain(text.slice(at, end));
    }
    if (end === lineEnd && lineEnd < n) {
      const folded = this.cleanPlain(at, lineEnd, parent);
      if (folded !== undefined) return folded;
    }
    let s = Math.min(lineEnd + 1, n);
    const runs = continuations(parent);
    let last = -1;
    for (;;) {
      runs.lastIndex = s;
      if (!runs.test(text)) break;
      const e = runs.lastIndex;
      if (NOT_BLANK.test(text.slice(s, e))) last = e;
      s = e;
    }
    if (s < n) {
      // The line the runs stopped at: the parent's, a comment, the last line (no line break), or outside the subset.
      let k = s;
      while (text.charCodeAt(k) === SPACE) k++;
      const d = text.charCodeAt(k);
      if (k < n && k - s > parent && d !== HASH) {
        if (d === TAB || (d === DASH && this.blankOrEnd(k + 1)) || text.includes('\n', k)) throw OUTSIDE;
        last = n;
        s = n;
      }
    }
    if (last !== -1) {
      end = trimEnd(text, lineEnd, last);
      if (PLAIN_LATER.test(text.slice(lineEnd, end))) throw OUTSIDE;
    }
    this.pos = this.quiet(s);
    if (last === -1) return resolvePlain(text.slice(at, end));
    const read = readPlainLines(text, at, end);
    if (read === undefined) throw OUTSIDE;
    return read.value;
  }
}
