/**
 * Helpers over per-argument declarations: names, required names, and the JSON Schema they describe.
 *
 * @module
 */
import { ARGUMENT_SCHEMA_KEYWORDS } from '../definition/keywords.js';
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { setOwn } from '../json.js';

const ANNOTATION_KEYWORDS = ['title', 'description'] as const;

/**
 * Whether a per-argument declaration is a plain MCP argument: no `type`, no `enum`, no `const`. Such arguments are
 * strings (the MCP wire carries nothing else) and are validated as `type: 'string'`.
 *
 * @internal
 */
export function isUntyped(arg: Readonly<Record<string, unknown>>): boolean {
  return arg['type'] === undefined && arg['enum'] === undefined && arg['const'] === undefined;
}

/**
 * The object schema of per-argument declarations, with or without title/description annotations (validators leave
 * them out so prompts that differ only in wording share one compiled schema).
 *
 * @internal
 */
export function buildArgumentSchema(
  promptArguments: readonly PromptArgumentDefinition[] | null | undefined,
  annotations: boolean,
): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const arg of promptArguments ?? []) {
    const source = arg as unknown as Record<string, unknown>;
    const property: Record<string, unknown> = {};
    if (annotations) {
      for (const k of ANNOTATION_KEYWORDS) if (source[k] !== undefined) property[k] = source[k];
    }
    if (isUntyped(source)) property['type'] = 'string';
    for (const k of ARGUMENT_SCHEMA_KEYWORDS) if (source[k] !== undefined) property[k] = source[k];
    setOwn(properties, arg.name, property);
    if (arg.required === true) required.push(arg.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  return schema;
}

/**
 * The JSON Schema of the arguments object that per-argument declarations describe:
 * `{type: 'object', properties, required?}` (`required` only when some argument is required). Each property holds
 * the argument's JSON-Schema keywords (type, enum, pattern, format, minLength, maxLength, minimum, maximum, default,
 * items) and its title/description; an argument with no `type` and no `enum` (a plain MCP argument) gets
 * `type: 'string'`, which is how it is validated. Extra arguments are not forbidden (the default
 * `extraArguments: 'accept'`).
 *
 * @example
 * ```ts
 * getArgumentSchema([{ name: 'language', required: true, enum: ['typescript', 'python'] }, { name: 'focus' }]);
 * // { type: 'object', properties: { language: { enum: ['typescript', 'python'] }, focus: { type: 'string' } },
 * //   required: ['language'] }
 * ```
 */
export function getArgumentSchema(promptArguments?: readonly PromptArgumentDefinition[]): JsonSchema {
  return buildArgumentSchema(promptArguments, true);
}
