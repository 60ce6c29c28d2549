/** Flow collections (`[...]`, `{...}`) for the YAML subset reader: on one line, or over lines indented past the parent. */
import { setOwn } from '../json.js';
import { readQuoted } from './yaml-quoted.js';
import {
  COLON,
  DASH,
  HASH,
  INDICATOR,
  LF,
  MAX_SUBSET_DEPTH,
  OUTSIDE,
  SPACE,
  SubsetCursor,
  TAB,
  resolvePlain,
  trimEnd,
} from './yaml-subset-cursor.js';

/** A flow plain scalar's end: a flow indicator, a key indicator, a comment or the line's end (the last two leave). */
const FLOW_PLAIN_STOP = /[,[\]{}\n]|:(?=[ \t\n,[\]{}]|$)|[ \t]#/g;
const FLOW_BLANK = /[ \t\n,[\]{}]/;

/** The subset reader's flow collections. */
export class FlowReader extends SubsetCursor {
  /** Inside a flow collection: the cursor, and the indentation of the block parent its lines must pass. */
  private at = 0;
  private flowParent = -1;
  /** How many flow collections the cursor is inside (only the outermost may close at the parent's indentation). */
  private flowLevel = 0;

  /** A flow collection (`[...]` or `{...}`) at `at`, its later lines indented past the block parent's `parent`. */
  protected flowCollection(at: number, parent: number): unknown {
    const text = this.text;
    this.flowParent = parent;
    this.at = at;
    const value = this.flowNode();
    let i = this.at;
    while (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB) i++;
    const d = text.charCodeAt(i);
    if (i < this.n && d !== LF && !(d === HASH && i > this.at)) throw OUTSIDE;
    this.pos = this.quiet(this.nextLine(i));
    return value;
  }

  /** Skips the spaces and line breaks inside a flow collection (comments and tabs leave the subset). */
  private flowSpace(): void {
    const text = this.text;
    let i = this.at;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === SPACE) i++;
      else if (c === LF) {
        let k = i + 1;
        while (text.charCodeAt(k) === SPACE) k++;
        // Past the parent's indentation; a closing bracket may stand at it.
        const d = text.charCodeAt(k);
        const indent = k - i - 1;
        // A blank line (the library takes any indentation for it).
        if (d === LF) {
          i = k;
          continue;
        }
        if (d === TAB || indent < this.flowParent) throw OUTSIDE;
        if (indent === this.flowParent && !(this.flowLevel === 1 && (d === 0x5d || d === 0x7d))) throw OUTSIDE;
        i = k;
      } else if (c === TAB || c === HASH) throw OUTSIDE;
      else break;
    }
    this.at = i;
  }

  /** The flow node at the cursor: a collection or a scalar; the cursor moves past it. */
  private flowNode(): unknown {
    const text = this.text;
    const c = text.charCodeAt(this.at);
    if (++this.depth > MAX_SUBSET_DEPTH) throw OUTSIDE;
    this.count();
    let value: unknown;
    if (c === 0x5b) {
      const list: unknown[] = [];
      const offsets: number[] = [];
      this.items.set(list, offsets);
      this.flowItems(0x5d, () => {
        offsets.push(this.at);
        list.push(this.flowNode());
      });
      value = list;
    } else if (c === 0x7b) {
      const map: Record<string, unknown> = {};
      const offsets = new Map<string, number>();
      this.keys.set(map, offsets);
      this.flowItems(0x7d, () => {
        const at = this.at;
        const key = this.flowScalar(true);
        const name = key === null ? '' : String(key);
        while (text.charCodeAt(this.at) === SPACE) this.at++;
        if (text.charCodeAt(this.at) !== COLON || Object.hasOwn(map, name)) throw OUTSIDE;
        this.at++;
        this.flowSpace();
        const d = text.charCodeAt(this.at);
        if (d === 0x2c || d === 0x7d) throw OUTSIDE; // a key without a value
        setOwn(map, name, this.flowNode());
        offsets.set(name, at);
      });
      value = map;
    } else {
      value = this.flowScalar(false);
    }
    this.depth--;
    return value;
  }

  /** The items of a flow collection whose opening bracket is at the cursor, up to `close` (no empty item). */
  private flowItems(close: number, item: () => void): void {
    const text = this.text;
    this.at++;
    this.flowLevel++;
    this.flowSpace();
    if (text.charCodeAt(this.at) === close) {
      this.at++;
      this.flowLevel--;
      return;
    }
    for (;;) {
      this.count();
      item();
      this.flowSpace();
      const d = text.charCodeAt(this.at);
      this.at++;
      if (d === close) {
        this.flowLevel--;
        return;
      }
      if (d !== 0x2c) throw OUTSIDE;
      this.flowSpace();
      if (text.charCodeAt(this.at) === close) throw OUTSIDE; // a trailing comma
    }
  }

  /** A scalar inside a flow collection, on one line: quoted, or plain up to an indicator (`: ` only after a key). */
  private flowScalar(key: boolean): unknown {
    const text = this.text;
    const at = this.at;
    const c = text.charCodeAt(at);
    if (c === 0x22 || c === 0x27) {
      const close = this.closingQuote(at);
      const lines = text.slice(at, close).includes('\n');
      if (lines && key) throw OUTSIDE;
      const read = readQuoted(text, at, close + 1, lines ? this.denseBytes(at + 1, close) : undefined);
      if (!('value' in read)) throw OUTSIDE;
      // Later lines past the block parent, none starting with a tab; where the library might differ, it decides.
      if (lines && (read.indent === undefined || read.indent <= this.flowParent)) throw OUTSIDE;
      this.at = close + 1;
      return read.value;
    }
    if (c < 128 && INDICATOR[c] === 1 && !(c === DASH && !FLOW_BLANK.test(text[at + 1] ?? ' '))) throw OUTSIDE;
    FLOW_PLAIN_STOP.lastIndex = at;
    const stop = FLOW_PLAIN_STOP.exec(text);
    const end = stop === null ? this.n : stop.index;
    const d = text.charCodeAt(end);
    if (stop === null || d === SPACE || d === TAB || (d === COLON && !key)) throw OUTSIDE;
    if (d === LF) {
      // The scalar goes on over the next line unless that line goes on with a comma or a closing bracket.
      let k = end + 1;
      while (text.charCodeAt(k) === SPACE) k++;
      const e = text.charCodeAt(k);
      if (e !== 0x2c && e !== 0x5d && e !== 0x7d) throw OUTSIDE;
    }
    this.at = end;
    return resolvePlain(text.slice(at, trimEnd(text, at, end)));
  }
}
