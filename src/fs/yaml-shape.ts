/**
 * A linear pre-check of a YAML text's shape (nodes, nesting, aliases), run before the YAML parser: the parser's work
 * grows with the node count (and worse with aliases), so an oversized shape is refused here, in time proportional to
 * the text, with the place where it crosses the limit. Counts are upper estimates: every scalar, key, sequence entry,
 * collection and alias counts one node; a scalar counts one whatever its length and however many lines it runs over
 * (the lines a plain scalar goes on over, as the library's lexer continues it, the lines of a quoted or block scalar).
 */
import { LONG_QUOTED } from './yaml-quoted.js';
import { perIndent } from './indent-patterns.js';

/** The bounds {@link checkYamlShape} enforces. */
export interface YamlShapeLimits {
  /** Most nodes (scalars, keys, entries, collections, aliases). */
  maxNodes: number;
  /** Deepest nesting (block indentation levels, compact `- ` entries and flow brackets together). */
  maxDepth: number;
  /** Most aliases (`*name`). */
  maxAliases: number;
}

/** Where and why a text was refused. */
export interface YamlShapeProblem {
  message: string;
  offset: number;
  /** A second document starts at `offset`: the first one's own problems come first (the library reports them so). */
  secondDocument?: true;
}

/** YAML's own limit on an implicit key's length. */
export const MAX_KEY = 1024;

/**
 * Most lines (blank ones too) a plain scalar inside a flow collection may span: the library reads each line of one for
 * about a microsecond, and nothing reads them faster (outside flow collections such scalars are read without it).
 */
export const MAX_FLOW_PLAIN_LINES = 1_000;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

function isBreakOrEnd(c: number): boolean {
  return Number.isNaN(c) || c === LF || c === CR;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || isBreakOrEnd(c);
}

/** `,[]{}`: flow indicators end plain scalars, anchors and aliases inside a flow collection. */
function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}

/**
 * What {@link checkYamlShape} found: the first limit crossed, or the long quoted scalars (start, end) to read apart.
 */
export type YamlShape =
  | { problem: YamlShapeProblem }
  | {
      problem?: undefined;
      longQuoted: [number, number][];
      blocks: number[];
      longPlain: [number, number][];
      /** Runs of whole lines, blank or comments, outside any scalar (block context): the parser need not see them. */
      quiet: [number, number][];
    };

/** Checks `text` against `limits` in one pass. */
export function checkYamlShape(text: string, limits: YamlShapeLimits): YamlShape {
  const blocks: number[] = [];
  const longPlain: [number, number][] = [];
  const quiet: [number, number][] = [];
  const problem = scan(text, limits, blocks, longPlain, quiet);
  return 'message' in problem ? { problem } : { longQuoted: problem, blocks, longPlain, quiet };
}

/**
 * Scans `text`; the offsets of untagged block scalar indicators go to `blocks`, the extents of long untagged plain
 * scalars over several lines (block context) to `longPlain`, the runs of blank and comment lines outside scalars to
 * `quietLines`.
 */
function scan(
  text: string,
  limits: YamlShapeLimits,
  blocks: number[],
  longPlain: [number, number][],
  quietLines: [number, number][],
): YamlShapeProblem | [number, number][] {
  const n = text.length;
  const longQuoted: [number, number][] = [];
  /** Where the last tag ended: a tagged scalar is left to the YAML library whole. */
  let taggedAt = -1;
  const indents: number[] = [];
  let nodes = 0;
  let aliases = 0;
  /** `---` markers so far, and whether a `...` marker or a directive ended a document. */
  let markers = 0;
  let ended = false;
  let flow = 0;
  /** An open block scalar: its parent's indentation, and its content's once the first content line is seen. */
  let block: { parent: number; content: number | undefined; run?: RegExp } | undefined;
  /** A plain scalar that reached the end of its line: the indentation its next lines need to go on (0 in flow). */
  let plain: number | undefined;
  /** The open plain scalar's start and the end of its text so far (block context, untagged), and its lines. */
  let run: { start: number; end: number; lines: number } | undefined;
  const closeRun = (): void => {
    if (run !== undefined && run.lines > 1 && run.end - run.start >= LONG_QUOTED) longPlain.push([run.start, run.end]);
    run = undefined;
  };
  /** The end of a plain scalar's text ending at `k` (its trailing blanks left out). */
  const textEnd = (k: number): number => {
    let e = k;
    while (
      e > 0 &&
      (text.charCodeAt(e - 1) === SPACE || text.charCodeAt(e - 1) === TAB || text.charCodeAt(e - 1) === CR)
    )
      e--;
    return e;
  };
  let i = 0;
  /** Blank lines after a plain scalar's line, left out only if the line after them ends the scalar. */
  let pending: number | undefined;
  /** The lines of the plain scalar open inside a flow collection. */
  let flowPlainLines = 0;
  const longFlowPlain = (at: number): YamlShapeProblem => ({
    message: `a plain scalar inside a flow collection over more than ${MAX_FLOW_PLAIN_LINES} lines (quote it, or write it as a block scalar)`,
    offset: at,
  });
  /** Adds the whole lines `text.slice(from, to)` to the lines the YAML library need not see (runs merged). */
  const quiet = (from: number, to: number): void => {
    const last = quietLines[quietLines.length - 1];
    if (last !== undefined && last[1] === from) last[1] = to;
    else quietLines.push([from, to]);
  };
  /** The next backslash (found once, kept until passed). */
  const backslashes = nextOf(text, '\\');

  const endOfLine = (from: number): number => {
    const lf = text.indexOf('\n', from);
    return lf === -1 ? n + 1 : lf + 1;
  };
  const tooMany = (at: number): YamlShapeProblem => ({
    message: `more than ${limits.maxNodes} YAML nodes (keys, values and entries): the file is too large to parse safely`,
    offset: at,
  });
  const tooDeep = (at: number): YamlShapeProblem => ({
    message: `nesting deeper than ${limits.maxDepth} levels`,
    offset: at,
  });

  while (i < n) {
    if (block?.content !== undefined) {
      // Lines of the open block scalar, skipped natively in bounded runs (indented enough, or blank).
      block.run ??= new RegExp(`(?: {${block.content}}[^\\n]*\\n| *\\r?\\n){1,256}`, 'y');
      const run = block.run;
      for (;;) {
        run.lastIndex = i;
        if (!run.test(text)) break;
        i = run.lastIndex;
      }
      if (i >= n) break;
    }
    if (plain !== undefined && plain > 0 && flow === 0) {
      // The lines a plain scalar plainly goes on over, skipped a few indexOf calls a line.
      const lines = plainLines(text, i, plain);
      if (lines.lastText !== -1 && run !== undefined) {
        run.end = textEnd(lines.lastText);
        run.lines++;
      }
      if (lines.lastText !== -1) pending = undefined;
      else if (lines.next > i) pending ??= i;
      i = lines.next;
      if (i >= n) break;
    }
    if (block === undefined && plain === undefined) {
      // Blank and comment lines outside any scalar (inside a flow collection too), skipped natively (in bounded runs)
      // and left out of the parse.
      const from = i;
      for (;;) {
        QUIET_LINES.lastIndex = i;
        if (!QUIET_LINES.test(text)) break;
        i = QUIET_LINES.lastIndex;
      }
      if (i > from) quiet(from, i);
      if (i >= n) break;
    }
    // The start of a line.
    let j = i;
    while (j < n && text.charCodeAt(j) === SPACE) j++;
    const indent = j - i;
    const first = text.charCodeAt(j);
    // After a `...` marker or a directive line the library decides where the next document starts.
    if (indent === 0 && (first === 0x25 || (first === 0x2e && isMarker(text, j)))) ended = true;
    // Whether this line, blank or a comment, may be left out of what the YAML library parses (outside any scalar).
    const quietable = block === undefined && plain === undefined;
    if (isBreakOrEnd(first)) {
      if (plain !== undefined && flow > 0 && ++flowPlainLines > MAX_FLOW_PLAIN_LINES) return longFlowPlain(i);
      const next = endOfLine(j);
      if (block === undefined && next <= n && (first === LF || text.charCodeAt(j + 1) === LF)) {
        if (plain === undefined) quiet(i, next);
        else if (flow === 0) pending ??= i; // blank lines after a plain scalar's line: left out if the next line ends it
      }
      i = next;
      continue;
    }
    if (block !== undefined) {
      if (block.content === undefined && indent > block.parent) block.content = indent;
      if (block.content !== undefined && indent >= block.content) {
        i = endOfLine(j);
        continue;
      }
      block = undefined;
    }
    // A plain scalar left open by the last line goes on here (as the library's lexer continues it): no new node.
    let k = j;
    if (plain !== undefined) {
      const ends =
        first === 0x23 ||
        (first === 0x3a &&
          (isBlank(text.charCodeAt(j + 1)) || (flow > 0 && isFlowIndicator(text.charCodeAt(j + 1))))) ||
        (flow === 0 && (indent < plain || (indent === 0 && isMarker(text, j))));
      const open = plain;
      plain = undefined;
      if (pending !== undefined && ends) quiet(pending, i);
      pending = undefined;
      if (!ends) {
        if (flow > 0 && ++flowPlainLines > MAX_FLOW_PLAIN_LINES) return longFlowPlain(j);
        k = plainEnd(text, j, flow > 0);
        if (run !== undefined && text.charCodeAt(k) !== 0x3a) {
          run.end = textEnd(k);
          run.lines++;
        }
        if (isBreakOrEnd(text.charCodeAt(k))) {
          plain = open;
          i = endOfLine(k);
          continue;
        }
        if (text.charCodeAt(k) === 0x3a) run = undefined;
      }
      closeRun();
      if (!ends) {
        // A `: ` after continued lines: a key over several lines (an error the parser reports); it counts one node.
        if (text.charCodeAt(k) === 0x3a && ++nodes > limits.maxNodes) return tooMany(j);
        // A comment ends the line; in a flow collection the rest of the line is read as usual.
        if (flow === 0 && text.charCodeAt(k) !== 0x3a) {
          i = endOfLine(k);
          continue;
        }
      }
    }
    if (k === j && (first === 0x23 /* # */ || (indent === 0 && first === 0x25)) /* % directive */) {
      const next = endOfLine(j);
      if (first === 0x23 && quietable && next <= n) quiet(i, next);
      i = next;
      continue;
    }
    if (flow === 0 && k === j) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      if (indents.length > limits.maxDepth) return tooDeep(j);
    }
    let compact = 0;
    // The column after the line's leading `- `, `? `, `: ` indicators (the lexer's indentation for a `key: value`).
    let base = indent;
    let leading = true;
    // Where a plain scalar ending this line must have its next lines to go on (the lexer's rule): one column past
    // the indicator before it, or past the enclosing block for a scalar alone on its line.
    let goOn = indents.length >= 2 ? indents[indents.length - 2]! + 1 : 0;
    // The content of the line (quoted scalars and flow collections may run on over the next lines).
    let lineDone = false;
    while (!lineDone) {
      const c = text.charCodeAt(k);
      if (isBreakOrEnd(c)) break;
      const next = text.charCodeAt(k + 1);
      const indicator = (c === 0x2d /* - */ || c === 0x3f /* ? */ || c === 0x3a) /* : */ && isBlank(next);
      if (c !== SPACE && c !== TAB && !indicator) leading = false;
      if (c === SPACE || c === TAB) {
        k++;
      } else if (c === 0x23 /* # */ && (k === j || isBlank(text.charCodeAt(k - 1)))) {
        break;
      } else if (indicator) {
        if (c === 0x2d && flow === 0) {
          compact++;
          if (indents.length + compact > limits.maxDepth) return tooDeep(k);
        }
        if (c !== 0x3a && ++nodes > limits.maxNodes) return tooMany(k);
        if (flow === 0) {
          if (leading) {
            goOn = k - i + 1;
            let after = k + 1;
            while (text.charCodeAt(after) === SPACE) after++;
            base = after - i;
          } else {
            goOn = base + 1; // the value of a `key: `
          }
        }
        k++;
      } else if (
        c === 0x2d &&
        indent === 0 &&
        k === j &&
        text.startsWith('---', k) &&
        isBlank(text.charCodeAt(k + 3))
      ) {
        // A document marker: a second document (the library parses every one before refusing them) is refused here.
        if ((nodes > 0 || aliases > 0 || markers > 0) && !ended)
          return {
            message: 'Source contains multiple documents; please use YAML.parseAllDocuments()',
            offset: k,
            secondDocument: true,
          };
        markers++;
        k += 3;
        goOn = 0;
      } else if (c === 0x5b || c === 0x7b) {
        flow++;
        if (++nodes > limits.maxNodes) return tooMany(k);
        if (indents.length + compact + flow > limits.maxDepth) return tooDeep(k);
        k++;
      } else if ((c === 0x5d || c === 0x7d) && flow > 0) {
        flow--;
        k++;
      } else if ((c === 0x2c || c === 0x3a) && flow > 0) {
        k++;
      } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
        if (++nodes > limits.maxNodes) return tooMany(k);
        const start = k;
        k = closingQuote(text, k, c, backslashes);
        if (k > n) return longQuoted; // unterminated: the parser reports it
        if (
          k - start >= LONG_QUOTED &&
          !(taggedAt >= 0 && start - taggedAt <= 64 && /^\s*$/.test(text.slice(taggedAt, start)))
        ) {
          let after = k;
          while (text.charCodeAt(after) === SPACE || text.charCodeAt(after) === TAB) after++;
          if (text.charCodeAt(after) !== 0x3a /* : an implicit key: left to the parser */) longQuoted.push([start, k]);
          else if (k - start > MAX_KEY)
            return { message: `a mapping key longer than ${MAX_KEY} characters`, offset: start };
        }
        // A quoted scalar over several lines: the rest of its last line is scanned as the same line.
      } else if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
        k++;
        while (k < n && !isBlank(text.charCodeAt(k)) && !(flow > 0 && isFlowIndicator(text.charCodeAt(k)))) k++;
        if (c === 0x21) taggedAt = k;
      } else if (c === 0x2a /* * */) {
        if (++aliases > limits.maxAliases) {
          return {
            message: `more than ${limits.maxAliases} aliases: the file is refused rather than expanded`,
            offset: k,
          };
        }
        if (++nodes > limits.maxNodes) return tooMany(k);
        k++;
        while (k < n && !isBlank(text.charCodeAt(k)) && !(flow > 0 && isFlowIndicator(text.charCodeAt(k)))) k++;
      } else if ((c === 0x7c /* | */ || c === 0x3e) /* > */ && flow === 0) {
        if (++nodes > limits.maxNodes) return tooMany(k);
        block = { parent: indent, content: undefined };
        if (!(taggedAt >= 0 && k - taggedAt <= 64 && /^\s*$/.test(text.slice(taggedAt, k)))) blocks.push(k);
        lineDone = true;
      } else {
        // A plain scalar: up to a comment, a `: `, the end of the line, or (in a flow collection) a flow indicator.
        if (++nodes > limits.maxNodes) return tooMany(k);
        const start = k;
        k = plainEnd(text, k + 1, flow > 0);
        // At the end of the line it may go on over the next lines (one node, however many lines).
        if (isBreakOrEnd(text.charCodeAt(k))) {
          plain = flow > 0 ? 0 : goOn;
          flowPlainLines = 1;
          const tagged = taggedAt >= 0 && start - taggedAt <= 64 && /^\s*$/.test(text.slice(taggedAt, start));
          if (flow === 0 && !tagged) run = { start, end: textEnd(k), lines: 1 };
        }
      }
    }
    i = endOfLine(k);
  }
  closeRun();
  return longQuoted;
}

/** The next offset of `char` at or after an offset (the text's length if none): found once, kept until passed. */
type NextOf = (from: number) => number;

/** A {@link NextOf} for `char` in `text`, for offsets that only grow (each search starts where the last ended). */
function nextOf(text: string, char: string): NextOf {
  let at = -2;
  return (from) => {
    if (at !== -1 && at < from) at = text.indexOf(char, from);
    return at === -1 ? text.length : at;
  };
}

/** Where the lines a plain scalar goes on over stop, and the end of the last one with text (-1 if none). */
interface PlainLines {
  next: number;
  lastText: number;
}

/**
 * The whole lines from the line start `from` a plain scalar (block context) goes on over, as the loop in
 * {@link scan} would read them one by one: blank, or at least `indent` spaces then text starting with no tab or `#`,
 * with no `: `, no ` #` and no CR but before its break. Matched natively in bounded runs; the first other line is left
 * to the loop.
 */
function plainLines(text: string, from: number, indent: number): PlainLines {
  const lines = plainLineRun(indent);
  let s = from;
  for (;;) {
    lines.lastIndex = s;
    if (!lines.test(text)) break;
    s = lines.lastIndex;
  }
  // Runs end after a line with text; the blank lines after the last one follow.
  const lastText = s > from ? s - 1 : -1;
  for (;;) {
    BLANK_LINES.lastIndex = s;
    if (!BLANK_LINES.test(text)) break;
    s = BLANK_LINES.lastIndex;
  }
  return { next: s, lastText };
}

/**
 * Per indentation: up to 256 whole lines with text a plain scalar goes on over, each after any blank lines (taken
 * whole, never given back one by one: see {@link plainLines}).
 */
const plainLineRun = perIndent((indent) => {
  const text = '(?:[^:#\\r\\n]|:(?=[^ \\t\\r\\n])|(?<![ \\t])#)';
  return new RegExp(
    `(?:(?=((?: *\\r?\\n)*))\\1 {${indent}} *(?:[^ \\t#\\r\\n:]|:(?=[^ \\t\\r\\n]))${text}*\\r?\\n){1,256}`,
    'y',
  );
});

/** Whole blank or comment lines (spaces, then a comment or nothing, then a line break), up to 256 at a time. */
const QUIET_LINES = /(?: *(?:#[^\n]*)?\r?\n){1,256}/y;

/** Whole blank lines, up to 256 at a time. */
const BLANK_LINES = /(?: *\r?\n){1,256}/y;

/** Runs of characters that cannot end a plain scalar (block context, flow context). */
const BLOCK_PLAIN_RUN = /[^\n\r#:]*/y;
const FLOW_PLAIN_RUN = /[^\n\r#:,[\]{}]*/y;

/** Whether a document marker (`---` or `...`) starts at `at`. */
function isMarker(text: string, at: number): boolean {
  return (text.startsWith('---', at) || text.startsWith('...', at)) && isBlank(text.charCodeAt(at + 3));
}

/**
 * Where a plain scalar's text on its line ends, from `from` (not its first character): at a comment, a `: `, the
 * line's end, or in a flow collection a flow indicator (or a `:` before one).
 */
function plainEnd(text: string, from: number, inFlow: boolean): number {
  const plainRun = inFlow ? FLOW_PLAIN_RUN : BLOCK_PLAIN_RUN;
  let k = from;
  for (;;) {
    // The characters that cannot end it, skipped natively.
    plainRun.lastIndex = k;
    plainRun.test(text);
    k = plainRun.lastIndex;
    const d = text.charCodeAt(k);
    if (isBreakOrEnd(d)) return k;
    if (d === 0x23 && isBlank(text.charCodeAt(k - 1))) return k;
    if (d === 0x3a && (isBlank(text.charCodeAt(k + 1)) || (inFlow && isFlowIndicator(text.charCodeAt(k + 1)))))
      return k;
    if (inFlow && isFlowIndicator(d)) return k;
    k++;
  }
}

/** The offset after the closing quote of the quoted scalar opening at `at` (past the text's end when unterminated). */
function closingQuote(text: string, at: number, quote: number, backslashes: NextOf): number {
  const n = text.length;
  const q = quote === 0x22 ? '"' : "'";
  let k = at + 1;
  let backslash = quote === 0x22 ? backslashes(k) : -1;
  let close = -2;
  for (;;) {
    if (close < k) close = text.indexOf(q, k);
    if (close === -1) return n + 1;
    if (backslash !== -1 && backslash < n && backslash < close) {
      // An escape: the character after the backslash is taken as is.
      k = backslash + 2;
      backslash = backslashes(k);
      continue;
    }
    if (quote === 0x27 && text.charCodeAt(close + 1) === 0x27) {
      k = close + 2;
      continue;
    }
    return close + 1;
  }
}
