/**
 * Scalars over many lines, read from a Latin-1 text's bytes in one loop that finds their extent and builds their value
 * at once (the subset reader's fast path; texts it takes have no carriage return). A character loop over a string
 * costs about 3 ns a character and a native replacement about 100 ns a line; the same loop over bytes about 2 ns in
 * JavaScript and under 1 ns in WebAssembly (yaml-lines.wat, with a line break after the text's end so that no loop
 * checks a bound per byte). Each loop takes only what the general reading would read the same way and returns
 * undefined for the rest; where WebAssembly is not available (`node --jitless`), the general reading reads it all.
 */
import { ESCAPES, dense } from './yaml-fold.js';
import type { FoldRead, FoldStyle } from './yaml-fold.js';
import { YAML_LINES_WASM } from './yaml-lines-wasm.js';

const LF = 0x0a;

/** An instance of the compiled loops (yaml-lines.wat): its exports, and its memory as bytes. */
interface Loops {
  readonly exports: LoopExports;
  bytes: Buffer;
}

interface LoopExports {
  memory: WebAssembly.Memory;
  plain(src: number, from: number, parent: number, length: number, out: number): number;
  block(src: number, first: number, parent: number, literal: number, length: number, out: number): number;
  quoted(src: number, from: number, to: number, double: number, out: number): number;
  end: WebAssembly.Global;
  blanks: WebAssembly.Global;
  least: WebAssembly.Global;
  tabbed: WebAssembly.Global;
}

/** A text of one-byte characters (Latin-1) in the loops' memory, with a line break after its end. */
export interface ByteText {
  readonly loops: Loops;
  /** The text's length (the line break after it is at this offset). */
  readonly length: number;
}

/** Where the text starts in the loops' memory (after the tables yaml-lines.wat reads). */
const TEXT_AT = 1024;
/** The most memory one instance keeps between texts (a 2 MiB text: twice the default largest prompt file). */
const KEPT_BYTES = TEXT_AT + 4 * 1024 * 1024 + 2;
const PAGE = 65_536;

let compiled: WebAssembly.Module | null | undefined;
let kept: Loops | undefined;

/** The loops with room for `bytes` bytes of memory, or undefined without WebAssembly. */
function loopsFor(bytes: number): Loops | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(YAML_LINES_WASM, 'base64'));
    } catch {
      compiled = null; // no WebAssembly (`node --jitless`)
    }
  }
  if (compiled === null) return undefined;
  // One instance for every text up to 2 MiB (reading is synchronous, one text at a time); a larger text gets its own.
  const loops = bytes <= KEPT_BYTES && kept !== undefined ? kept : newLoops(compiled);
  if (bytes <= KEPT_BYTES) kept = loops;
  const { memory } = loops.exports;
  if (memory.buffer.byteLength < bytes) {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
    loops.bytes = Buffer.from(memory.buffer);
  }
  return loops;
}

function newLoops(module: WebAssembly.Module): Loops {
  const exports = new WebAssembly.Instance(module).exports as unknown as LoopExports;
  const loops = { exports, bytes: Buffer.from(exports.memory.buffer) };
  loops.bytes.set(PLAIN_STOP, 0);
  loops.bytes.set(PLAIN_START, 256);
  for (let c = 0; c < 128; c++) loops.bytes.writeUInt16LE(ESCAPES[c]!, 512 + 2 * c);
  return loops;
}

/**
 * `text` as a {@link ByteText} (valid until the next call), or undefined when a character of it is outside Latin-1
 * (above U+00FF) or WebAssembly is not available.
 */
export function byteText(text: string): ByteText | undefined {
  // Instant for a string V8 holds one byte a character: the pattern cannot match one.
  if (BEYOND_LATIN1.test(text)) return undefined;
  const length = text.length;
  const loops = loopsFor(TEXT_AT + 2 * (length + 1));
  if (loops === undefined) return undefined;
  loops.bytes.write(text, TEXT_AT, 'latin1');
  loops.bytes[TEXT_AT + length] = LF;
  return { loops, length };
}

/** Where a value read from `t` is written in its loops' memory. */
function outAt(t: ByteText): number {
  return TEXT_AT + t.length + 1;
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
  const loops = t.loops.exports;
  const out = outAt(t);
  const n = loops.block(TEXT_AT, first, parent, literal ? 1 : 0, t.length, out);
  if (n === -1) return undefined;
  const value = t.loops.bytes.toString('latin1', out, out + n);
  const end = loops.end.value as number;
  if (chomp === '+') return { value: `${value}\n${'\n'.repeat(loops.blanks.value as number)}`, end };
  return { value: chomp === '-' ? value : `${value}\n`, end };
}

/**
 * The lines after a plain scalar's first, from `from`, while they are indented past `parent` and have no `:`, `#`,
 * leading `-` or trailing blank, each ending in a line break (empty lines between them too): folded with the separator
 * before each (a space, or one line break per empty line), their indentation left out. With where they stop; undefined
 * when none is taken.
 */
export function foldPlainLines(t: ByteText, from: number, parent: number): { folded: string; end: number } | undefined {
  const loops = t.loops.exports;
  const out = outAt(t);
  const n = loops.plain(TEXT_AT, from, parent, t.length, out);
  if (n === -1) return undefined;
  return { folded: t.loops.bytes.toString('latin1', out, out + n), end: loops.end.value as number };
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
  const loops = t.loops.exports;
  const out = outAt(t);
  const n = loops.quoted(TEXT_AT, from, to, style === 'double' ? 1 : 0, out);
  if (n === -1) return undefined;
  const value = t.loops.bytes.toString('latin1', out, out + n);
  const least = loops.least.value as number;
  const tabbed = loops.tabbed.value === 1;
  return least === -1 ? { value, tabbed } : { value, least, tabbed };
}
