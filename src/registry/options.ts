/**
 * The options of a {@link PromptRegistry} and of its calls, and the checks that turn the constructor's options into
 * the settings it compiles and renders with.
 *
 * @module
 */
import type { SystemRolePolicy } from '../definition/types.js';
import { createDefinitionError } from '../definition/problems.js';
import { wellFormed } from '../encoding.js';
import { childPointer } from '../json.js';
import type { Logger } from '../logger.js';
import type { ResourceErrorMode } from '../render/directives.js';
import { DEFAULT_RENDER_LIMITS } from '../render/limits.js';
import type { RenderLimits } from '../render/limits.js';
import type { AssetLoader, ResourceResolver } from '../resources.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import type { OptionRange } from '../options.js';

/** Options of {@link PromptRegistry}. */
export interface PromptRegistryOptions {
  /** Resolves `{{resource:URI}}` directives and `{type: "resource"}` content. */
  resources?: ResourceResolver;
  /** Loads `{type: "image" | "audio", path}` content (mcp-prompt-kit/fs ships a file loader). */
  assets?: AssetLoader;
  /** Default page size of {@link PromptRegistry.list}; by default every prompt is in one page. */
  pageSize?: number;
  /**
   * Render limits: resources per render (default 50), rendered bytes per prompt (default 1 MiB), template steps per
   * render (default 1 Mi), resource wait (default 10 s).
   */
  limits?: Partial<RenderLimits>;
  /** Unknown resource: `"error"` (RESOURCE_NOT_FOUND, default) or `"inline"` (a visible note in the text). */
  onResourceError?: ResourceErrorMode;
  /** Partials by name, usable as `{{> name}}` in every prompt's templates. */
  partials?: Readonly<Record<string, string>>;
  /** A placeholder naming an undeclared argument: `"error"` (default) or `"warn"` (logged). */
  undeclaredPlaceholders?: 'error' | 'warn';
  /** Legacy `role: "system"` messages: rejected by default; `"user"` maps them to user. */
  systemRole?: SystemRolePolicy;
  /** Max characters of any string argument (default 10,000 code points); a declared maxLength wins. */
  maxArgumentLength?: number;
  /** Undeclared arguments from clients: accepted (default) or rejected. */
  extraArguments?: 'accept' | 'reject';
  /** How long an argument's `complete()` may take, in milliseconds (default 10,000); then -32603, logged. */
  completionTimeoutMs?: number;
  /** pino-style logger; silent by default. Argument values are never logged. */
  logger?: Logger;
}

/** Options of {@link PromptRegistry.list}. */
export interface ListOptions {
  cursor?: string;
  pageSize?: number;
}

/** Options of {@link PromptRegistry.add} and {@link PromptRegistry.set}. */
export interface RegisterOptions {
  /** Where the definitions came from (a file path), for error messages. */
  source?: string;
  /** The version being registered (one for the batch, or per name), logged with each get it serves. */
  version?: string | number | ((name: string) => string | number | undefined);
  /** The store label the definitions were read under (`syncRegistry` gives it): reported with the version. */
  label?: string;
}

/** Caller context for {@link PromptRegistry.getPrompt} and {@link PromptRegistry.complete}. */
export interface RequestContext {
  signal?: AbortSignal;
  /** Passed to programmatic render functions as `context.extra`. */
  extra?: Readonly<Record<string, unknown>>;
  /** For completion: the other arguments the client has already filled in. */
  arguments?: Readonly<Record<string, string>>;
}

/** @internal The name the registry's option errors start with. */
export const OWNER = 'PromptRegistry';

/** @internal How long an argument's `complete()` may take when `completionTimeoutMs` is left out. */
export const DEFAULT_COMPLETION_TIMEOUT_MS = 10_000;

/** @internal A count option of the registry: a positive integer. */
export const COUNT: OptionRange = { min: 1 };

/** @internal The render limits: the defaults, overridden by each limit given (checked). */
export function renderLimits(limits: Partial<RenderLimits> | undefined): RenderLimits {
  const d = DEFAULT_RENDER_LIMITS;
  return {
    maxResources: integerOption(OWNER, 'limits.maxResources', limits?.maxResources, {
      min: 0,
      default: d.maxResources,
    }),
    maxRenderedBytes: integerOption(OWNER, 'limits.maxRenderedBytes', limits?.maxRenderedBytes, {
      ...COUNT,
      default: d.maxRenderedBytes,
    }),
    maxRenderSteps: integerOption(OWNER, 'limits.maxRenderSteps', limits?.maxRenderSteps, {
      ...COUNT,
      default: d.maxRenderSteps,
    }),
    resourceTimeoutMs: integerOption(OWNER, 'limits.resourceTimeoutMs', limits?.resourceTimeoutMs, {
      ...TIMEOUT_MS,
      default: d.resourceTimeoutMs,
    }),
    renderTimeoutMs: integerOption(OWNER, 'limits.renderTimeoutMs', limits?.renderTimeoutMs, {
      ...TIMEOUT_MS,
      default: d.renderTimeoutMs,
    }),
  };
}

/** @internal The partials as a map, each text well-formed (a non-string is a definition error). */
export function copyPartials(partials: Readonly<Record<string, string>>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, text] of Object.entries(partials)) {
    if (typeof text !== 'string') {
      throw createDefinitionError([
        { path: childPointer('/partials', name), message: `partial '${name}' must be a string` },
      ]);
    }
    map.set(name, wellFormed(text));
  }
  return map;
}
