/**
 * Builders of the -32602 failure objects, their mapping to PromptError, and the
 * INVALID_PROMPT_DEFINITION error thrown for a broken argument schema.
 *
 * @module
 */
import type { DefinitionProblem, InvalidDefinitionData } from '../definition/types.js';
import { PromptError } from '../errors.js';
import { MAX_DETAILS } from './ajv-errors.js';
import type { ArgumentValidationFailure, SchemaValidationData, SchemaValidationDetail } from './types.js';

/**
 * A "Missing required prompt arguments" failure.
 *
 * @internal
 * @example
 * ```ts
 * missingFailure(['code'], 0, 1).data; // { missing_arguments: ['code'], provided_count: 0, required_count: 1 }
 * ```
 */
export function missingFailure(missing: string[], provided: number, required: number): ArgumentValidationFailure {
  return {
    code: -32602,
    message: 'Missing required prompt arguments',
    data: { missing_arguments: missing, provided_count: provided, required_count: required },
  };
}

/**
 * A "Prompt arguments do not conform to schema" failure: at most {@link MAX_DETAILS} details; when there were more
 * (`total` problems found), `truncated: true` and `total_errors` say so.
 *
 * @internal
 * @example
 * ```ts
 * schemaFailure([{ argument: 'n', keyword: 'type', message: 'must be number' }], 1, 0).data.error_type;
 * // 'schema_validation_failed'
 * ```
 */
export function schemaFailure(
  details: SchemaValidationDetail[],
  provided: number,
  required: number,
  total = details.length,
): ArgumentValidationFailure {
  const data: SchemaValidationData = {
    error_type: 'schema_validation_failed',
    details: details.length > MAX_DETAILS ? details.slice(0, MAX_DETAILS) : details,
    provided_count: provided,
    required_count: required,
  };
  const all = Math.max(total, details.length);
  if (all > data.details.length) {
    data.truncated = true;
    data.total_errors = all;
  }
  return { code: -32602, message: 'Prompt arguments do not conform to schema', data };
}

/**
 * An "Argument '<name>' exceeds <limit> characters" failure.
 *
 * @internal
 * @example
 * ```ts
 * tooLongFailure('code', 10_000, 1, 1).message; // "Argument 'code' exceeds 10000 characters"
 * ```
 */
export function tooLongFailure(
  argument: string,
  limit: number,
  provided: number,
  required: number,
): ArgumentValidationFailure {
  return {
    code: -32602,
    message: `Argument '${argument}' exceeds ${limit} characters`,
    data: { error_type: 'argument_too_long', argument, limit, provided_count: provided, required_count: required },
  };
}

/**
 * The PromptError for a validation failure, to throw from a request handler: missing -> `PROMPT_ARGUMENT_MISSING`,
 * schema -> `PROMPT_ARGUMENT_INVALID`, too long -> `PROMPT_ARGUMENT_TOO_LONG`; same message and data (all -32602).
 *
 * @example
 * ```ts
 * const result = validatePromptArguments(args, definition.arguments);
 * if (!result.ok) throw argumentFailureToPromptError(result.error);
 * ```
 */
export function argumentFailureToPromptError(failure: ArgumentValidationFailure): PromptError {
  const data = failure.data;
  const code = !('error_type' in data)
    ? 'PROMPT_ARGUMENT_MISSING'
    : data.error_type === 'argument_too_long'
      ? 'PROMPT_ARGUMENT_TOO_LONG'
      : 'PROMPT_ARGUMENT_INVALID';
  return new PromptError(code, failure.message, { data });
}

/**
 * An `INVALID_PROMPT_DEFINITION` error whose data lists every problem (the message names the first). A server-side
 * fault: clients only ever see it as -32603 "Internal error" (see the error table).
 *
 * @internal
 * @example
 * ```ts
 * throw definitionError([{ path: '/arguments/0/type', message: 'must be one of: string, number' }]);
 * ```
 */
export function definitionError(problems: DefinitionProblem[], cause?: unknown): PromptError {
  const first = problems[0];
  const where = first === undefined ? '' : `${first.path}: ${first.message}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  const data: InvalidDefinitionData = { problems };
  return new PromptError('INVALID_PROMPT_DEFINITION', `Invalid argument schema: ${where}${more}`, {
    data,
    ...(cause === undefined ? {} : { cause }),
  });
}
