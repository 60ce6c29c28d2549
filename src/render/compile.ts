/**
 * Template compilation: mustache's parser (through a private, cache-less Writer) produces the token tree once; it is
 * immediately converted into compact {@link TemplateNode}s whose text is re-sliced from the source (mustache builds
 * text tokens a character at a time, which costs ~30 bytes of heap per template character if kept). Partials are
 * inlined at compile time.
 *
 * @module
 */
import Mustache from 'mustache';
import type { OpeningAndClosingTags } from 'mustache';
import { DIRECTIVE, INVERTED, SECTION, TagNode, VARIABLE } from './nodes.js';
import type { TemplateNode } from './nodes.js';
import { offsetToPosition } from './position.js';
import { describeSyntaxError } from './syntax-errors.js';

/**
 * A problem found while compiling a template: a message and the offset of the tag (inside the top template).
 * compileTemplate turns it into PromptError `INVALID_PROMPT_DEFINITION`.
 *
 * @example
 * ```ts
 * throw new TemplateCompileError("unknown partial 'p'", 12);
 * ```
 */
export class TemplateCompileError extends Error {
  constructor(
    message: string,
    readonly offset: number | undefined,
  ) {
    super(message);
    this.name = 'TemplateCompileError';
  }
}

/** The compiled body of a template (or of a partial, before it is inlined). */
export interface CompiledBody {
  nodes: TemplateNode[];
  /** Names looked up in the root context (outside `{{#...}}` sections) -> offset of their first tag. */
  refs: Map<string, number>;
  /** Directive URIs in order of first appearance. */
  directives: string[];
  /** Whether some directive sits inside a section (so whether it renders depends on the arguments). */
  conditional: boolean;
  /** Partials used, transitively: name -> the source text that was inlined. */
  partials: Map<string, string>;
  /** How many partial inclusions the fully expanded template contains. */
  inclusions: number;
}

/** Resolves a partial's name to its source text. */
export type PartialLookup = (name: string) => string | undefined;

/** At most this many partial inclusions in one fully expanded template (guards against exponential expansion). */
export const MAX_PARTIAL_INCLUSIONS = 1000;

const DIRECTIVE_PREFIX = 'resource:';
const NAME = /^(?:\.|[^\s.{}]+(?:\.[^\s.{}]+)*)$/;
const URI = /^[^\s{}]+$/;

type MustacheToken = [string, string, number, number, ...unknown[]];

/**
 * mustache's parser, used with explicit tags (never the global `Mustache.tags`) and with its template cache turned
 * off, so it holds no state: every call parses and keeps nothing.
 */
const parser = new Mustache.Writer();
(parser as unknown as { templateCache: undefined }).templateCache = undefined;
const TAGS: OpeningAndClosingTags = ['{{', '}}'];

interface CompileEnv {
  readonly partials: PartialLookup | undefined;
  /** Partials being compiled (cycle detection). */
  readonly stack: string[];
  /** Partials already compiled in this compile, by name + inlined text. */
  readonly done: Map<string, CompiledBody>;
}

function emptyBody(): CompiledBody {
  return { nodes: [], refs: new Map(), directives: [], conditional: false, partials: new Map(), inclusions: 0 };
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

function splitName(value: string, offset: number): [string, string[] | null] {
  if (!NAME.test(value)) {
    throw new TemplateCompileError(
      `invalid tag name ${quote(value)}: names have no spaces or braces (is a "}}" missing?)`,
      offset,
    );
  }
  if (value === '.' || value.indexOf('.') === -1) return [value, null];
  const parts = value.split('.');
  return [parts[0] as string, parts.slice(1)];
}

function addRef(body: CompiledBody, key: string, offset: number): void {
  if (key !== '.' && !body.refs.has(key)) body.refs.set(key, offset);
}

function addDirective(body: CompiledBody, uri: string, inSection: boolean): void {
  if (!body.directives.includes(uri)) body.directives.push(uri);
  if (inSection) body.conditional = true;
}

/** Mustache's own indentation of a standalone partial (identical to `Writer.prototype.indentPartial`). */
function indentPartial(partial: string, indentation: string, lineHasNonSpace: boolean): string {
  const filtered = indentation.replace(/[^ \t]/g, '');
  const lines = partial.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as string).length > 0 && (i > 0 || !lineHasNonSpace)) lines[i] = filtered + (lines[i] as string);
  }
  return lines.join('\n');
}

/** The error compiling a partial's raw text gives, if any (error path only). */
function rawError(text: string, env: CompileEnv): TemplateCompileError | undefined {
  try {
    compileBody(text, env);
  } catch (error) {
    if (error instanceof TemplateCompileError) return error;
  }
  return undefined;
}

function includePartial(
  token: MustacheToken,
  env: CompileEnv,
  body: CompiledBody,
  nodes: TemplateNode[],
  pushed: boolean,
  inSection: boolean,
): void {
  const name = token[1];
  const offset = token[2];
  const text = env.partials?.(name);
  if (typeof text !== 'string') throw new TemplateCompileError(`unknown partial '${name}'`, offset);
  if (env.stack.includes(name)) {
    throw new TemplateCompileError(
      `partial '${name}' includes itself (${[...env.stack, name].join(' > ')}); recursive partials are not supported`,
      offset,
    );
  }
  const indentation = token[4] as string;
  const inlined = token[5] === 0 && indentation ? indentPartial(text, indentation, token[6] === true) : text;
  const key = `${name}\u0000${inlined}`;
  let sub = env.done.get(key);
  if (sub === undefined) {
    env.stack.push(name);
    try {
      sub = compileBody(inlined, env);
    } catch (error) {
      if (!(error instanceof TemplateCompileError)) throw error;
      // Locate the problem in the partial as written, not as indented for this inclusion.
      const raw = inlined === text ? undefined : rawError(text, env);
      const [located, where] = raw === undefined ? [error, inlined] : [raw, text];
      const at = located.offset === undefined ? undefined : offsetToPosition(where, located.offset);
      const position = at === undefined ? '' : ` (line ${at.line}, column ${at.column} of the partial)`;
      throw new TemplateCompileError(`in partial '${name}'${position}: ${located.message}`, offset);
    } finally {
      env.stack.pop();
    }
    env.done.set(key, sub);
  }
  body.inclusions += 1 + sub.inclusions;
  if (body.inclusions > MAX_PARTIAL_INCLUSIONS) {
    throw new TemplateCompileError(
      `too many partial inclusions (more than ${MAX_PARTIAL_INCLUSIONS} once expanded)`,
      offset,
    );
  }
  for (let i = 0; i < sub.nodes.length; i++) nodes.push(sub.nodes[i] as TemplateNode);
  if (!pushed) for (const ref of sub.refs.keys()) addRef(body, ref, offset);
  for (const uri of sub.directives) addDirective(body, uri, inSection || sub.conditional);
  body.partials.set(name, text);
  for (const [n, t] of sub.partials) body.partials.set(n, t);
}

function build(
  tokens: readonly MustacheToken[],
  source: string,
  env: CompileEnv,
  body: CompiledBody,
  pushed: boolean,
  inSection: boolean,
): TemplateNode[] {
  const nodes: TemplateNode[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as MustacheToken;
    const type = token[0];
    if (type === 'text') {
      nodes.push(source.slice(token[2], token[3]));
    } else if (type === 'name' || type === '&') {
      const value = token[1];
      if (value.startsWith(DIRECTIVE_PREFIX)) {
        const uri = value.slice(DIRECTIVE_PREFIX.length).trim();
        if (!URI.test(uri)) {
          throw new TemplateCompileError(`invalid resource directive ${quote(value)}: expected {{resource:URI}}`, token[2]);
        }
        addDirective(body, uri, inSection);
        nodes.push(new TagNode(DIRECTIVE, uri, null, null));
      } else {
        const [key, rest] = splitName(value, token[2]);
        if (!pushed) addRef(body, key, token[2]);
        nodes.push(new TagNode(VARIABLE, key, rest, null));
      }
    } else if (type === '#' || type === '^') {
      const value = token[1];
      if (value.startsWith(DIRECTIVE_PREFIX)) {
        throw new TemplateCompileError(`a resource directive cannot open a section: ${quote(value)}`, token[2]);
      }
      const [key, rest] = splitName(value, token[2]);
      if (!pushed) addRef(body, key, token[2]);
      const children = build(token[4] as MustacheToken[], source, env, body, pushed || type === '#', true);
      nodes.push(new TagNode(type === '#' ? SECTION : INVERTED, key, rest, children));
    } else if (type === '>') {
      includePartial(token, env, body, nodes, pushed, inSection);
    }
    // '!' (comment) and '=' (set delimiters) render nothing.
  }
  return nodes;
}

/** Compiles a template text (or a partial's) into nodes; throws {@link TemplateCompileError}. */
function compileBody(source: string, env: CompileEnv): CompiledBody {
  const body = emptyBody();
  if (source.indexOf('{{') === -1) {
    if (source.length > 0) body.nodes.push(source);
    return body;
  }
  let tokens: MustacheToken[];
  try {
    tokens = parser.parse(source, TAGS) as MustacheToken[];
  } catch (error) {
    const problem = describeSyntaxError(source, error);
    throw new TemplateCompileError(problem.message, problem.offset);
  }
  body.nodes = build(tokens, source, env, body, false, false);
  return body;
}

/**
 * Compiles a top-level template into nodes. Throws {@link TemplateCompileError} with an offset into `source`.
 *
 * @example
 * ```ts
 * compileSource('{{#a}}{{resource:docs://x}}{{/a}}', undefined).conditional; // true
 * ```
 */
export function compileSource(source: string, partials: PartialLookup | undefined): CompiledBody {
  return compileBody(source, { partials, stack: [], done: new Map() });
}
