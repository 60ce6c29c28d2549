/**
 * `definePrompt`: typed prompt definitions for TypeScript authors.
 *
 * @module
 */
import type { JsonSchema } from '../types.js';
import type { PromptArgumentDefinition, PromptDefinition } from './types.js';

/**
 * Returns `def` unchanged, typed: argument names are inferred as literals, so a `render` function receives typed
 * arguments (a required string argument is `string`, an optional one `string | undefined`, `type: 'integer'` is
 * `number`, an `enum` is the union of its values, an argument with a `default` is always present, and an undeclared
 * name is a type error). Validation happens when the definition is registered (see {@link parsePromptDefinition}).
 *
 * @example
 * ```ts
 * const review = definePrompt({
 *   name: 'review-code',
 *   arguments: [
 *     { name: 'code', required: true },
 *     { name: 'language', enum: ['ts', 'go'], default: 'ts' },
 *   ],
 *   render: (args) => `Review this ${args.language} code:\n${args.code}`,
 * });
 * ```
 */
export function definePrompt<const A extends readonly PromptArgumentDefinition[]>(
  def: PromptDefinition<A> & { arguments: A },
): PromptDefinition<A>;
export function definePrompt(
  def: PromptDefinition<readonly PromptArgumentDefinition[]> & { arguments?: undefined; inputSchema: JsonSchema },
): PromptDefinition;
export function definePrompt(
  def: PromptDefinition<readonly []> & { arguments?: undefined; inputSchema?: undefined },
): PromptDefinition<readonly []>;
export function definePrompt(
  def: PromptDefinition<readonly PromptArgumentDefinition[]>,
): PromptDefinition<readonly PromptArgumentDefinition[]> {
  return def;
}
