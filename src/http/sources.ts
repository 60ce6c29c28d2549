/** The sources the HTTP adapters serve. */
import { FunctionRegistry } from '../functions/registry.js';
import { isRecord } from '../json.js';
import { PromptRegistry } from '../registry/registry.js';

/** What the HTTP adapters serve: a prompt registry, a function registry, or both. */
export type HttpSource = PromptRegistry | FunctionRegistry | { prompts?: PromptRegistry; functions?: FunctionRegistry };

/** @internal The sources, split. */
export interface Sources {
  prompts: PromptRegistry | undefined;
  functions: FunctionRegistry | undefined;
}

/** @internal Reads an {@link HttpSource}; throws a TypeError naming what it accepts. */
export function toSources(source: HttpSource): Sources {
  if (source instanceof PromptRegistry) return { prompts: source, functions: undefined };
  if (source instanceof FunctionRegistry) return { prompts: undefined, functions: source };
  if (isRecord(source) && (source.prompts instanceof PromptRegistry || source.functions instanceof FunctionRegistry)) {
    return { prompts: source.prompts, functions: source.functions };
  }
  throw new TypeError(
    'mcp-prompt-kit/http: source must be a PromptRegistry, a FunctionRegistry, or { prompts?, functions? }',
  );
}
