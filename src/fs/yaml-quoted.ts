/**
 * Long quoted YAML scalars, read in linear time: the YAML library builds a double-quoted value one character at a
 * time (a 1 MB string takes hundreds of milliseconds), so the text it parses holds a short stand-in of the same lines
 * and the value is read here, by runs, with the library's rules (escapes, line folding, trailing blanks). Offsets in
 * the parsed text map back to the original text.
 */

/** Quoted scalars at least this long (source characters, quotes included) are read here. */
export const LONG_QUOTED = 256;

const ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  '\t': '\t',
});

/** A problem inside a double-quoted scalar, at an offset of the whole text. */
export interface QuotedProblem {
  message: string;
  offset: number;
}

function isWhite(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/**
 * The value of the quoted scalar `text.slice(start, end)` (quotes included, double or single), or its first
 * problem. The rules are the YAML library's, so a long scalar reads exactly as a short one does.
 */
export function readQuoted(text: string, start: number, end: number): { value: string } | QuotedProblem {
  const parts: string[] = [];
  const last = end - 1; // the closing quote
  const single = text[start] === "'";
  const special = single ? /['\n]/g : /[\\\n]/g;
  let i = start + 1;
  for (;;) {
    special.lastIndex = i;
    const found = special.exec(text);
    const at = found === null || found.index >= last ? last : found.index;
    if (at === last) {
      parts.push(text.slice(i, last));
      break;
    }
    if (text[at] === '\n') {
      // Blanks (and a CR) before a line break are dropped.
      let e = at;
      if (e > i && text[e - 1] === '\r') e--;
      while (e > i && isWhite(text[e - 1])) e--;
      parts.push(text.slice(i, e));
      // A line break folds into a space; n + 1 breaks (blank lines) into n newlines; the next line's indent goes.
      let fold = '';
      let k = at;
      let c = text[k + 1];
      while (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        if (c === '\r' && text[k + 2] !== '\n') break;
        if (c === '\n') fold += '\n';
        k++;
        c = text[k + 1];
      }
      parts.push(fold === '' ? ' ' : fold);
      i = k + 1;
      continue;
    }
    parts.push(text.slice(i, at));
    const next = text[at + 1];
    if (single) {
      parts.push("'"); // '' is one quote
      i = at + 2;
    } else if (next !== undefined && Object.hasOwn(ESCAPES, next)) {
      parts.push(ESCAPES[next]!);
      i = at + 2;
    } else if (next === '\n' || (next === '\r' && text[at + 2] === '\n')) {
      // An escaped line break joins the lines; the next line's indent still goes.
      let k = at + (next === '\n' ? 2 : 3);
      while (isWhite(text[k])) k++;
      i = k;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = text.slice(at + 2, at + 2 + length);
      const code = hex.length === length && /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
      if (Number.isNaN(code) || code > 0x10ffff) {
        return { message: `Invalid escape sequence ${text.slice(at, at + 2 + length)}`, offset: at };
      }
      parts.push(String.fromCodePoint(code));
      i = at + 2 + length;
    } else {
      return { message: `Invalid escape sequence ${text.slice(at, at + 2)}`, offset: at };
    }
  }
  return { value: parts.join('') };
}

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
 * The stand-in of a quoted scalar: single-quoted, each line reduced to its leading blanks and one `x` (a document
 * marker kept), so the parser sees the same lines and indentation (and reports the same indentation errors).
 */
function standIn(text: string, start: number, end: number): string {
  const lines = text.slice(start + 1, end - 1).split('\n');
  const out = lines.map((line, i) => {
    const cr = line.endsWith('\r') && i < lines.length - 1 ? '\r' : '';
    const body = cr === '' ? line : line.slice(0, -1);
    if (i === 0) return body === '' ? cr : `x${cr}`;
    const lead = /^[ \t]*/.exec(body)![0];
    const rest = body.slice(lead.length);
    if (rest === '') return `${lead}${cr}`;
    return `${lead}${MARKER.exec(rest)?.[0] ?? ''}x${cr}`;
  });
  return `'${out.join('\n')}'`;
}

/** `text` with each listed scalar (sorted, not overlapping) replaced by its stand-in. */
export function maskQuoted(text: string, scalars: readonly (readonly [number, number])[]): MaskedText {
  if (scalars.length === 0) return { text, original: (offset) => offset, standIns: [] };
  const out: string[] = [];
  const standIns: number[] = [];
  const standInEnds: number[] = [];
  let from = 0;
  let length = 0;
  for (const [start, end] of scalars) {
    const before = text.slice(from, start);
    const replacement = standIn(text, start, end);
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
      const [start, end] = scalars[found]!;
      return offset < standInEnds[found]! ? start : end + (offset - standInEnds[found]!);
    },
  };
}
