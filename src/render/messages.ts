/**
 * Rendering a compiled prompt into a GetPromptResult: template messages (one budget per render, resources and assets
 * waited for under one deadline) or a render function's output through the result guard.
 *
 * @module
 * @internal
 */
import type { PromptDefinition, RenderContext } from '../definition/types.js';
import { bytesToBase64, isBase64, wellFormed } from '../encoding.js';
import { ResourceDeadline, runWithDeadline } from '../deadline.js';
import { PromptError, errorClassName, isPromptError } from '../errors.js';
import type { AssetLoader, ResourceReadContext, ResourceResolver } from '../resources.js';
import type { ContentBlock, GetPromptResult, Meta, PromptMessage, Role, TextContent } from '../types.js';
import { resolveEmbeddedResource, resolveResourceDirectives } from './directives.js';
import type { ResourceErrorMode } from './directives.js';
import { RenderBudget, assertRenderedSize, tooManyResources } from './limits.js';
import type { RenderLimits } from './limits.js';
import { guardPromptResult, normalizeRenderOutput } from './result-guard.js';
import type { CompiledTemplate } from './template.js';

/** @internal Everything a render needs from its registry. */
export interface RenderEnvironment {
  resources: ResourceResolver | undefined;
  assets: AssetLoader | undefined;
  limits: RenderLimits;
  onResourceError: ResourceErrorMode;
}

type Templated = CompiledTemplate | undefined;

/** @internal One content block of a template prompt, compiled. */
export type CompiledContent =
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

/** @internal What a template prompt renders from, all derived once at registration. */
export interface TemplatePlan {
  readonly messages: readonly { readonly role: Role; readonly content: CompiledContent }[];
  /** The templates holding `{{resource:...}}` directives (usually none). */
  readonly directiveTemplates: readonly CompiledTemplate[];
  /** How many `{type: "resource"}` blocks the prompt embeds (they count toward `maxResources`). */
  readonly embedded: number;
  /** Whether every message is a text block (then a render without directives needs no I/O at all). */
  readonly textOnly: boolean;
  /** For a plan shared between prompts: the templates each of them acquired, in order. */
  readonly templates?: readonly CompiledTemplate[];
}

/**
 * @internal Runs a render function and guards what it returns. It gets a signal that aborts when the request is
 * cancelled or after `limits.renderTimeoutMs` (then INTERNAL_ERROR: the registry logs it, the client sees -32603).
 */
export async function renderProgrammatic(
  def: PromptDefinition,
  args: Record<string, unknown>,
  context: Omit<RenderContext, 'signal'>,
  requestSignal: AbortSignal | undefined,
  env: RenderEnvironment,
): Promise<GetPromptResult> {
  const render = def.render as (a: Record<string, unknown>, c: RenderContext) => unknown;
  const ms = env.limits.renderTimeoutMs;
  let output: unknown;
  try {
    output = await runWithDeadline((signal) => render(args, { ...context, signal }), {
      signal: requestSignal,
      timeoutMs: ms,
      timedOut: () =>
        new PromptError('INTERNAL_ERROR', `prompt '${def.name}' render function took longer than ${ms} ms`, {
          data: { limit: 'renderTimeoutMs', max: ms },
        }),
      cancelled: () => new PromptError('INTERNAL_ERROR', `prompt '${def.name}': request cancelled`),
    });
  } catch (error) {
    if (isPromptError(error)) throw error;
    // The thrown message may quote argument values: only its class goes into our message (the error is the cause).
    throw new PromptError(
      'PROMPT_RENDER_FAILED',
      `prompt '${def.name}' render function threw ${errorClassName(error)}`,
      {
        cause: error,
      },
    );
  }
  const normalized = normalizeRenderOutput(output as never, def.description);
  return guardPromptResult(normalized, { maxRenderedBytes: env.limits.maxRenderedBytes, promptName: def.name });
}

function readContextOf(promptName: string, signal: AbortSignal | undefined): ResourceReadContext {
  return signal === undefined ? { promptName } : { promptName, signal };
}

/** Ends the deadline when `result` settles (or at once when it threw or is not a promise). */
function within(
  deadline: ResourceDeadline,
  run: () => GetPromptResult | Promise<GetPromptResult>,
): Promise<GetPromptResult> {
  let result: GetPromptResult | Promise<GetPromptResult>;
  try {
    result = run();
  } catch (error) {
    deadline.end();
    throw error;
  }
  return Promise.resolve(result).finally(() => deadline.end());
}

/**
 * @internal Renders a template prompt: synchronous when nothing needs I/O, otherwise resources and assets first,
 * all under one deadline (the request's signal and `limits.resourceTimeoutMs`). `description` is well-formed already.
 */
export function renderTemplates(
  promptName: string,
  description: string | undefined,
  plan: TemplatePlan,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  env: RenderEnvironment,
): GetPromptResult | Promise<GetPromptResult> {
  const { messages, directiveTemplates, embedded } = plan;
  const budget = new RenderBudget(env.limits.maxRenderedBytes, env.limits.maxRenderSteps);
  if (description !== undefined) budget.spend(description);
  if (directiveTemplates.length > 0) {
    // Only the directives this view reaches (one inside a section that will not render is neither read nor counted).
    const needed = new Set<string>();
    const walk = new RenderBudget(env.limits.maxRenderedBytes, env.limits.maxRenderSteps);
    for (const tpl of directiveTemplates) for (const d of tpl.resourceDirectivesFor(args, walk)) needed.add(d);
    if (needed.size > 0) {
      const deadline = new ResourceDeadline(readContextOf(promptName, signal), env.limits.resourceTimeoutMs);
      return within(deadline, () =>
        resolveResourceDirectives([...needed], env.resources, deadline.context, {
          limits: env.limits,
          onResourceError: env.onResourceError,
          alreadyEmbedded: embedded,
          deadline,
        }).then((resources) =>
          renderMessages(promptName, description, messages, args, resources, deadline, env, budget),
        ),
      );
    }
  }
  if (embedded > env.limits.maxResources) throw tooManyResources(env.limits.maxResources);
  if (plan.textOnly) return renderTextMessages(description, messages, args, env, budget);
  const deadline = new ResourceDeadline(readContextOf(promptName, signal), env.limits.resourceTimeoutMs);
  return within(deadline, () =>
    renderMessages(promptName, description, messages, args, undefined, deadline, env, budget),
  );
}

/**
 * The common case: text messages only, no directives; sizes come from the budget (texts measured only near the limit).
 */
function renderTextMessages(
  description: string | undefined,
  messages: TemplatePlan['messages'],
  args: Record<string, unknown>,
  env: RenderEnvironment,
  budget: RenderBudget,
): GetPromptResult {
  const n = messages.length;
  const out: PromptMessage[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    const c = m.content as Extract<CompiledContent, { kind: 'text' }>;
    const text = c.text.render(args, undefined, budget);
    // Well-formed already: template texts are made so at registration and the arguments layer refuses lone surrogates.
    const content: TextContent = { type: 'text', text };
    if (c.meta !== undefined) content._meta = c.meta;
    out[i] = { role: m.role, content };
  }
  // Units spent are a lower bound of the UTF-8 bytes; only when 3 bytes per unit could cross the limit, measure.
  if ((budget.maxBytes - budget.units) * 3 > budget.maxBytes) {
    const sized = out.map((m) => (m.content as TextContent).text);
    if (description !== undefined) sized.push(description);
    assertRenderedSize(sized, env.limits);
  }
  return description === undefined ? { messages: out } : { description, messages: out };
}

function renderMessages(
  promptName: string,
  description: string | undefined,
  messages: TemplatePlan['messages'],
  args: Record<string, unknown>,
  resources: ReadonlyMap<string, string> | undefined,
  deadline: ResourceDeadline | undefined,
  env: RenderEnvironment,
  budget: RenderBudget,
): GetPromptResult | Promise<GetPromptResult> {
  const out: PromptMessage[] = new Array(messages.length);
  const sized: string[] = [];
  let pending: Promise<void>[] | undefined;
  try {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      const c = m.content;
      if (c.kind === 'text') {
        const text = wellFormed(c.text.render(args, resources, budget));
        sized.push(text);
        out[i] = {
          role: m.role,
          content: c.meta === undefined ? { type: 'text', text } : { type: 'text', text, _meta: c.meta },
        };
        continue;
      }
      const index = i;
      const render = new BlockRender(promptName, args, resources, deadline as ResourceDeadline, env, budget, sized);
      const job = render.block(c).then((block) => {
        out[index] = { role: m.role, content: block };
      });
      (pending ??= []).push(job);
    }
  } catch (error) {
    // A later message failed synchronously: stop the blocks already started and keep their rejections handled.
    deadline?.fail(error);
    if (pending !== undefined) for (const job of pending) job.catch(() => {});
    throw error;
  }
  const finish = (): GetPromptResult => {
    if (description !== undefined) sized.push(description);
    assertRenderedSize(sized, env.limits);
    return description === undefined ? { messages: out } : { description, messages: out };
  };
  if (pending === undefined) return finish();
  return Promise.all(pending).then(finish, (error: unknown) => {
    deadline?.fail(error);
    throw error;
  });
}

/** Renders one non-text block; every rendered string is counted against the render's budget and size. */
class BlockRender {
  constructor(
    readonly promptName: string,
    readonly args: Record<string, unknown>,
    readonly resources: ReadonlyMap<string, string> | undefined,
    readonly deadline: ResourceDeadline,
    readonly env: RenderEnvironment,
    readonly budget: RenderBudget,
    readonly sized: string[],
  ) {}

  text(template: CompiledTemplate): string {
    const text = wellFormed(template.render(this.args, this.resources, this.budget));
    this.sized.push(text);
    return text;
  }

  fault(message: string, cause?: unknown): PromptError {
    return new PromptError(
      'INTERNAL_ERROR',
      `prompt '${this.promptName}': ${message}`,
      cause === undefined ? {} : { cause },
    );
  }

  async media(c: Extract<CompiledContent, { kind: 'media' }>): Promise<string> {
    if (c.data !== undefined) {
      const data = this.text(c.data);
      if (!isBase64(data))
        throw this.fault(`the ${c.type} data template '${c.data.source}' did not render valid base64`);
      return data;
    }
    const template = c.path as CompiledTemplate;
    const path = this.text(template);
    const label = `the ${c.type} path template '${template.source}'`;
    let loaded: unknown;
    try {
      loaded = await this.deadline.read(this.env.assets!.read(path, this.deadline.context), label);
    } catch (error) {
      if (isPromptError(error)) throw error;
      throw new PromptError(
        'PROMPT_RENDER_FAILED',
        `prompt '${this.promptName}': the asset loader threw ${errorClassName(error)} for ${label}`,
        {
          cause: error,
        },
      );
    }
    let data: string;
    if (loaded instanceof Uint8Array) data = bytesToBase64(loaded);
    else if (typeof loaded === 'string' && isBase64(loaded)) data = loaded;
    else throw this.fault(`the asset loader returned neither bytes nor valid base64 for ${label}`);
    this.budget.spend(data);
    this.sized.push(data);
    return data;
  }

  async block(c: Exclude<CompiledContent, { kind: 'text' }>): Promise<ContentBlock> {
    const meta = c.meta === undefined ? {} : { _meta: c.meta };
    switch (c.kind) {
      case 'media': {
        const mimeType = this.text(c.mimeType);
        if (mimeType.trim() === '')
          throw this.fault(`the ${c.type} mimeType template '${c.mimeType.source}' rendered empty`);
        const data = await this.media(c);
        return { type: c.type, data, mimeType, ...meta };
      }
      case 'resource': {
        const uri = this.text(c.uri);
        const mimeType = c.mimeType === undefined ? undefined : this.text(c.mimeType);
        const resource = await resolveEmbeddedResource(uri, this.env.resources, this.deadline.context, {
          limits: this.env.limits,
          onResourceError: this.env.onResourceError,
          // The declared type wins over the resolver's; internal (logged) messages name the template, not the rendered
          // URI.
          ...(mimeType === undefined ? {} : { mimeType }),
          uriTemplate: c.uri.source,
          deadline: this.deadline,
        });
        if ('text' in resource) {
          this.budget.spend(resource.text);
          this.sized.push(resource.text);
        } else {
          this.budget.spend(resource.blob);
          this.sized.push(resource.blob);
        }
        return { type: 'resource', resource, ...meta };
      }
      case 'link': {
        const block: ContentBlock = { type: 'resource_link', uri: this.text(c.uri), name: this.text(c.name) };
        if (c.title !== undefined) block.title = this.text(c.title);
        if (c.description !== undefined) block.description = this.text(c.description);
        if (c.mimeType !== undefined) block.mimeType = this.text(c.mimeType);
        if (c.meta !== undefined) block._meta = c.meta;
        return block;
      }
    }
  }
}
