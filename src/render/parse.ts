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
import { DIRECTIVE, INVERTED, SECTION, TagNode, VARIABLE } from './tag-node.js';
import type { TemplateNode } from './tag-node.js';
import { createPositionLookup, offsetToPosition } from './position.js';
import { describeSyntaxError } from './syntax-errors.js';

/**
 * A problem found while compiling a template: a message and the offset of the tag (inside the top template).
 * compileTemplate turns it into PromptError `INVALID_PROMPT_DEFINITION`.
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

/**
 * A name a template looks up (the first segment of a dotted name; never `.`), for the declared-argument check.
 */
export interface NameRef {
  readonly name: string;
  /** Offset of the tag in the body's text (for a name written in a partial: the offset of the including tag). */
  readonly offset: number;
  /**
   * First segments of the `{{#section}}` names enclosing the reference, outermost first. Inverted sections and
   * `{{#.}}` add nothing (they do not change the context); for a name from a partial, the sections around the
   * including tag come first.
   */
  readonly sections: readonly string[];
  /** For a name written in a partial: `in partial 'p' (line L, column C of the partial): ` (nested partials chain). */
  readonly via: string;
}

/** The compiled body of a template (or of a partial, before it is inlined). */
export interface CompiledBody {
  nodes: TemplateNode[];
  /** Every name looked up, once per (name, enclosing sections), in order of first appearance. */
  names: NameRef[];
  /** Dedupe keys of `names` (compile time only). */
  seen: Set<string>;
  /** Directive URIs in order of first appearance. */
  directives: string[];
  /** Whether some directive sits inside a section (so whether it renders depends on the arguments). */
  conditional: boolean;
  /** Partials used, transitively: name -> the source text that was inlined. */
  partials: Map<string, string>;
  /** How many partial inclusions the fully expanded template contains. */
  inclusions: number;
  /** The deepest section nesting in the fully expanded body (0: no section). */
  depth: number;
  /** Offset of the first `{{.}}` whose context is the whole view (outside every `{{#section}}`), if any. */
  viewDot: number | undefined;
}

/** Resolves a partial's name to its source text. */
export type PartialLookup = (name: string) => string | undefined;

/** At most this many partial inclusions in one fully expanded template (guards against exponential expansion). */
export const MAX_PARTIAL_INCLUSIONS = 1000;

/**
 * Sections (`{{#a}}`, `{{^a}}`) may nest at most this deep, partials counted in: the renderer recurses once per level,
 * so the cap keeps every recursion (compile, render, directive collection) far from the call-stack limit.
 */
export const MAX_SECTION_DEPTH = 100;

/** Partials may include partials at most this deep (compiling recurses once per level). */
export const MAX_PARTIAL_DEPTH = 100;

const DIRECTIVE_PREFIX = 'resource:';
const NAME = /^(?:\.|[^\s.{}]+(?:\.[^\s.{}]+)*)$/;
const URI = /^[^\s{}]+$/;

const EMPTY_SECTIONS: readonly string[] = Object.freeze([]);

type MustacheToken = [string, string, number, number, ...unknown[]];

/**
 * mustache's parser, used with explicit tags (never the global `Mustache.tags`) and with its template cache turned
 * off, so it holds no state: every call parses and keeps nothing.
 */
const parser = new Mustache.Writer();
(parser as unknown as { templateCache: undefined }).templateCache = undefined;
const TAGS: OpeningAndClosingTags = ['{{', '}}'];

/** A compiled partial with its names located inside the partial as written. */
interface CompiledPartial {
  readonly body: CompiledBody;
  readonly names: readonly NameRef[];
}

interface CompileEnv {
  readonly partials: PartialLookup | undefined;
  /** Partials being compiled (cycle detection). */
  readonly stack: string[];
  /** Partials already compiled in this compile, by name + inlined text. */
  readonly done: Map<string, CompiledPartial>;
}

/**
 * A nesting limit crossed (sections or partials). Located once in the innermost partial that holds it, then passed
 * through the including levels naming only the outermost partial, so a deep chain gives a short message.
 */
class NestingLimitError extends TemplateCompileError {
  constructor(
    message: string,
    offset: number | undefined,
    /** The message without the "included through" note. */
    readonly detail: string,
    /** Whether `detail` already says in which partial the limit was crossed. */
    readonly inPartial: boolean,
  ) {
    super(message, offset);
  }
}

function emptyBody(): CompiledBody {
  return {
    nodes: [],
    names: [],
    seen: new Set(),
    directives: [],
    conditional: false,
    partials: new Map(),
    inclusions: 0,
    depth: 0,
    viewDot: undefined,
  };
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

function addName(body: CompiledBody, name: string, offset: number, sections: readonly string[], via: string): void {
  if (name === '.') return;
  const key = sections.length === 0 ? name : JSON.stringify([...sections, name]);
  if (body.seen.has(key)) return;
  body.seen.add(key);
  body.names.push({ name, offset, sections, via });
}

function addDirective(body: CompiledBody, uri: string, inSection: boolean): void {
  if (!body.directives.includes(uri)) body.directives.push(uri);
  if (inSection) body.conditional = true;
}

function sectionsTooDeep(offset: number, partial?: string): TemplateCompileError {
  const counting = partial === undefined ? '' : ` (counting the sections of partial '${partial}')`;
  const message = `sections nested deeper than ${MAX_SECTION_DEPTH} levels${counting}`;
  return new NestingLimitError(message, offset, message, false);
}

/** Mustache's own indentation of a standalone partial (identical to `Writer.prototype.indentPartial`). */
function indentPartial(partial: string, filtered: string, lineHasNonSpace: boolean): string {
  const lines = partial.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as string).length > 0 && (i > 0 || !lineHasNonSpace)) lines[i] = filtered + (lines[i] as string);
  }
  return lines.join('\n');
}

/** The error compiling a partial's raw text gives, if any (error path only). */
function rawError(text: string, env: CompileEnv, base: number): TemplateCompileError | undefined {
  try {
    compileBody(text, env, base);
  } catch (error) {
    if (error instanceof TemplateCompileError) return error;
  }
  return undefined;
}

/**
 * The names of a compiled partial, each told where it stands in the partial as written (the inlined text may be
 * indented: `filtered` was added to every non-empty line, the first only when `!lineHasNonSpace`).
 */
function locateNames(
  name: string,
  sub: CompiledBody,
  inlined: string,
  filtered: string,
  lineHasNonSpace: boolean,
): NameRef[] {
  if (sub.names.length === 0) return [];
  const at = createPositionLookup(inlined);
  return sub.names.map((ref) => {
    const { line, column } = at(ref.offset);
    const shift = filtered.length > 0 && (line > 1 || !lineHasNonSpace) ? filtered.length : 0;
    return {
      name: ref.name,
      offset: ref.offset,
      sections: ref.sections,
      via: `in partial '${name}' (line ${line}, column ${column - shift} of the partial): ${ref.via}`,
    };
  });
}

function compilePartial(
  name: string,
  text: string,
  token: MustacheToken,
  env: CompileEnv,
  depth: number,
): CompiledPartial {
  const offset = token[2];
  const indentation = token[4] as string;
  const standalone = token[5] === 0 && indentation !== '';
  const filtered = standalone ? indentation.replace(/[^ \t]/g, '') : '';
  const lineHasNonSpace = token[6] === true;
  const inlined = standalone ? indentPartial(text, filtered, lineHasNonSpace) : text;
  const key = `${name}\u0000${inlined}`;
  const done = env.done.get(key);
  if (done !== undefined) {
    if (depth + done.body.depth > MAX_SECTION_DEPTH) throw sectionsTooDeep(offset, name);
    return done;
  }
  if (env.stack.length >= MAX_PARTIAL_DEPTH) {
    const message = `partials nested deeper than ${MAX_PARTIAL_DEPTH} levels`;
    throw new NestingLimitError(message, offset, message, false);
  }
  let sub: CompiledBody;
  env.stack.push(name);
  try {
    sub = compileBody(inlined, env, depth);
  } catch (error) {
    if (!(error instanceof TemplateCompileError)) throw error;
    if (error instanceof NestingLimitError && error.inPartial) {
      throw new NestingLimitError(`${error.detail} (included through partial '${name}')`, offset, error.detail, true);
    }
    // Locate the problem in the partial as written, not as indented for this inclusion.
    const raw = inlined === text ? undefined : rawError(text, env, depth);
    const [located, where] = raw === undefined ? [error, inlined] : [raw, text];
    const at = located.offset === undefined ? undefined : offsetToPosition(where, located.offset);
    const position = at === undefined ? '' : ` (line ${at.line}, column ${at.column} of the partial)`;
    const message = `in partial '${name}'${position}: ${located.message}`;
    if (error instanceof NestingLimitError) throw new NestingLimitError(message, offset, message, true);
    throw new TemplateCompileError(message, offset);
  } finally {
    env.stack.pop();
  }
  const compiled: CompiledPartial = {
    body: sub,
    names: locateNames(name, sub, inlined, filtered, lineHasNonSpace),
  };
  env.done.set(key, compiled);
  return compiled;
}

function includePartial(
  token: MustacheToken,
  env: CompileEnv,
  body: CompiledBody,
  nodes: TemplateNode[],
  sections: readonly string[],
  depth: number,
  base: number,
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
  const { body: sub, names } = compilePartial(name, text, token, env, depth);
  body.inclusions += 1 + sub.inclusions;
  if (body.inclusions > MAX_PARTIAL_INCLUSIONS) {
    throw new TemplateCompileError(
      `too many partial inclusions (more than ${MAX_PARTIAL_INCLUSIONS} once expanded)`,
      offset,
    );
  }
  if (depth - base + sub.depth > body.depth) body.depth = depth - base + sub.depth;
  if (sub.viewDot !== undefined && sections.length === 0) body.viewDot ??= offset;
  for (let i = 0; i < sub.nodes.length; i++) nodes.push(sub.nodes[i] as TemplateNode);
  for (const ref of names) {
    const inner =
      sections.length === 0 ? ref.sections : ref.sections.length === 0 ? sections : [...sections, ...ref.sections];
    addName(body, ref.name, offset, inner, ref.via);
  }
  for (const uri of sub.directives) addDirective(body, uri, depth > base || sub.conditional);
  body.partials.set(name, text);
  for (const [n, t] of sub.partials) body.partials.set(n, t);
}

/**
 * Converts mustache tokens into nodes. `sections`: the enclosing `{{#...}}` names (first segments); `depth`: the
 * section nesting here, counted from the top template (so partials count in); `base`: the depth at this body's root.
 */
function build(
  tokens: readonly MustacheToken[],
  source: string,
  env: CompileEnv,
  body: CompiledBody,
  sections: readonly string[],
  depth: number,
  base: number,
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
          throw new TemplateCompileError(
            `invalid resource directive ${quote(value)}: expected {{resource:URI}}`,
            token[2],
          );
        }
        addDirective(body, uri, depth > base);
        nodes.push(new TagNode(DIRECTIVE, uri, null, null));
      } else {
        const [key, rest] = splitName(value, token[2]);
        addName(body, key, token[2], sections, '');
        if (key === '.' && sections.length === 0) body.viewDot ??= token[2];
        nodes.push(new TagNode(VARIABLE, key, rest, null));
      }
    } else if (type === '#' || type === '^') {
      const value = token[1];
      if (value.startsWith(DIRECTIVE_PREFIX)) {
        throw new TemplateCompileError(`a resource directive cannot open a section: ${quote(value)}`, token[2]);
      }
      const [key, rest] = splitName(value, token[2]);
      // Checked before recursing, so no recursion (here, in render or in directive collection) goes deeper.
      if (depth + 1 > MAX_SECTION_DEPTH) throw sectionsTooDeep(token[2]);
      if (depth + 1 - base > body.depth) body.depth = depth + 1 - base;
      addName(body, key, token[2], sections, '');
      const inner = type === '#' && key !== '.' ? [...sections, key] : sections;
      const children = build(token[4] as MustacheToken[], source, env, body, inner, depth + 1, base);
      nodes.push(new TagNode(type === '#' ? SECTION : INVERTED, key, rest, children));
    } else if (type === '>') {
      includePartial(token, env, body, nodes, sections, depth, base);
    }
    // '!' (comment) and '=' (set delimiters) render nothing.
  }
  return nodes;
}

/** Compiles a template text (or a partial's) into nodes; throws {@link TemplateCompileError}. */
function compileBody(source: string, env: CompileEnv, base: number): CompiledBody {
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
  body.nodes = build(tokens, source, env, body, EMPTY_SECTIONS, base, base);
  return body;
}

/**
 * Compiles a top-level template into nodes. Throws {@link TemplateCompileError} with an offset into `source`.
 */
export function compileSource(source: string, partials: PartialLookup | undefined): CompiledBody {
  return compileBody(source, { partials, stack: [], done: new Map() }, 0);
}
