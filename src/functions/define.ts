/**
 * `defineFunction`: typed function definitions for TypeScript authors.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import type { FunctionDefinition } from './types.js';

/**
 * Returns `def` unchanged, typed like {@link definePrompt}: `run` receives typed arguments (`type: 'number'` is
 * `number`, an optional argument may be `undefined`, an undeclared name is a type error). Validation happens when the
 * definition is added to a {@link FunctionRegistry}.
 *
 * @example
 * ```ts
 * const add = defineFunction({
 *   name: 'Add',
 *   description: 'Adds two numbers',
 *   arguments: [
 *     { name: 'x', type: 'number', required: true },
 *     { name: 'y', type: 'number', required: true },
 *   ],
 *   run: ({ x, y }) => x + y,
 * });
 * ```
 */
export function defineFunction<const A extends readonly PromptArgumentDefinition[]>(
  def: FunctionDefinition<A> & { arguments: A },
): FunctionDefinition<A>;
export function defineFunction(
  def: FunctionDefinition<readonly PromptArgumentDefinition[]> & { arguments?: undefined; inputSchema: JsonSchema },
): FunctionDefinition;
export function defineFunction(
  def: FunctionDefinition<readonly []> & { arguments?: undefined; inputSchema?: undefined },
): FunctionDefinition<readonly []>;
export function defineFunction(
  def: FunctionDefinition<readonly PromptArgumentDefinition[]>,
): FunctionDefinition<readonly PromptArgumentDefinition[]> {
  return def;
}
