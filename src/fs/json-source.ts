/** JSON prompt files: JSON.parse for the value; a small scanner for syntax-error places and pointer positions. */
import { childPointer } from '../json.js';
import { LineIndex } from './diagnostics.js';
import type { SourcePosition } from './diagnostics.js';

/** Deeper nesting than this is refused (the scanner recurses). */
const MAX_DEPTH = 512;

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Scans JSON text, recording the offset of every value's member key (or, for array items and the root, the value). */
class Scanner {
  #i = 0;
  readonly offsets = new Map<string, number>();

  constructor(readonly text: string) {}

  scan(): void {
    this.#space();
    this.#value('', 0);
    this.#space();
    if (this.#i < this.text.length) this.#fail('unexpected text after the JSON value');
  }

  #fail(message: string, at = this.#i): never {
    throw new JsonSyntaxError(message, at);
  }

  #space(): void {
    const t = this.text;
    while (this.#i < t.length) {
      const c = t.charCodeAt(this.#i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.#i++;
      else break;
    }
  }

  #value(pointer: string, depth: number): void {
    if (depth > MAX_DEPTH) this.#fail(`nesting deeper than ${MAX_DEPTH} levels`);
    if (!this.offsets.has(pointer)) this.offsets.set(pointer, this.#i);
    const c = this.text[this.#i];
    if (c === '{') this.#object(pointer, depth);
    else if (c === '[') this.#array(pointer, depth);
    else if (c === '"') this.#string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) this.#number();
    else if (this.text.startsWith('true', this.#i)) this.#i += 4;
    else if (this.text.startsWith('false', this.#i)) this.#i += 5;
    else if (this.text.startsWith('null', this.#i)) this.#i += 4;
    else if (c === undefined) this.#fail('unexpected end of the file: a value is missing');
    else this.#fail(`unexpected ${describe(c)}: expected a value`);
  }

  #object(pointer: string, depth: number): void {
    this.#members('}', 'a property value', () => {
      const keyAt = this.#i;
      if (this.text[this.#i] !== '"') this.#fail(`expected a property name in double quotes, got ${this.#here()}`);
      const child = childPointer(pointer, this.#string());
      this.offsets.set(child, keyAt);
      this.#space();
      if (this.text[this.#i] !== ':') this.#fail(`expected ':' after the property name, got ${this.#here()}`);
      this.#i++;
      this.#space();
      this.#value(child, depth + 1);
    });
  }

  #array(pointer: string, depth: number): void {
    let index = 0;
    this.#members(']', 'an array item', () => this.#value(childPointer(pointer, index++), depth + 1));
  }

  /** The members of an object or array (after its opening bracket), separated by commas, up to `close`. */
  #members(close: '}' | ']', what: string, member: () => void): void {
    this.#i++;
    this.#space();
    if (this.text[this.#i] === close) {
      this.#i++;
      return;
    }
    for (;;) {
      this.#space();
      member();
      this.#space();
      const next = this.text[this.#i];
      if (next === close) {
        this.#i++;
        return;
      }
      if (next !== ',') this.#fail(`expected ',' or '${close}' after ${what}, got ${this.#here()}`);
      const comma = this.#i++;
      this.#space();
      if (this.text[this.#i] === close) this.#fail(`trailing comma: JSON allows no ',' before '${close}'`, comma);
    }
  }

  /** Reads a string literal; returns its value (used for keys). */
  #string(): string {
    const start = this.#i;
    this.#i++;
    const t = this.text;
    let out = '';
    let run = this.#i;
    while (this.#i < t.length) {
      const c = t.charCodeAt(this.#i);
      if (c === 0x22) {
        out += t.slice(run, this.#i);
        this.#i++;
        return out;
      }
      if (c < 0x20) this.#fail('unescaped control character in a string (write \\n, \\t, ...)');
      if (c === 0x5c) {
        out += t.slice(run, this.#i);
        const e = t[this.#i + 1];
        if (e === 'u') {
          const hex = t.slice(this.#i + 2, this.#i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.#fail('invalid \\u escape: four hex digits expected');
          out += String.fromCharCode(parseInt(hex, 16));
          this.#i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          out += JSON.parse(`"\\${e}"`) as string;
          this.#i += 2;
        } else {
          this.#fail(`invalid escape '\\${e ?? ''}' in a string`);
        }
        run = this.#i;
        continue;
      }
      this.#i++;
    }
    return this.#fail('unterminated string', start);
  }

  #number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.#i, this.#i + 400));
    if (match === null || match[0] === '' || match[0] === '-') this.#fail('invalid number');
    this.#i += match[0].length;
  }

  #here(): string {
    const c = this.text[this.#i];
    return c === undefined ? 'the end of the file' : describe(c);
  }
}

function describe(c: string): string {
  return c === '\n' ? 'a line break' : `'${c}'`;
}

/** A parsed JSON file: its value, and the position of any JSON pointer in it. */
export interface JsonSource {
  value: unknown;
  locate(pointer: string): SourcePosition | undefined;
}

/** A JSON syntax error with its place. */
export interface SourceSyntaxError {
  message: string;
  line: number;
  column: number;
}

/** Parses JSON text: the value with a lazy `locate`, or the syntax error with its line and column. */
export function parseJsonSource(text: string): JsonSource | SourceSyntaxError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const scanner = new Scanner(text);
    try {
      scanner.scan();
    } catch (error) {
      if (error instanceof JsonSyntaxError) {
        return { message: `invalid JSON: ${error.message}`, ...new LineIndex(text).position(error.offset) };
      }
      throw error;
    }
    // JSON.parse refused what the scanner accepts (should not happen): report it without a place.
    return { message: 'invalid JSON', line: 1, column: 1 };
  }
  let located: { offsets: Map<string, number>; lines: LineIndex } | undefined;
  return {
    value,
    locate(pointer) {
      if (located === undefined) {
        const scanner = new Scanner(text);
        try {
          scanner.scan();
        } catch {
          // Valid JSON the scanner will not follow (nested deeper than it goes): places found so far still count.
        }
        located = { offsets: scanner.offsets, lines: new LineIndex(text) };
      }
      const offset = located.offsets.get(pointer);
      return offset === undefined ? undefined : located.lines.position(offset);
    },
  };
}
