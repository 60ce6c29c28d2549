/**
 * Turning mustache's parse errors ("Unclosed section "a" at 42") into messages that say what to fix, and where: the
 * opening tag of an unclosed section, the tag left unclosed, the mismatched closing tag. Tags are written with the
 * delimiters active at that point (set-delimiter tags like `{{=<% %>=}}` change them).
 *
 * @module
 */

/** A template syntax problem: a message and, when known, the character offset inside the template text. */
export interface TemplateSyntaxProblem {
  message: string;
  offset?: number;
}

const MUSTACHE_ERROR = /^(Unclosed tag|Unopened section "([\s\S]*)"|Unclosed section "([\s\S]*)") at (\d+)$/;

/* mustache's own scanning expressions (mustache.js 4.x, parseTemplate). */
const TAG_TYPE = /#|\^|\/|>|\{|&|=|!/;
const WHITE = /\s*/;
const SPACE = /\s+/;
const EQUALS = /\s*=/;
const CURLY = /\s*\}/;

type Tags = readonly [string, string];

const DEFAULT_TAGS: Tags = ['{{', '}}'];

function escapeRegExp(text: string): string {
  return text.replace(/[-[\]{}()*+?.,\\^$|#\s]/g, '\\$&');
}

/** Where the scan stopped early (the failures mustache throws on while scanning). */
interface ScanStop {
  kind: 'unclosed-tag' | 'unopened' | 'mismatch';
  /** Offset of the tag's opening delimiter. */
  offset: number;
  /** The closing tag's name (`unopened`, `mismatch`). */
  name: string;
  /** Delimiters active at that tag. */
  tags: Tags;
}

/** The state at the end of a scan. */
interface ScanState {
  /** Delimiters active where the scan ended. */
  tags: Tags;
  /** Sections still open, outermost first. */
  open: { name: string; offset: number }[];
  stop: ScanStop | undefined;
}

/**
 * Replays mustache's tag scanning (without building tokens) to learn positions and the active delimiters. Linear in
 * the template's length apart from mustache's own slicing; run only on the error path.
 */
function scan(source: string): ScanState {
  let tags: Tags = DEFAULT_TAGS;
  let opening = new RegExp(`${escapeRegExp(tags[0])}\\s*`);
  let closing = new RegExp(`\\s*${escapeRegExp(tags[1])}`);
  let closingCurly = new RegExp(`\\s*${escapeRegExp(`}${tags[1]}`)}`);
  const open: { name: string; offset: number }[] = [];
  let pos = 0;
  /** Matches `re` at `pos` (advancing), like mustache's `Scanner.scan`. */
  const take = (re: RegExp): string => {
    const m = re.exec(source.slice(pos));
    if (m === null || m.index !== 0) return '';
    pos += m[0].length;
    return m[0];
  };
  /** Advances to the first match of `re` (or the end), like mustache's `Scanner.scanUntil`. */
  const until = (re: RegExp): string => {
    const tail = source.slice(pos);
    const index = tail.search(re);
    const found = index === -1 ? tail : tail.slice(0, index);
    pos += found.length;
    return found;
  };
  while (pos < source.length) {
    until(opening);
    const start = pos;
    if (take(opening) === '') break;
    const type = take(TAG_TYPE) || 'name';
    take(WHITE);
    let value: string;
    if (type === '=') {
      value = until(EQUALS);
      take(EQUALS);
      until(closing);
    } else if (type === '{') {
      value = until(closingCurly);
      take(CURLY);
      until(closing);
    } else {
      value = until(closing);
    }
    if (take(closing) === '') return { tags, open, stop: { kind: 'unclosed-tag', offset: start, name: '', tags } };
    if (type === '#' || type === '^') {
      open.push({ name: value, offset: start });
    } else if (type === '/') {
      const section = open.pop();
      if (section === undefined) return { tags, open, stop: { kind: 'unopened', offset: start, name: value, tags } };
      if (section.name !== value) {
        open.push(section);
        return { tags, open, stop: { kind: 'mismatch', offset: start, name: value, tags } };
      }
    } else if (type === '=') {
      const next = value.split(SPACE, 2);
      if (next.length !== 2) break;
      tags = [next[0] as string, next[1] as string];
      opening = new RegExp(`${escapeRegExp(tags[0])}\\s*`);
      closing = new RegExp(`\\s*${escapeRegExp(tags[1])}`);
      closingCurly = new RegExp(`\\s*${escapeRegExp(`}${tags[1]}`)}`);
    }
  }
  return { tags, open, stop: undefined };
}

function closeTag(tags: Tags, name: string): string {
  return `${tags[0]}/${name}${tags[1]}`;
}

/**
 * Describes an error thrown by mustache's parser for `source`.
 */
export function describeSyntaxError(source: string, error: unknown): TemplateSyntaxProblem {
  const text = error instanceof Error ? error.message : String(error);
  const m = MUSTACHE_ERROR.exec(text);
  if (m === null) {
    if (text.startsWith('Invalid tags')) return { message: `invalid set-delimiter tag (${text})` };
    return { message: text };
  }
  const at = Number(m[4]);
  const state = scan(source);
  const stop = state.stop;
  if (m[1] === 'Unclosed tag') {
    const tags = stop?.kind === 'unclosed-tag' ? stop.tags : state.tags;
    return { message: `unclosed tag: missing closing ${tags[1]}`, offset: stop?.offset ?? at };
  }
  if (m[2] !== undefined) {
    const tags = stop?.kind === 'unopened' ? stop.tags : state.tags;
    return { message: `closing tag ${closeTag(tags, m[2])} has no matching opening tag`, offset: at };
  }
  const name = m[3] ?? '';
  if (stop?.kind === 'mismatch') {
    return {
      message: `mismatched closing tag: expected ${closeTag(stop.tags, name)}, found ${closeTag(stop.tags, stop.name)}`,
      offset: stop.offset,
    };
  }
  if (at < source.length) {
    return {
      message: `section "${name}" is closed by a mismatched tag: expected ${closeTag(state.tags, name)}`,
      offset: at,
    };
  }
  const innermost = state.open[state.open.length - 1];
  const offset = innermost !== undefined && innermost.name === name ? innermost.offset : at;
  return { message: `unclosed section "${name}": add ${closeTag(state.tags, name)}`, offset };
}
