/**
 * Templates: compile once (mustache syntax, no HTML escaping, partials inlined, `{{resource:URI}}` directives found),
 * render many times from the compact parsed form. The language rules are in docs/prompts.md ("Templates").
 *
 * @module
 */
import { PromptError } from '../errors.js';
import type { DefinitionProblem, InvalidDefinitionData } from '../definition/types.js';
import { TemplateCompileError, compileSource } from './parse.js';
import type { CompiledBody, NameRef, PartialLookup } from './parse.js';
import { collectDirectives, renderNodes } from './nodes.js';
import { INVERTED, SECTION } from './tag-node.js';
import type { TemplateNode } from './tag-node.js';
import { offsetToPosition } from './position.js';
import { forecastRender } from './forecast.js';
import { DEFAULT_RENDER_LIMITS, RenderBudget, utf8ByteLength } from './limits.js';

/** Options of {@link compileTemplate} and {@link TemplateCache.acquire}. */
export interface CompileTemplateOptions {
  /** Where the template lives, for error messages: a JSON pointer like '/messages/0/content/text'. */
  pointer?: string;
  /** Source name (file path) for error messages. */
  source?: string;
  /**
   * Declared argument names: a placeholder naming anything else is an error (docs/prompts.md, "Templates", says which
   * are checked); `null`/omitted = don't check.
   */
  declaredArguments?: ReadonlySet<string> | null;
  /**
   * The declared arguments that may be arrays or objects: names inside their sections may be item fields (omitted:
   * types unknown, no section checked).
   */
  iterableArguments?: ReadonlySet<string>;
  /** What an undeclared name is: a definition error (default) or a warning passed to `onWarning`. */
  undeclared?: 'error' | 'warn';
  /** Receives warnings (undeclared names with `undeclared: 'warn'`). */
  onWarning?: (message: string) => void;
  /** Resolves partial names to their source text at compile time (partials are registered on the registry by name). */
  partials?: (name: string) => string | undefined;
}

/** A compiled template: parse once, render many times. */
export interface CompiledTemplate {
  readonly source: string;
  /** Top-level variable/section names referenced (first segments; excluding resource directives), in order. */
  readonly variables: readonly string[];
  /** `{{resource:URI}}` directives in order of first appearance, URI text as written (trimmed). */
  readonly resourceDirectives: readonly string[];
  /** Whether the template has no tags at all (then `render()` returns `source`). */
  readonly isStatic: boolean;
  /** Names of the partials inlined into this template (transitively), in no particular order. */
  readonly partialNames: readonly string[];
  /**
   * Render with a view (an object of argument values that inherits nothing) and the resolved directive texts
   * (directive URI -> text). Synchronous. Output over the budget (default: {@link DEFAULT_RENDER_LIMITS}, 1 MiB) stops
   * the render with LIMIT_EXCEEDED as soon as it is crossed. Throws INTERNAL_ERROR if a directive the render reaches is
   * missing from `resources`.
   */
  render(
    view: Readonly<Record<string, unknown>>,
    resources?: ReadonlyMap<string, string>,
    budget?: RenderBudget,
  ): string;
  /**
   * The directives a render with this view actually reaches (a directive inside a section whose argument is absent
   * is skipped), in order of first appearance: resolve these, not all of `resourceDirectives`.
   */
  resourceDirectivesFor(view: Readonly<Record<string, unknown>>, budget?: RenderBudget): readonly string[];
}

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_NAMES: readonly NameRef[] = Object.freeze([]);

class Template implements CompiledTemplate {
  readonly source: string;
  readonly resourceDirectives: readonly string[];
  readonly isStatic: boolean;
  readonly partialNames: readonly string[];
  /** @internal every name looked up, with its enclosing sections (for the declared-argument check). */
  readonly names: readonly NameRef[];
  /** @internal the inlined text of each of `partialNames` (TemplateCache checks they are unchanged). */
  readonly partialTexts: readonly string[];
  /** @internal offset of a `{{.}}` that would render the whole view, if any. */
  readonly viewDot: number | undefined;
  private readonly nodes: readonly TemplateNode[];
  /** The whole output when it does not depend on the view. */
  private readonly text: string | undefined;
  private readonly conditional: boolean;
  /** Whether any section or inverted section is at the top level (so anywhere): only these can repeat work. */
  private readonly sections: boolean;

  constructor(source: string, body: CompiledBody) {
    this.source = source;
    this.isStatic = source.indexOf('{{') === -1;
    this.nodes = body.nodes;
    const only = body.nodes.length === 1 ? body.nodes[0] : undefined;
    this.text = body.nodes.length === 0 ? '' : typeof only === 'string' ? only : undefined;
    this.names = body.names.length === 0 ? EMPTY_NAMES : body.names;
    this.resourceDirectives = body.directives.length === 0 ? EMPTY : body.directives;
    this.conditional = body.conditional;
    this.sections = body.nodes.some((n) => typeof n !== 'string' && (n.kind === SECTION || n.kind === INVERTED));
    this.viewDot = body.viewDot;
    if (body.partials.size === 0) {
      this.partialNames = EMPTY;
      this.partialTexts = EMPTY;
    } else {
      this.partialNames = [...body.partials.keys()];
      this.partialTexts = [...body.partials.values()];
    }
  }

  /**
   * @internal The length of the literal text outside every section (partials' included): UTF-16 units, or UTF-8 bytes.
   */
  fixedLength(inBytes: boolean): number {
    let n = 0;
    for (const node of this.nodes) if (typeof node === 'string') n += inBytes ? utf8ByteLength(node) : node.length;
    return n;
  }

  /** Derived on demand: 10,000 templates keep no second array of names. */
  get variables(): readonly string[] {
    const variables: string[] = [];
    for (const ref of this.names) if (ref.sections.length === 0) variables.push(ref.name);
    return variables.length === 0 ? EMPTY : variables;
  }

  render(
    view: Readonly<Record<string, unknown>>,
    resources?: ReadonlyMap<string, string>,
    budget: RenderBudget = new RenderBudget(DEFAULT_RENDER_LIMITS.maxRenderedBytes),
  ): string {
    if (this.text !== undefined) {
      budget.spend(this.text);
      return this.text;
    }
    const stack: unknown[] = [view];
    if (this.sections && holdsContainer(view)) forecastRender(this.nodes, stack, 0, resources, budget);
    return renderNodes(this.nodes, stack, 0, resources, budget);
  }

  resourceDirectivesFor(
    view: Readonly<Record<string, unknown>>,
    budget: RenderBudget = new RenderBudget(DEFAULT_RENDER_LIMITS.maxRenderedBytes),
  ): readonly string[] {
    if (!this.conditional) return this.resourceDirectives;
    const found = new Set<string>();
    const stack: unknown[] = [view];
    if (holdsContainer(view)) forecastRender(this.nodes, stack, 0, undefined, budget);
    collectDirectives(this.nodes, stack, 0, found, budget);
    return found.size === this.resourceDirectives.length
      ? this.resourceDirectives
      : this.resourceDirectives.filter((uri) => found.has(uri));
  }
}

/**
 * Whether a view holds an array or object: without one no section can repeat anything (strings and numbers open a
 * section once).
 */
function holdsContainer(view: Readonly<Record<string, unknown>>): boolean {
  for (const key in view) {
    const value = view[key];
    if (typeof value === 'object' && value !== null) return true;
  }
  return false;
}

/** @internal What every render of `template` writes whatever the view, in UTF-16 units (or bytes with `inBytes`). */
export function fixedLength(template: CompiledTemplate, inBytes = false): number {
  return template instanceof Template ? template.fixedLength(inBytes) : 0;
}

function definitionError(options: CompileTemplateOptions, problems: DefinitionProblem[]): PromptError {
  const head = `${options.source === undefined ? '' : `${options.source}: `}invalid template${
    options.pointer ? ` at ${options.pointer}` : ''
  }`;
  const data: InvalidDefinitionData =
    options.source === undefined ? { problems } : { source: options.source, problems };
  return new PromptError('INVALID_PROMPT_DEFINITION', `${head}: ${problems.map((p) => p.message).join('; ')}`, {
    data,
  });
}

function problemAt(source: string, message: string, offset: number | undefined, pointer: string): DefinitionProblem {
  if (offset === undefined) return { path: pointer, message };
  const { line, column } = offsetToPosition(source, offset);
  return { path: pointer, message: `${message} (line ${line}, column ${column})`, line, column };
}

function build(source: string, options: CompileTemplateOptions): Template {
  if (typeof source !== 'string') {
    throw definitionError(options, [{ path: options.pointer ?? '', message: 'template must be a string' }]);
  }
  try {
    return new Template(source, compileSource(source, options.partials as PartialLookup | undefined));
  } catch (error) {
    if (!(error instanceof TemplateCompileError)) throw error;
    throw definitionError(options, [problemAt(source, error.message, error.offset, options.pointer ?? '')]);
  }
}

const VIEW_DOT =
  '{{.}} outside every section would render all arguments, undeclared ones too: name the arguments instead';

/** Whether a name inside these `{{#section}}`s is looked up in the arguments (see `declaredArguments`). */
function isChecked(
  sections: readonly string[],
  declared: ReadonlySet<string>,
  iterable: ReadonlySet<string> | undefined,
): boolean {
  if (sections.length === 0) return true;
  if (iterable === undefined) return false;
  for (let i = 0; i < sections.length; i++) {
    const name = sections[i] as string;
    if (!declared.has(name) || iterable.has(name)) return false;
  }
  return true;
}

function checkDeclared(template: Template, options: CompileTemplateOptions): void {
  const declared = options.declaredArguments;
  if (declared === undefined || declared === null) return;
  const iterable = options.iterableArguments;
  let reported: Set<string> | undefined;
  let problems: DefinitionProblem[] | undefined;
  let found: { message: string; offset: number }[] | undefined;
  if (template.viewDot !== undefined) found = [{ message: VIEW_DOT, offset: template.viewDot }];
  for (const ref of template.names) {
    if (declared.has(ref.name) || reported?.has(ref.name) || !isChecked(ref.sections, declared, iterable)) continue;
    (reported ??= new Set()).add(ref.name);
    const message =
      ref.via === '' ? `undeclared argument '${ref.name}' in template` : `${ref.via}undeclared argument '${ref.name}'`;
    (found ??= []).push({ message, offset: ref.offset });
  }
  if (found === undefined) return;
  for (const { message, offset } of found) {
    const problem = problemAt(template.source, message, offset, options.pointer ?? '');
    if (options.undeclared === 'warn') {
      const where = `${options.source === undefined ? '' : `${options.source}: `}${
        options.pointer ? `${options.pointer}: ` : ''
      }`;
      options.onWarning?.(`${where}${problem.message}`);
    } else {
      (problems ??= []).push(problem);
    }
  }
  if (problems !== undefined) throw definitionError(options, problems);
}

/**
 * Compiles a template once: parses it with mustache (private parser, default `{{ }}` tags, no global state), inlines
 * partials, finds `{{resource:URI}}` directives and checks placeholders against the declared arguments.
 * Throws PromptError `INVALID_PROMPT_DEFINITION` (data `{source?, problems: [{path, message, line, column}]}`, with
 * line/column inside the template text) for syntax errors, unknown partials, nesting deeper than 100 levels and
 * undeclared arguments (docs/prompts.md, "Templates", says which names are checked).
 *
 * @example
 * ```ts
 * const t = compileTemplate('Review this {{language}} code:\n{{code}}', {
 *   declaredArguments: new Set(['code', 'language']),
 * });
 * t.render({ __proto__: null, code: 'a < b && c', language: 'ts' }); // 'Review this ts code:\na < b && c'
 *
 * // 'focus' is a string: names inside its section are arguments too, so the typo 'focsu' is an error.
 * compileTemplate('{{#focus}}Focus on {{focsu}}{{/focus}}', {
 *   declaredArguments: new Set(['focus']),
 *   iterableArguments: new Set(),
 * }); // throws INVALID_PROMPT_DEFINITION: undeclared argument 'focsu' in template (line 1, column 20)
 * ```
 */
export function compileTemplate(source: string, options: CompileTemplateOptions = {}): CompiledTemplate {
  const template = build(source, options);
  checkDeclared(template, options);
  return template;
}

interface CacheEntry {
  readonly template: Template;
  refs: number;
}

function partialsUnchanged(template: Template, partials: PartialLookup | undefined): boolean {
  for (let i = 0; i < template.partialNames.length; i++) {
    if (partials?.(template.partialNames[i] as string) !== template.partialTexts[i]) return false;
  }
  return true;
}

/** Shares compiled templates between identical texts, per registry; reference counted (`acquire` / `release`). */
export class TemplateCache {
  readonly #entries = new Map<string, CacheEntry[]>();
  #size = 0;

  /** Number of distinct compiled templates held. */
  get size(): number {
    return this.#size;
  }

  /**
   * Returns the compiled template for `source` (compiling it on first use) and takes a reference to it.
   * Throws like {@link compileTemplate}; a failed acquire takes no reference.
   */
  acquire(source: string, options: CompileTemplateOptions = {}): CompiledTemplate {
    const list = this.#entries.get(source);
    if (list !== undefined) {
      for (const entry of list) {
        if (!partialsUnchanged(entry.template, options.partials)) continue;
        checkDeclared(entry.template, options);
        entry.refs++;
        return entry.template;
      }
    }
    const template = build(source, options);
    checkDeclared(template, options);
    const entry: CacheEntry = { template, refs: 1 };
    if (list === undefined) this.#entries.set(source, [entry]);
    else list.push(entry);
    this.#size++;
    return template;
  }

  /** Takes one more reference on a template this cache holds, unless its partials changed since (then false). */
  retain(template: CompiledTemplate, partials: PartialLookup | undefined): boolean {
    const entry = this.#entries.get(template.source)?.find((e) => e.template === template);
    if (entry === undefined || !partialsUnchanged(entry.template, partials)) return false;
    entry.refs++;
    return true;
  }

  /**
   * Drops one reference taken by {@link TemplateCache.acquire}; the entry is freed with its last reference.
   * Releasing a template this cache does not hold does nothing.
   */
  release(template: CompiledTemplate): void {
    const list = this.#entries.get(template.source);
    if (list === undefined) return;
    const index = list.findIndex((entry) => entry.template === template);
    if (index === -1) return;
    const entry = list[index] as CacheEntry;
    if (--entry.refs > 0) return;
    this.#size--;
    if (list.length === 1) this.#entries.delete(template.source);
    else list.splice(index, 1);
  }
}
