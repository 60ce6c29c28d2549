/**
 * Compile once: a definition becomes a {@link CompiledPrompt} at registration (argument validator, template tokens,
 * resource directives, the listing for prompts/list). A request only looks things up and runs compiled code.
 *
 * @module
 * @internal
 */
import type { ArgumentValidatorCache, ArgumentValidationOptions, CompiledArgumentValidator } from './arguments/index.js';
import { argumentFailureToPromptError } from './arguments/index.js';
import type {
  ContentTemplate,
  PromptArgumentDefinition,
  PromptDefinition,
  RenderContext,
} from './definition/types.js';
import { createDefinitionError } from './definition/index.js';
import { bytesToBase64 } from './encoding.js';
import { PromptError, errorClassName, isPromptError } from './errors.js';
import { guardPromptResult, normalizeRenderOutput } from './guard.js';
import type { CompiledTemplate, RenderLimits, ResourceErrorMode, TemplateCache } from './render/index.js';
import { assertRenderedSize, resolveEmbeddedResource, resolveResourceDirectives } from './render/index.js';
import { tooManyResources } from './render/limits.js';
import type { ResourceReadContext, ResourceResolver } from './resources.js';
import type { ContentBlock, GetPromptResult, Meta, Prompt, PromptArgument, PromptMessage, Role } from './types.js';

/** Loads the bytes of `{type: "image" | "audio", path}` content at render time (the fs subpath ships one). */
export interface AssetLoader {
  read(path: string, context: ResourceReadContext): Uint8Array | string | Promise<Uint8Array | string>;
}

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
}

/** @internal Everything a render needs from its registry. */
export interface RenderEnvironment {
  resources: ResourceResolver | undefined;
  assets: AssetLoader | undefined;
  limits: RenderLimits;
  onResourceError: ResourceErrorMode;
}

type Templated = CompiledTemplate | undefined;

type CompiledContent =
  | { kind: 'text'; text: CompiledTemplate; meta: Meta | undefined }
  | {
      kind: 'media';
      type: 'image' | 'audio';
      data: Templated;
      path: Templated;
      mimeType: CompiledTemplate;
      meta: Meta | undefined;
    }
  | { kind: 'resource'; uri: CompiledTemplate; mimeType: Templated; meta: Meta | undefined }
  | {
      kind: 'link';
      uri: CompiledTemplate;
      name: CompiledTemplate;
      title: Templated;
      description: Templated;
      mimeType: Templated;
      meta: Meta | undefined;
    };

interface CompiledMessage {
  role: Role;
  content: CompiledContent;
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
  render(args: Record<string, unknown>, context: RenderContext, env: RenderEnvironment): GetPromptResult | Promise<GetPromptResult>;
  /** Releases shared compiled templates and validators. */
  release(): void;
}

function buildListing(def: PromptDefinition): Prompt {
  const listing: Prompt = { name: def.name };
  if (def.title !== undefined) listing.title = def.title;
  if (def.description !== undefined) listing.description = def.description;
  const args = listArguments(def);
  if (args.length > 0) listing.arguments = args;
  if (def.icons !== undefined) listing.icons = def.icons.map((icon) => Object.freeze({ ...icon }));
  if (def._meta !== undefined) listing._meta = def._meta;
  return deepFreezeListing(listing);
}

/**
 * The arguments prompts/list shows, from the schema that actually validates: an `inputSchema` wins (its properties
 * in order, `required` from its array), with titles and descriptions taken from a same-named `arguments` entry
 * first; arguments declared only in `arguments` are listed after them as optional.
 */
function listArguments(def: PromptDefinition): PromptArgument[] {
  const declared = def.arguments ?? [];
  const schema = def.inputSchema;
  if (schema === undefined) {
    return declared.map((a) => listed(a.name, a.title, a.description, a.required === true));
  }
  const props = schema['properties'];
  const properties = props !== null && typeof props === 'object' ? (props as Record<string, unknown>) : {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  const names = Object.keys(properties);
  // A name the schema requires without describing it is still an argument the client must send.
  for (const name of required) if (typeof name === 'string' && !names.includes(name)) names.push(name);
  const out = names.map((name) => {
    const a = declared.find((d) => d.name === name);
    const p = properties[name];
    const meta = p !== null && typeof p === 'object' ? (p as { title?: unknown; description?: unknown }) : {};
    const title = a?.title ?? (typeof meta.title === 'string' ? meta.title : undefined);
    const description = a?.description ?? (typeof meta.description === 'string' ? meta.description : undefined);
    return listed(name, title, description, required.includes(name));
  });
  for (const a of declared) {
    if (!Object.hasOwn(properties, a.name)) out.push(listed(a.name, a.title, a.description, false));
  }
  return out;
}

function listed(name: string, title: string | undefined, description: string | undefined, required: boolean): PromptArgument {
  const out: PromptArgument = { name };
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  out.required = required;
  return out;
}

function deepFreezeListing(listing: Prompt): Prompt {
  if (listing.arguments) for (const a of listing.arguments) Object.freeze(a);
  Object.freeze(listing.arguments);
  Object.freeze(listing.icons);
  return Object.freeze(listing);
}

function declaredNames(def: PromptDefinition): Set<string> {
  const names = new Set<string>();
  for (const a of def.arguments ?? []) names.add(a.name);
  const props = def.inputSchema?.['properties'];
  if (props !== null && typeof props === 'object') for (const k of Object.keys(props)) names.add(k);
  return names;
}

/**
 * With both `arguments` and `inputSchema`, an argument the schema forbids (not among its properties while extra
 * properties are rejected) would be listed to clients yet refused on every request: a definition error.
 */
function checkDeclaredAgainstSchema(def: PromptDefinition, env: CompileEnvironment, source: string | undefined): void {
  const schema = def.inputSchema;
  if (schema === undefined || def.arguments === undefined) return;
  const extras = schema['additionalProperties'];
  const rejectsExtras = extras === false || (extras === undefined && env.validation.extraArguments === 'reject');
  if (!rejectsExtras) return;
  const props = schema['properties'];
  const properties = props !== null && typeof props === 'object' ? props : {};
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

/**
 * Declared arguments whose values may be arrays or objects, so names inside their sections may be item fields:
 * `type: 'array' | 'object'`, and inputSchema properties that allow either (or say nothing about their type).
 */
function iterableNames(def: PromptDefinition): Set<string> {
  const names = new Set<string>();
  for (const a of def.arguments ?? []) if (a.type === 'array' || a.type === 'object') names.add(a.name);
  const props = def.inputSchema?.['properties'];
  if (props !== null && typeof props === 'object') {
    for (const [name, p] of Object.entries(props as Record<string, unknown>)) {
      const type = p !== null && typeof p === 'object' ? (p as { type?: unknown }).type : undefined;
      const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : ['array'];
      if (types.includes('array') || types.includes('object')) names.add(name);
    }
  }
  return names;
}

/**
 * @internal Compiles a parsed definition. Throws INVALID_PROMPT_DEFINITION (template errors with pointer, line and
 * column); on failure nothing stays acquired.
 */
export function compilePrompt(def: PromptDefinition, env: CompileEnvironment, source?: string): CompiledPrompt {
  const acquired: CompiledTemplate[] = [];
  const declared = declaredNames(def);
  const iterable = iterableNames(def);
  const t = (text: string, pointer: string): CompiledTemplate => {
    const tpl = env.templates.acquire(text, {
      pointer,
      source,
      declaredArguments: declared,
      iterableArguments: iterable,
      undeclared: env.undeclared,
      onWarning: env.onWarning,
      partials: env.partials,
    });
    acquired.push(tpl);
    return tpl;
  };
  const opt = (text: string | undefined, pointer: string): Templated =>
    text === undefined ? undefined : t(text, pointer);

  const fail = (path: string, message: string): never => {
    throw createDefinitionError([{ path, message }], source === undefined ? { name: def.name } : { source, name: def.name });
  };

  let validator: CompiledArgumentValidator | undefined;
  try {
    let plan: TemplatePlan | undefined;
    if (def.messages !== undefined) {
      const messages = def.messages.map((m, i) => ({ role: m.role, content: compileContent(m.content, `/messages/${i}/content`) }));
      plan = {
        messages,
        directiveTemplates: withDirectives(acquired),
        embedded: messages.filter((m) => m.content.kind === 'resource').length,
      };
      if (env.resources === undefined) {
        const i = messages.findIndex((m) => m.content.kind === 'resource');
        const needs = `needs the registry's \`resources\` option (a ResourceResolver)`;
        if (i !== -1) fail(`/messages/${i}/content/uri`, `a resource block ${needs}`);
        const first = plan.directiveTemplates[0]?.resourceDirectives[0];
        if (first !== undefined) fail('/messages', `the directive {{resource:${first}}} ${needs}`);
      }
      messages.forEach((m, i) => {
        if (m.content.kind === 'media' && m.content.path !== undefined && env.assets === undefined) {
          fail(
            `/messages/${i}/content/path`,
            `a ${m.content.type} path needs the registry's \`assets\` option (mcp-prompt-kit/fs provides a file loader)`,
          );
        }
      });
    }
    checkDeclaredAgainstSchema(def, env, source);
    validator = env.validators.compile(def.arguments, def.inputSchema, env.validation);
    // Broken schemas and defaults fail here, at registration (cheap: no ajv compile, nothing for the fast path).
    validator.check();
    return new Compiled(def, buildListing(def), validator, plan, acquired, env.templates);
  } catch (error) {
    for (const tpl of acquired) env.templates.release(tpl);
    validator?.release();
    throw error;
  }

  function compileContent(content: ContentTemplate, pointer: string): CompiledContent {
    if (typeof content === 'string') return { kind: 'text', text: t(content, pointer), meta: undefined };
    switch (content.type) {
      case 'text':
        return { kind: 'text', text: t(content.text, `${pointer}/text`), meta: content._meta };
      case 'image':
      case 'audio':
        return {
          kind: 'media',
          type: content.type,
          data: opt(content.data, `${pointer}/data`),
          path: opt(content.path, `${pointer}/path`),
          mimeType: t(content.mimeType, `${pointer}/mimeType`),
          meta: content._meta,
        };
      case 'resource':
        return {
          kind: 'resource',
          uri: t(content.uri, `${pointer}/uri`),
          mimeType: opt(content.mimeType, `${pointer}/mimeType`),
          meta: content._meta,
        };
      case 'resource_link':
        return {
          kind: 'link',
          uri: t(content.uri, `${pointer}/uri`),
          name: t(content.name, `${pointer}/name`),
          title: opt(content.title, `${pointer}/title`),
          description: opt(content.description, `${pointer}/description`),
          mimeType: opt(content.mimeType, `${pointer}/mimeType`),
          meta: content._meta,
        };
    }
  }
}

const NO_TEMPLATES: readonly CompiledTemplate[] = Object.freeze([]);

/** The templates with resource directives; one shared empty array for the common case (10,000 prompts, no copies). */
function withDirectives(templates: readonly CompiledTemplate[]): readonly CompiledTemplate[] {
  return templates.some((tpl) => tpl.resourceDirectives.length > 0)
    ? templates.filter((tpl) => tpl.resourceDirectives.length > 0)
    : NO_TEMPLATES;
}

/** What a template prompt renders from, all derived once at registration. */
interface TemplatePlan {
  readonly messages: readonly CompiledMessage[];
  /** The templates holding `{{resource:...}}` directives (usually none). */
  readonly directiveTemplates: readonly CompiledTemplate[];
  /** How many `{type: "resource"}` blocks the prompt embeds (they count toward `maxResources`). */
  readonly embedded: number;
}

/** One class for every compiled prompt: methods live on the prototype, so 10,000 prompts allocate no closures. */
class Compiled implements CompiledPrompt {
  readonly name: string;
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
  }

  argument(name: string): PromptArgumentDefinition | undefined {
    const args = this.definition.arguments;
    if (args !== undefined) for (const a of args) if (a.name === name) return a;
    return undefined;
  }

  render(args: Record<string, unknown>, context: RenderContext, env: RenderEnvironment): GetPromptResult | Promise<GetPromptResult> {
    const plan = this.plan;
    if (plan === undefined) return renderProgrammatic(this.definition, args, context, env);
    return renderTemplates(this.name, this.definition.description, plan, args, context, env);
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

async function renderProgrammatic(
  def: PromptDefinition,
  args: Record<string, unknown>,
  context: RenderContext,
  env: RenderEnvironment,
): Promise<GetPromptResult> {
  let output: unknown;
  try {
    output = await (def.render as (a: Record<string, unknown>, c: RenderContext) => unknown)(args, context);
  } catch (error) {
    if (isPromptError(error)) throw error;
    // The thrown message may quote argument values: only its class goes into our message (the error is the cause).
    throw new PromptError('PROMPT_RENDER_FAILED', `prompt '${def.name}' render function threw ${errorClassName(error)}`, {
      cause: error,
    });
  }
  const normalized = normalizeRenderOutput(output as never, def.description);
  return guardPromptResult(normalized, { maxRenderedBytes: env.limits.maxRenderedBytes, promptName: def.name });
}

/**
 * Renders a template prompt. Synchronous (no promise of its own) when nothing needs I/O: no resource directive this
 * view reaches and only text, inline media and link blocks; otherwise resolves resources first.
 */
function renderTemplates(
  promptName: string,
  description: string | undefined,
  plan: TemplatePlan,
  args: Record<string, unknown>,
  context: RenderContext,
  env: RenderEnvironment,
): GetPromptResult | Promise<GetPromptResult> {
  const { messages, directiveTemplates, embedded } = plan;
  if (directiveTemplates.length > 0) {
    // Only the directives this view reaches (one inside a section that will not render is neither read nor counted).
    const needed = new Set<string>();
    for (const tpl of directiveTemplates) for (const d of tpl.resourceDirectivesFor(args)) needed.add(d);
    if (needed.size > 0) {
      const readContext = readContextOf(promptName, context);
      return resolveResourceDirectives([...needed], env.resources, readContext, {
        limits: env.limits,
        onResourceError: env.onResourceError,
        alreadyEmbedded: embedded,
      }).then((resources) => renderMessages(description, messages, args, resources, readContext, env));
    }
  }
  if (embedded > env.limits.maxResources) throw tooManyResources(env.limits.maxResources);
  return renderMessages(description, messages, args, undefined, readContextOf(promptName, context), env);
}

function readContextOf(promptName: string, context: RenderContext): ResourceReadContext {
  return context.signal === undefined ? { promptName } : { promptName, signal: context.signal };
}

function renderMessages(
  description: string | undefined,
  messages: readonly CompiledMessage[],
  args: Record<string, unknown>,
  resources: ReadonlyMap<string, string> | undefined,
  readContext: ResourceReadContext,
  env: RenderEnvironment,
): GetPromptResult | Promise<GetPromptResult> {
  const out: PromptMessage[] = new Array(messages.length);
  const sized: string[] = new Array(messages.length);
  let pending: Promise<void>[] | undefined;
  try {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      const c = m.content;
      if (c.kind === 'text') {
        const text = c.text.render(args, resources);
        sized[i] = text;
        out[i] = { role: m.role, content: c.meta === undefined ? { type: 'text', text } : { type: 'text', text, _meta: c.meta } };
        continue;
      }
      const index = i;
      const job = renderBlock(c, args, resources, readContext, env).then((block) => {
        out[index] = { role: m.role, content: block };
        sized[index] = blockPayload(block);
      });
      (pending ??= []).push(job);
    }
  } catch (error) {
    // A later message failed synchronously: the blocks already started must not become unhandled rejections.
    if (pending !== undefined) for (const job of pending) job.catch(() => {});
    throw error;
  }
  const finish = (): GetPromptResult => {
    if (description !== undefined) sized.push(description);
    assertRenderedSize(sized, env.limits);
    return description === undefined ? { messages: out } : { description, messages: out };
  };
  return pending === undefined ? finish() : Promise.all(pending).then(finish);
}

function blockPayload(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return block.data;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : block.resource.blob;
    case 'resource_link':
      return '';
  }
}

async function renderBlock(
  c: Exclude<CompiledContent, { kind: 'text' }>,
  args: Record<string, unknown>,
  resources: ReadonlyMap<string, string> | undefined,
  readContext: ResourceReadContext,
  env: RenderEnvironment,
): Promise<ContentBlock> {
  const meta = c.meta === undefined ? {} : { _meta: c.meta };
  switch (c.kind) {
    case 'media': {
      const mimeType = c.mimeType.render(args, resources);
      let data: string;
      if (c.data !== undefined) data = c.data.render(args, resources);
      else {
        const path = c.path!.render(args, resources);
        let loaded: Uint8Array | string;
        try {
          loaded = await env.assets!.read(path, readContext);
        } catch (error) {
          if (isPromptError(error)) throw error;
          throw new PromptError(
            'PROMPT_RENDER_FAILED',
            `prompt '${readContext.promptName}': the asset loader threw ${errorClassName(error)} for the ${c.type} path template '${c.path!.source}'`,
            { cause: error },
          );
        }
        data = typeof loaded === 'string' ? loaded : bytesToBase64(loaded);
      }
      return { type: c.type, data, mimeType, ...meta };
    }
    case 'resource': {
      const uri = c.uri.render(args, resources);
      const mimeType = c.mimeType?.render(args, resources);
      const resource = await resolveEmbeddedResource(uri, env.resources, readContext, {
        limits: env.limits,
        onResourceError: env.onResourceError,
        // Used only when the resolver gives none; internal (logged) messages name the template, not the rendered URI.
        ...(mimeType === undefined ? {} : { mimeType }),
        uriTemplate: c.uri.source,
      });
      return { type: 'resource', resource, ...meta };
    }
    case 'link': {
      const block: ContentBlock = { type: 'resource_link', uri: c.uri.render(args, resources), name: c.name.render(args, resources) };
      if (c.title !== undefined) block.title = c.title.render(args, resources);
      if (c.description !== undefined) block.description = c.description.render(args, resources);
      if (c.mimeType !== undefined) block.mimeType = c.mimeType.render(args, resources);
      if (c.meta !== undefined) block._meta = c.meta;
      return block;
    }
  }
}
