/**
 * Argument validation (issue 2, section 5; the seed 003 contract).
 *
 * @module
 */
export { ArgumentValidatorCache } from './cache.js';
export { argumentFailureToPromptError } from './failures.js';
export { extractArgumentNames, extractRequiredArguments, getArgumentSchema } from './helpers.js';
export { validatePromptArguments } from './validate.js';
export type {
  ArgumentTooLongData,
  ArgumentValidationFailure,
  ArgumentValidationOptions,
  ArgumentValidationResult,
  ArgumentValidatorCacheOptions,
  CompiledArgumentValidator,
  MissingArgumentsData,
  SchemaValidationData,
  SchemaValidationDetail,
} from './types.js';
