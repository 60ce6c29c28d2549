/**
 * Compile once: a definition becomes a {@link CompiledPrompt} at registration (argument validator, template tokens,
 * resource directives, the prompts/list entry). A request only looks things up and runs compiled code.
 *
 * @module
 * @internal
 */
import type { ArgumentValidatorCache } from '../arguments/cache.js';
import type { ArgumentValidationOptions, CompiledArgumentValidator } from '../arguments/types.js';
import { argumentFailureToPromptError } from '../arguments/failures.js';
import type {
  ContentTemplate,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptMessageTemplate,
  RenderContext,
} from '../definition/types.js';
import { createDefinitionError } from '../definition/problems.js';
import { MAX_SCHEMA_DEPTH } from '../definition/keywords.js';
import { JsonDataError, isRecord, jsonData } from '../json.js';
import { listedArguments, promptListing, schemaProperties } from '../definition/listing.js';
import type { AssetLoader, ResourceResolver } from '../resources.js';
import type { GetPromptResult, Prompt, PromptArgument } from '../types.js';
import { utf8ByteLength } from '../render/limits.js';
import { isBase64, wellFormed } from '../encoding.js';
import { renderProgrammatic, renderTemplates } from '../render/messages.js';
import type { CompiledContent, RenderEnvironment, TemplatePlan } from '../render/messages.js';
import { fixedLength } from '../render/template.js';
import type { CompiledTemplate, TemplateCache } from '../render/template.js';

/** @internal Everything a compile needs from its registry. */
export interface CompileEnvironment {
  templates: TemplateCache;
  validators: ArgumentValidatorCache;
  validation: ArgumentValidationOptions;
  partials: ((name: string) => string | undefined) | undefined;
  undeclared: 'error' | 'warn';
  onWarning: (message: string) => void;
  assets: AssetLoader | undefined;
  /** Whether the registry has a ResourceResolver (directives and resource blocks need one). */
  resources: ResourceResolver | undefined;
  /** The rendered-size limit: static text over it can never render (a definition error). Default 1 MiB. */
  maxRenderedBytes?: number;
  /** Text-only plans shared between prompts with the same roles and templates (keyed by their first template). */
  plans?: WeakMap<CompiledTemplate, TemplatePlan | TemplatePlan[]>;
  /** What a shared (frozen, parsed) argument list implies, for definitions without an inputSchema. */
  argumentFacts?: WeakMap<readonly PromptArgumentDefinition[], ArgumentFacts>;
  /** The shared text-only plan of a frozen message list, with the argument facts it was checked against. */
  messagePlans?: WeakMap<readonly PromptMessageTemplate[], KnownPlan>;
}

/** @internal A shared plan, reusable by a definition with the same message list and the same argument facts. */
export interface KnownPlan {
  readonly facts: ArgumentFacts;
  readonly plan: TemplatePlan & { readonly templates: readonly CompiledTemplate[] };
}

/** @internal What compiling needs from a definition's arguments: names for the template checks, the listing. */
export interface ArgumentFacts {
  readonly declared: ReadonlySet<string>;
  readonly iterable: ReadonlySet<string>;
  readonly listed: readonly PromptArgument[] | undefined;
}

function argumentFacts(def: PromptDefinition, properties: Readonly<Record<string, unknown>>): ArgumentFacts {
  return {
    declared: declaredNames(def, properties),
    iterable: iterableNames(def, properties),
    listed: listedArguments(def),
  };
}

/** The facts of `def`'s arguments, shared by every definition holding the same frozen list and no inputSchema. */
function factsOf(
  def: PromptDefinition,
  properties: Readonly<Record<string, unknown>>,
  env: CompileEnvironment,
): ArgumentFacts {
  const args = def.arguments;
  if (def.inputSchema !== undefined || args === undefined || !Object.isFrozen(args))
    return argumentFacts(def, properties);
  const cache = (env.argumentFacts ??= new WeakMap());
  let facts = cache.get(args);
  if (facts === undefined) cache.set(args, (facts = argumentFacts(def, properties)));
  return facts;
}

/**
 * @internal What a request brings to a render (a render function's {@link RenderContext} is built from it on demand).
 */
export interface RenderRequest {
  readonly signal?: AbortSignal | undefined;
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

/** @internal A definition compiled for serving. Immutable; a replace creates a new one. */
export interface CompiledPrompt {
  readonly name: string;
  readonly definition: PromptDefinition;
  /** The frozen entry for prompts/list. */
  readonly listing: Prompt;
  readonly validator: CompiledArgumentValidator;
  /** The declared argument of that name, if any. */
  argument(name: string): PromptArgumentDefinition | undefined;
  /** Renders validated arguments into a result (throws PromptError). */
  render(
    args: Record<string, unknown>,
    request: RenderRequest,
    env: RenderEnvironment,
  ): GetPromptResult | Promise<GetPromptResult>;
  /** Releases shared compiled templates and validators. */
  release(): void;
}

function declaredNames(def: PromptDefinition, properties: Readonly<Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  for (const a of def.arguments ?? []) names.add(a.name);
  for (const k of Object.keys(properties)) names.add(k);
  return names;
}

/** Declared arguments that may be arrays or objects (a schema saying nothing about the type counts). */
function iterableNames(def: PromptDefinition, properties: Readonly<Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  for (const a of def.arguments ?? []) if (a.type === 'array' || a.type === 'object') names.add(a.name);
  for (const [name, p] of Object.entries(properties)) {
    const type = isRecord(p) ? p['type'] : undefined;
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : ['array'];
    if (types.includes('array') || types.includes('object')) names.add(name);
  }
  return names;
}

/** An argument the inputSchema forbids would be listed yet refused on every request: a definition error. */
function checkDeclaredAgainstSchema(
  def: PromptDefinition,
  properties: Readonly<Record<string, unknown>>,
  env: CompileEnvironment,
  source: string | undefined,
): void {
  const schema = def.inputSchema;
  if (schema === undefined || def.arguments === undefined) return;
  const extras = schema['additionalProperties'];
  const rejectsExtras = extras === false || (extras === undefined && env.validation.extraArguments === 'reject');
  if (!rejectsExtras) return;
  const problems = def.arguments
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => !Object.hasOwn(properties, a.name))
    .map(({ a, i }) => ({
      path: `/arguments/${i}/name`,
      message: `argument '${a.name}' is declared but the inputSchema rejects it (not among its properties, and extra arguments are rejected)`,
    }));
  if (problems.length > 0) {
    throw createDefinitionError(problems, source === undefined ? { name: def.name } : { source, name: def.name });
  }
}

/** Compiles the templates of one definition, remembering what it acquired (released on failure or replace). */
class PromptCompiler {
  readonly acquired: CompiledTemplate[] = [];

  constructor(
    readonly def: PromptDefinition,
    readonly env: CompileEnvironment,
    readonly source: string | undefined,
    readonly facts: ArgumentFacts,
  ) {}

  template(text: string, pointer: string): CompiledTemplate {
    const tpl = this.env.templates.acquire(typeof text === 'string' ? wellFormed(text) : text, {
      pointer,
      source: this.source,
      declaredArguments: this.facts.declared,
      iterableArguments: this.facts.iterable,
      undeclared: this.env.undeclared,
      onWarning: this.env.onWarning,
      partials: this.env.partials,
    });
    this.acquired.push(tpl);
    return tpl;
  }

  optionalTemplate(text: string | undefined, pointer: string): CompiledTemplate | undefined {
    return text === undefined ? undefined : this.template(text, pointer);
  }

  definitionError(path: string, message: string): never {
    const def = this.def;
    throw createDefinitionError(
      [{ path, message }],
      this.source === undefined ? { name: def.name } : { source: this.source, name: def.name },
    );
  }

  /** `_meta` as frozen plain JSON data (well-formed strings and keys), as every get and the listing send it. */
  meta(meta: Record<string, unknown> | undefined, pointer: string): Record<string, unknown> | undefined {
    if (meta === undefined) return undefined;
    let copy: unknown;
    try {
      copy = jsonData(meta, { maxDepth: MAX_SCHEMA_DEPTH, size: Infinity, freeze: true });
    } catch (error) {
      if (!(error instanceof JsonDataError)) throw error;
      return this.definitionError(pointer + error.at, `_meta must be JSON data: it ${error.reason}`);
    }
    return isRecord(copy) ? copy : this.definitionError(pointer, '_meta must be an object as JSON writes it');
  }

  content(content: ContentTemplate, pointer: string): CompiledContent {
    if (typeof content === 'string') return { kind: 'text', text: this.template(content, pointer), meta: undefined };
    const meta = this.meta(content._meta, `${pointer}/_meta`);
    switch (content.type) {
      case 'text':
        return { kind: 'text', text: this.template(content.text, `${pointer}/text`), meta };
      case 'image':
      case 'audio': {
        const data = this.optionalTemplate(content.data, `${pointer}/data`);
        const mimeType = this.template(content.mimeType, `${pointer}/mimeType`);
        // Text without tags renders as written: what every get would refuse is a definition error now.
        if (data?.isStatic === true && !isBase64(data.source)) {
          this.definitionError(
            `${pointer}/data`,
            `${content.type} data must be base64 (standard alphabet, padded, no whitespace)`,
          );
        }
        if (mimeType.isStatic && mimeType.source.trim() === '') {
          this.definitionError(`${pointer}/mimeType`, `${content.type} mimeType must not be blank`);
        }
        return {
          kind: 'media',
          type: content.type,
          data,
          path: this.optionalTemplate(content.path, `${pointer}/path`),
          mimeType,
          meta,
        };
      }
      case 'resource':
        return {
          kind: 'resource',
          uri: this.template(content.uri, `${pointer}/uri`),
          mimeType: this.optionalTemplate(content.mimeType, `${pointer}/mimeType`),
          meta,
        };
      case 'resource_link':
        return {
          kind: 'link',
          uri: this.template(content.uri, `${pointer}/uri`),
          name: this.template(content.name, `${pointer}/name`),
          title: this.optionalTemplate(content.title, `${pointer}/title`),
          description: this.optionalTemplate(content.description, `${pointer}/description`),
          mimeType: this.optionalTemplate(content.mimeType, `${pointer}/mimeType`),
          meta,
        };
    }
  }

  plan(messages: NonNullable<PromptDefinition['messages']>): TemplatePlan {
    const env = this.env;
    const known = env.messagePlans?.get(messages);
    if (known !== undefined && known.facts === this.facts && this.retain(known.plan.templates)) {
      this.checkStaticSize(known.plan.messages);
      return known.plan;
    }
    const plan = this.build(messages);
    // Checked against these facts without a warning (undeclared names are errors): the next equal definition may skip
    // it.
    if (plan.templates !== undefined && env.undeclared === 'error' && Object.isFrozen(messages)) {
      (env.messagePlans ??= new WeakMap()).set(messages, { facts: this.facts, plan: plan as KnownPlan['plan'] });
    }
    return plan;
  }

  /** Takes one more reference on each of `templates` (all or none; none when one is no longer current). */
  retain(templates: readonly CompiledTemplate[]): boolean {
    const cache = this.env.templates;
    for (let i = 0; i < templates.length; i++) {
      if (!cache.retain(templates[i]!, this.env.partials)) {
        for (let j = 0; j < i; j++) cache.release(templates[j]!);
        return false;
      }
    }
    for (const tpl of templates) this.acquired.push(tpl);
    return true;
  }

  build(messages: NonNullable<PromptDefinition['messages']>): TemplatePlan {
    const env = this.env;
    const compiled = messages.map((m, i) => ({
      role: m.role,
      content: this.content(m.content, `/messages/${i}/content`),
    }));
    const plan: TemplatePlan = {
      messages: compiled,
      directiveTemplates: withDirectives(this.acquired),
      embedded: compiled.filter((m) => m.content.kind === 'resource').length,
      textOnly: compiled.every((m) => m.content.kind === 'text'),
    };
    if (env.resources === undefined) {
      const i = compiled.findIndex((m) => m.content.kind === 'resource');
      const needs = `needs the registry's \`resources\` option (a ResourceResolver)`;
      if (i !== -1) this.definitionError(`/messages/${i}/content/uri`, `a resource block ${needs}`);
      const first = plan.directiveTemplates[0]?.resourceDirectives[0];
      if (first !== undefined) this.definitionError('/messages', `the directive {{resource:${first}}} ${needs}`);
    }
    compiled.forEach((m, i) => {
      if (m.content.kind === 'media' && m.content.path !== undefined && env.assets === undefined) {
        this.definitionError(
          `/messages/${i}/content/path`,
          `an ${m.content.type} path needs the registry's \`assets\` option (mcp-prompt-kit/fs provides a file loader)`,
        );
      }
    });
    this.checkStaticSize(compiled);
    return this.shared(plan);
  }

  /** An equal text-only plan already in use (same roles, same shared templates, no _meta), else this one. */
  shared(plan: TemplatePlan): TemplatePlan {
    const first = this.acquired[0];
    if (!plan.textOnly || first === undefined || this.acquired.length !== plan.messages.length) return plan;
    if (plan.messages.some((m) => m.content.kind !== 'text' || m.content.meta !== undefined)) return plan;
    const plans = (this.env.plans ??= new WeakMap());
    const known = plans.get(first);
    const candidates = known === undefined ? [] : Array.isArray(known) ? known : [known];
    const textOf = (content: CompiledContent): unknown => (content as { text: unknown }).text;
    const same = candidates.find(
      (p) =>
        p.messages.length === plan.messages.length &&
        p.messages.every(
          (m, i) => m.role === plan.messages[i]!.role && textOf(m.content) === textOf(plan.messages[i]!.content),
        ),
    );
    if (same !== undefined) return same;
    const owned: TemplatePlan = { ...plan, templates: this.acquired };
    if (known === undefined) plans.set(first, owned);
    else if (candidates.length < 16) plans.set(first, [...candidates, owned]);
    return owned;
  }

  /** A definition error when what every render writes, whatever the arguments, is over the rendered-size limit. */
  checkStaticSize(messages: TemplatePlan['messages']): void {
    const max = this.env.maxRenderedBytes ?? 1_048_576;
    const description = this.def.description;
    const described = description === undefined ? 0 : utf8ByteLength(description);
    if (described > max)
      this.definitionError('/description', `the description is over the ${max}-byte rendered-size limit`);
    // UTF-8 needs at most 3 bytes per UTF-16 unit: measure bytes only when the units could cross the limit.
    let units = description?.length ?? 0;
    for (const m of messages) forEachTemplate(m.content, (tpl) => (units += fixedLength(tpl)));
    if (units * 3 <= max) return;
    let total = described;
    messages.forEach((m, i) => {
      forEachTemplate(m.content, (tpl, field) => {
        const bytes = fixedLength(tpl, true);
        total += bytes;
        if (bytes <= max) return;
        this.definitionError(
          `/messages/${i}/content/${field}`,
          `the text it always renders (outside sections, partials included) is over the ${max}-byte rendered-size limit`,
        );
      });
    });
    if (total > max) {
      this.definitionError(
        '/messages',
        `the text the prompt always renders (the description, and the messages outside sections) is over the ${max}-byte rendered-size limit`,
      );
    }
  }
}

/** Calls `fn` with each template of a content block and its field's name (a render renders every one of them). */
function forEachTemplate(c: CompiledContent, fn: (tpl: CompiledTemplate, field: string) => void): void {
  switch (c.kind) {
    case 'text':
      fn(c.text, 'text');
      return;
    case 'media':
      if (c.data !== undefined) fn(c.data, 'data');
      if (c.path !== undefined) fn(c.path, 'path');
      fn(c.mimeType, 'mimeType');
      return;
    case 'resource':
      fn(c.uri, 'uri');
      if (c.mimeType !== undefined) fn(c.mimeType, 'mimeType');
      return;
    case 'link':
      fn(c.uri, 'uri');
      fn(c.name, 'name');
      if (c.title !== undefined) fn(c.title, 'title');
      if (c.description !== undefined) fn(c.description, 'description');
      if (c.mimeType !== undefined) fn(c.mimeType, 'mimeType');
  }
}

const NO_TEMPLATES: readonly CompiledTemplate[] = Object.freeze([]);

/** The templates with resource directives; one shared empty array for the common case. */
function withDirectives(templates: readonly CompiledTemplate[]): readonly CompiledTemplate[] {
  return templates.some((tpl) => tpl.resourceDirectives.length > 0)
    ? templates.filter((tpl) => tpl.resourceDirectives.length > 0)
    : NO_TEMPLATES;
}

/**
 * @internal Compiles a parsed definition. Throws INVALID_PROMPT_DEFINITION (template errors with pointer, line and
 * column); on failure nothing stays acquired.
 */
export function compilePrompt(def: PromptDefinition, env: CompileEnvironment, source?: string): CompiledPrompt {
  const properties = schemaProperties(def);
  const facts = factsOf(def, properties, env);
  const compiler = new PromptCompiler(def, env, source, facts);
  let validator: CompiledArgumentValidator | undefined;
  try {
    const meta = compiler.meta(def._meta, '/_meta');
    const plan = def.messages === undefined ? undefined : compiler.plan(def.messages);
    if (plan === undefined && def.description !== undefined) compiler.checkStaticSize([]);
    checkDeclaredAgainstSchema(def, properties, env, source);
    validator = env.validators.compile(def.arguments, def.inputSchema, env.validation);
    // Broken schemas and defaults fail here, at registration (cheap: no ajv compile, nothing for the fast path).
    validator.check();
    // A shared plan holds the same templates this compile acquired, in order: its list stands in for ours.
    const acquired = plan?.templates ?? compiler.acquired;
    return new ServedPrompt(def, promptListing(def, facts.listed, meta), validator, plan, acquired, env.templates);
  } catch (error) {
    for (const tpl of compiler.acquired) env.templates.release(tpl);
    validator?.release();
    throw error;
  }
}

/** One class for every compiled prompt: methods live on the prototype, so 10,000 prompts allocate no closures. */
class ServedPrompt implements CompiledPrompt {
  readonly name: string;
  /** The description made well-formed once (templates are too), so a render only counts it. */
  readonly #description: string | undefined;
  #released = false;

  constructor(
    readonly definition: PromptDefinition,
    readonly listing: Prompt,
    readonly validator: CompiledArgumentValidator,
    private readonly plan: TemplatePlan | undefined,
    private readonly acquired: readonly CompiledTemplate[],
    private readonly templates: TemplateCache,
  ) {
    this.name = definition.name;
    this.#description = definition.description === undefined ? undefined : wellFormed(definition.description);
  }

  argument(name: string): PromptArgumentDefinition | undefined {
    const args = this.definition.arguments;
    if (args !== undefined) for (const a of args) if (a.name === name) return a;
    return undefined;
  }

  render(
    args: Record<string, unknown>,
    request: RenderRequest,
    env: RenderEnvironment,
  ): GetPromptResult | Promise<GetPromptResult> {
    const plan = this.plan;
    if (plan !== undefined) return renderTemplates(this.name, this.#description, plan, args, request.signal, env);
    const context: Omit<RenderContext, 'signal'> = { promptName: this.name };
    if (env.resources !== undefined) context.resources = env.resources;
    if (request.extra !== undefined) context.extra = request.extra;
    return renderProgrammatic(this.definition, args, context, request.signal, env);
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const tpl of this.acquired) this.templates.release(tpl);
    this.validator.release();
  }
}

/** @internal Validates arguments with a compiled prompt's validator; throws the mapped PromptError. */
export function validateArguments(prompt: CompiledPrompt, provided: unknown): Record<string, unknown> {
  const result = prompt.validator.validate(provided);
  if (!result.ok) throw argumentFailureToPromptError(result.error);
  return result.arguments;
}
