/**
 * The state and shared steps of the YAML subset reader (yaml-subset.ts): the text, the node count against the bound,
 * the positions recorded for diagnostics, blank and comment lines, quotes, and the core schema's plain scalars.
 */

import { byteText } from './yaml-lines.js';
import { dense } from './yaml-fold.js';
import type { ByteText } from './yaml-lines.js';

export const SPACE = 0x20;
export const TAB = 0x09;
export const LF = 0x0a;
export const HASH = 0x23;
export const COLON = 0x3a;
export const DASH = 0x2d;

/** Characters that start something other than a plain scalar, or one left to the library. */
export const INDICATOR = new Uint8Array(128);
for (const c of '-?:,[]{}#&*!|>\'"%@`\t') INDICATOR[c.charCodeAt(0)] = 1;

/** Runs of blank and comment lines (bounded: a regular expression's backtracking stack grows with its repetitions). */
const QUIET = /(?: *(?:#[^\n]*)?\n){1,256}/y;
const QUIET_END = / *(?:#[^\n]*)?$/y;

/** Deepest nesting read here (deeper texts go to the library, which bounds them). */
export const MAX_SUBSET_DEPTH = 64;

/** Thrown to leave the subset: the caller parses with the library. */
export const OUTSIDE = new Error('outside the YAML subset');

/** Thrown for a text the library refuses too, found without it: the message and where. */
export class SubsetProblem {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** The core schema's reading of a plain scalar on one line (the library's tags, in its order). */
export function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most keys and words start with a letter that no tag of the core schema starts with.
  if (s.length > 0 && ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a))) {
    const lower = c | 0x20;
    if (lower !== 0x6e && lower !== 0x74 && lower !== 0x66) return s;
  }
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === 't' || s[0] === 'T';
  if (/^0o[0-7]+$/.test(s)) return Number.parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return Number.parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return Number.parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    if (s.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return Number.parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return Number.parseFloat(s);
  return s;
}

/** `to` moved back over the blanks and line breaks before it, not past `from`. */
export function trimEnd(text: string, from: number, to: number): number {
  let e = to;
  while (e > from) {
    const c = text.charCodeAt(e - 1);
    if (c !== SPACE && c !== TAB && c !== LF) break;
    e--;
  }
  return e;
}

/** The reader's state and the steps every part of it takes. */
export class SubsetCursor {
  protected readonly text: string;
  protected readonly n: number;
  protected readonly maxNodes: number;
  protected nodes = 0;
  protected depth = 0;
  /** The start of the next line with content, once a node is read. */
  protected pos = 0;
  protected readonly keys = new Map<object, Map<string, number>>();
  protected readonly items = new Map<unknown[], number[]>();
  /** The text as bytes for the loops of yaml-lines.ts (null: a character beyond Latin-1), made when first needed. */
  private bytes: ByteText | null | undefined;

  constructor(text: string, maxNodes: number) {
    this.text = text;
    this.n = text.length;
    this.maxNodes = maxNodes;
  }

  /**
   * The text as a {@link ByteText} when `from`..`to` starts with many line breaks or quote pairs (where the loops of
   * yaml-lines.ts beat native replacements), else undefined (also when a character of the text is beyond Latin-1).
   */
  protected denseBytes(from: number, to: number): ByteText | undefined {
    const head = this.text.slice(from, Math.min(to, from + 512));
    if (!dense(head, '\n') && !dense(head, "''")) return undefined;
    if (this.bytes === undefined) this.bytes = byteText(this.text) ?? null;
    return this.bytes ?? undefined;
  }

  protected count(): void {
    if (++this.nodes > this.maxNodes) throw OUTSIDE;
  }

  /** Whether `i` is a space, a line break or the end (a tab after an indicator leaves the subset). */
  protected blankOrEnd(i: number): boolean {
    const c = this.text.charCodeAt(i);
    if (c === TAB) throw OUTSIDE;
    return c === SPACE || c === LF || i >= this.n;
  }

  /** The spaces at the start of the line at `lineStart` (a tab after them leaves the subset). */
  protected indentAt(lineStart: number): number {
    let k = lineStart;
    while (this.text.charCodeAt(k) === SPACE) k++;
    if (this.text.charCodeAt(k) === TAB) throw OUTSIDE;
    return k - lineStart;
  }

  /** The start of the first line from `lineStart` on that is neither blank nor a comment (or the text's end). */
  protected quiet(lineStart: number): number {
    let s = lineStart;
    for (;;) {
      QUIET.lastIndex = s;
      if (!QUIET.test(this.text)) break;
      s = QUIET.lastIndex;
    }
    QUIET_END.lastIndex = s;
    return QUIET_END.test(this.text) ? this.n : s;
  }

  /** The start of the line after the one `i` is on (or the text's end). */
  protected nextLine(i: number): number {
    const lf = this.text.indexOf('\n', i);
    return lf === -1 ? this.n : lf + 1;
  }

  /** The offset of the quote that closes the quoted scalar at `at` (leaves the subset when there is none). */
  protected closingQuote(at: number): number {
    const text = this.text;
    const quote = text[at]!;
    let i = at + 1;
    for (;;) {
      const q = text.indexOf(quote, i);
      if (q === -1) throw OUTSIDE;
      if (quote === "'") {
        if (text.charCodeAt(q + 1) !== 0x27) return q;
        i = q + 2; // '' is a quote
        continue;
      }
      let b = q - 1;
      while (text.charCodeAt(b) === 0x5c) b--;
      if ((q - 1 - b) % 2 === 0) return q;
      i = q + 1;
    }
  }
}
