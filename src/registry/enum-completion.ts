/**
 * Completion from a prompt argument's declared `enum` (in its argument list or only in its inputSchema): a
 * case-insensitive prefix match.
 *
 * @module
 * @internal
 */
import { schemaProperties } from '../definition/listing.js';
import type { PromptDefinition } from '../definition/types.js';
import { isRecord } from '../json.js';
import { MAX_COMPLETION_VALUES, boundCompletionValues } from './completion.js';
import type { CompletionValues } from './completion.js';

/**
 * @internal Completion from declared `enum` values, each list's suggestable values and their lower case computed once.
 */
export class EnumCompletions {
  readonly #index = new WeakMap<readonly unknown[], { values: string[]; lower: string[] }>();

  /** The values of `declared` starting with `value`, case-insensitively; `total` counts every match. */
  complete(declared: readonly unknown[], value: string): CompletionValues {
    const index = this.#indexOf(declared);
    const prefix = value.toLowerCase();
    const matches: string[] = [];
    let total = 0;
    for (let i = 0; i < index.lower.length; i++) {
      if (!index.lower[i]!.startsWith(prefix)) continue;
      total++;
      if (matches.length < MAX_COMPLETION_VALUES) matches.push(index.values[i]!);
    }
    return boundCompletionValues(matches, total);
  }

  /** Suggestable enum values (strings, numbers, booleans; never objects or null) with their lower case, once. */
  #indexOf(declared: readonly unknown[]): { values: string[]; lower: string[] } {
    let index = this.#index.get(declared);
    if (index === undefined) {
      const values = declared
        .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        .map(String);
      index = { values, lower: values.map((v) => v.toLowerCase()) };
      this.#index.set(declared, index);
    }
    return index;
  }
}

/** @internal The `enum` of an argument declared only in the prompt's inputSchema, if any. */
export function schemaEnum(definition: PromptDefinition, argumentName: string): readonly unknown[] | undefined {
  const props = schemaProperties(definition);
  if (!Object.hasOwn(props, argumentName)) return undefined;
  const property = props[argumentName];
  const values = isRecord(property) ? property['enum'] : undefined;
  return Array.isArray(values) ? values : undefined;
}
