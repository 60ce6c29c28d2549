/**
 * Argument validation: declarations -> plan -> coercion, bounds and the schema check.
 *
 * @module
 */
export { ArgumentValidatorCache } from './cache.js';
export { argumentFailureToPromptError } from './failures.js';
export { getArgumentSchema } from './plan.js';
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
