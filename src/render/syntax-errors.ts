/**
 * Turns mustache's parser errors ("Unclosed section \"a\" at 42") into readable problems with an offset that points
 * at the tag to fix.
 *
 * @module
 */

/** A template syntax problem: a message and, when known, the character offset inside the template text. */
export interface TemplateSyntaxProblem {
  message: string;
  offset?: number;
}

const MUSTACHE_ERROR = /^(Unclosed tag|Unopened section "([\s\S]*)"|Unclosed section "([\s\S]*)") at (\d+)$/;
const SECTION_TAG = /\{\{\s*([#^/])\s*([\s\S]*?)\s*\}\}/g;
const CLOSE_TAG_AT = /^\{\{\s*\/\s*([\s\S]*?)\s*\}\}/;

/** Whether positions can be recovered by scanning for `{{ }}` (no set-delimiter tag changes the tags). */
function usesDefaultTags(source: string): boolean {
  return !/\{\{\s*=/.test(source);
}

/** The offset of the opening tag of the section `name` left open at the end of `source`. */
function findUnclosedSection(source: string, name: string): number | undefined {
  const open: { name: string; offset: number }[] = [];
  SECTION_TAG.lastIndex = 0;
  for (let m = SECTION_TAG.exec(source); m !== null; m = SECTION_TAG.exec(source)) {
    if (m[1] === '/') open.pop();
    else open.push({ name: m[2] ?? '', offset: m.index });
  }
  for (let i = open.length - 1; i >= 0; i--) if (open[i]?.name === name) return open[i]?.offset;
  return undefined;
}

/** The offset of the tag mustache gave up on: the first `{{` after the last `}}`. */
function findUnclosedTag(source: string): number | undefined {
  const lastClose = source.lastIndexOf('}}');
  const open = source.indexOf('{{', lastClose < 0 ? 0 : lastClose + 2);
  return open < 0 ? undefined : open;
}

/**
 * Describes an error thrown by mustache's parser for `source`.
 *
 * @example
 * ```ts
 * describeSyntaxError('{{#a}}x', new Error('Unclosed section "a" at 7'));
 * // { message: 'unclosed section "a": add {{/a}}', offset: 0 }
 * ```
 */
export function describeSyntaxError(source: string, error: unknown): TemplateSyntaxProblem {
  const text = error instanceof Error ? error.message : String(error);
  const m = MUSTACHE_ERROR.exec(text);
  if (m === null) {
    if (text.startsWith('Invalid tags')) return { message: `invalid set-delimiter tag (${text})` };
    return { message: text };
  }
  const at = Number(m[4]);
  const defaultTags = usesDefaultTags(source);
  if (m[1] === 'Unclosed tag') {
    const offset = defaultTags ? (findUnclosedTag(source) ?? at) : at;
    return { message: 'unclosed tag: missing closing }}', offset };
  }
  if (m[2] !== undefined) {
    return { message: `closing tag {{/${m[2]}}} has no matching opening tag`, offset: at };
  }
  const name = m[3] ?? '';
  if (at >= source.length) {
    const offset = defaultTags ? (findUnclosedSection(source, name) ?? at) : at;
    return { message: `unclosed section "${name}": add {{/${name}}}`, offset };
  }
  const found = defaultTags ? CLOSE_TAG_AT.exec(source.slice(at, at + 200)) : null;
  return {
    message:
      found === null
        ? `section "${name}" is closed by a mismatched tag: expected {{/${name}}}`
        : `mismatched closing tag: expected {{/${name}}}, found {{/${found[1] ?? ''}}}`,
    offset: at,
  };
}
