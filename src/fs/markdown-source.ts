/**
 * Markdown prompt files: YAML front matter holds the fields; the body is one user message unless `messages` is given.
 */
import { isRecord } from '../json.js';
import type { SourcePosition } from './diagnostics.js';
import type { SourceSyntaxError } from './json-source.js';
import { parseYamlSource } from './yaml-source.js';

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/** A parsed Markdown prompt file. */
export interface MarkdownSource {
  value: unknown;
  locate(pointer: string): SourcePosition | undefined;
}

/** A Markdown file without front matter: not a prompt file. */
export interface NoFrontMatter {
  noFrontMatter: true;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Splits and parses a Markdown prompt file; `messages` and a body at once is a problem at the body's first line. */
export function parseMarkdownSource(
  text: string,
  maxYamlNodes?: number,
): MarkdownSource | SourceSyntaxError | NoFrontMatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { noFrontMatter: true };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) return { message: "front matter is not closed: add a line '---' after it", line: 1, column: 1 };
  const yamlText = rest.slice(0, closing.index);
  const parsed = parseYamlSource(yamlText, 1, maxYamlNodes);
  if (!('value' in parsed)) return parsed;
  const afterClosing = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const bodyStartLine = 2 + lineCount(yamlText) + 1;
  const leading = /^(?:[ \t]*\r?\n)*/.exec(afterClosing)?.[0] ?? '';
  const body = afterClosing.slice(leading.length).trimEnd();
  const bodyLine = bodyStartLine + lineCount(leading);
  const front = parsed.value === null || parsed.value === undefined ? {} : parsed.value;
  if (!isRecord(front)) {
    return {
      message: 'front matter must be a YAML mapping of definition fields (name, description, ...)',
      line: 2,
      column: 1,
    };
  }
  const hasMessages = Object.hasOwn(front, 'messages');
  if (hasMessages && body !== '') {
    return {
      message: "the front matter gives 'messages' and the file has a body: keep one (the body is one user message)",
      line: bodyLine,
      column: 1,
    };
  }
  const fromBody = !hasMessages && body !== '';
  const value = fromBody ? { ...front, messages: [{ role: 'user', content: body }] } : front;
  return {
    value,
    locate(pointer) {
      if (fromBody && (pointer === '/messages' || pointer.startsWith('/messages/')))
        return { line: bodyLine, column: 1 };
      return parsed.locate(pointer) ?? (pointer === '' ? { line: 1, column: 1 } : undefined);
    },
  };
}
