/**
 * What a store may hold: a valid template definition made of JSON data only.
 *
 * @module
 */
import { parsePromptDefinition } from '../definition/parse.js';
import { createDefinitionError } from '../definition/problems.js';
import type { PromptDefinition, TemplatePromptDefinition } from '../definition/types.js';
import { PromptError } from '../errors.js';
import type { StoredPrompt } from './contract.js';
import { isRecord } from '../json.js';
import { ArgumentValidatorCache } from '../arguments/cache.js';
import { compilePrompt } from '../registry/compile.js';
import type { CompileEnvironment } from '../registry/compile.js';
import { TemplateCache } from '../render/template.js';
import type { AssetLoader, ResourceResolver } from '../resources.js';

/**
 * Validates a definition for storage and returns a detached copy: a render function or an argument's `complete`
 * function cannot be stored (INVALID_PROMPT_DEFINITION naming the field).
 */
export function storableDefinition(input: unknown): TemplatePromptDefinition {
  const definition: PromptDefinition = parsePromptDefinition(input);
  if (typeof definition.render === 'function') {
    throw createDefinitionError(
      [{ path: '/render', message: 'a render function cannot be stored: store message templates' }],
      {
        name: definition.name,
      },
    );
  }
  const args = definition.arguments ?? [];
  args.forEach((arg, i) => {
    if (isRecord(arg) && typeof arg['complete'] === 'function') {
      throw createDefinitionError(
        [
          {
            path: `/arguments/${i}/complete`,
            message: 'a complete function cannot be stored: declare an enum instead',
          },
        ],
        { name: definition.name },
      );
    }
  });
  return structuredClone(definition as TemplatePromptDefinition);
}

/** Never called: at compile time a registry only asks whether it has a loader or a resolver. */
const UNUSED = (): never => {
  throw new Error('not available while a definition is checked for storage');
};
const ANY_ASSETS: AssetLoader = { read: UNUSED };
const ANY_RESOURCES: ResourceResolver = { read: UNUSED };

/**
 * @internal A check for a store's write paths: {@link storableDefinition}, then compiled as the most permissive
 * registry would (any partial, assets and resources available, undeclared placeholders allowed, no size limit). What
 * no registry can serve (an unclosed section, a required argument with a default, a schema ajv refuses) is refused
 * when written, not found by every replica that loads it. Reads do not use it (a registry compiles what it serves).
 * One per store: its caches (an ajv instance among them) are built once, not per write.
 */
export function storageCheck(): (input: unknown) => TemplatePromptDefinition {
  const env: CompileEnvironment = {
    templates: new TemplateCache(),
    validators: new ArgumentValidatorCache(),
    validation: {},
    partials: () => '',
    undeclared: 'warn',
    onWarning: () => undefined,
    assets: ANY_ASSETS,
    resources: ANY_RESOURCES,
    maxRenderedBytes: Number.MAX_SAFE_INTEGER,
  };
  return (input) => {
    const definition = storableDefinition(input);
    compilePrompt(definition, env).release();
    return definition;
  };
}

/** The error `get` throws for an entry that exists but cannot be served; clients only see "Internal error". */
export function invalidEntryError(name: string, reason: string): PromptError {
  return new PromptError('INTERNAL_ERROR', `stored prompt '${name}' is invalid: ${reason}`);
}

/** A detached copy of a stored prompt, so that callers cannot change what the store holds. */
export function copyStored(entry: StoredPrompt): StoredPrompt {
  return { name: entry.name, version: entry.version, definition: structuredClone(entry.definition) };
}

/** Code-unit order, as prompts/list sorts names. */
export function compareNames(a: StoredPrompt, b: StoredPrompt): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
