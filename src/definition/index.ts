/**
 * Prompt definitions: what a prompt IS (types, names, the published JSON Schema, parsing, legacy normalization).
 *
 * @module
 */
export { definePrompt } from './define.js';
export { normalizeLegacyPrompt } from './legacy.js';
export type { NormalizeLegacyPromptOptions } from './legacy.js';
export { argumentNameProblem, promptNameProblem } from './names.js';
export { parsePromptDefinition } from './parse.js';
export type { ParsePromptDefinitionOptions } from './parse.js';
export { createDefinitionError } from './problems.js';
export type { DefinitionErrorOptions, LocatePointer } from './problems.js';
export { PROMPT_DEFINITION_SCHEMA_ID, promptDefinitionSchema } from './schema.js';
export type {
  ArgumentType,
  ArgumentValue,
  CompletionContext,
  ContentTemplate,
  DefinitionProblem,
  InvalidDefinitionData,
  MediaContentTemplate,
  ProgrammaticPromptDefinition,
  PromptArgs,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptDefinitionBase,
  PromptMessageTemplate,
  RenderContext,
  RenderOutput,
  RequiredArgs,
  ResourceContentTemplate,
  ResourceLinkContentTemplate,
  SystemRolePolicy,
  TemplatePromptDefinition,
  TextContentTemplate,
} from './types.js';
