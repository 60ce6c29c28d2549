/**
 * Error shaping: the -32602 failure objects and their PromptErrors, the wording of ajv's errors as
 * `{argument, keyword, message}` details, and the INVALID_PROMPT_DEFINITION error of a broken argument schema.
 *
 * @module
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { DefinitionProblem, InvalidDefinitionData } from '../definition/types.js';
import { ERROR_TABLE, PromptError, echoed } from '../errors.js';
import { unescapePointerSegment } from '../json.js';
import type { ArgumentValidationFailure, SchemaValidationData, SchemaValidationDetail } from './types.js';

/** How many allowed values a message lists before it ends with `, …`. */
export const MAX_LISTED_VALUES = 10;

/** How many details a schema failure carries at most (the rest are counted in `total_errors`). */
export const MAX_DETAILS = 20;

/** A "Missing required prompt arguments" failure. */
export function missingFailure(missing: string[], provided: number, required: number): ArgumentValidationFailure {
  return {
    code: -32602,
    message: 'Missing required prompt arguments',
    data: { missing_arguments: missing, provided_count: provided, required_count: required },
  };
}

/** A "Prompt arguments do not conform to schema" failure: at most {@link MAX_DETAILS} details, then a count. */
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

/** An "Argument '<name>' exceeds <limit> characters" failure. */
export function tooLongFailure(
  argument: string,
  limit: number,
  provided: number,
  required: number,
): ArgumentValidationFailure {
  return {
    code: -32602,
    message: `Argument '${echoed(argument)}' exceeds ${limit} characters`,
    data: { error_type: 'argument_too_long', argument, limit, provided_count: provided, required_count: required },
  };
}

/**
 * The PromptError for a validation failure, to throw from a request handler: missing -> `PROMPT_ARGUMENT_MISSING`,
 * schema -> `PROMPT_ARGUMENT_INVALID`, too long -> `PROMPT_ARGUMENT_TOO_LONG`; same message and data (all -32602).
 * With `subject: 'function'` the `FUNCTION_ARGUMENT_*` codes, worded for a function ("Missing required function
 * arguments"), with the same data.
 *
 * @example
 * ```ts
 * const definition = definePrompt({
 *   name: 'review',
 *   arguments: [{ name: 'code', required: true }],
 *   messages: [{ role: 'user', content: '{{code}}' }],
 * });
 * const result = validatePromptArguments({}, definition.arguments);
 * if (!result.ok) throw argumentFailureToPromptError(result.error); // PROMPT_ARGUMENT_MISSING
 * ```
 */
export function argumentFailureToPromptError(
  failure: ArgumentValidationFailure,
  subject: 'prompt' | 'function' = 'prompt',
): PromptError {
  const data = failure.data;
  const kind = !('error_type' in data) ? 'MISSING' : data.error_type === 'argument_too_long' ? 'TOO_LONG' : 'INVALID';
  if (subject === 'prompt') return new PromptError(`PROMPT_ARGUMENT_${kind}`, failure.message, { data });
  const code = `FUNCTION_ARGUMENT_${kind}` as const;
  // The too-long message names the argument, not the subject; the other two take the table's function wording.
  return new PromptError(code, kind === 'TOO_LONG' ? failure.message : ERROR_TABLE[code].clientMessage, { data });
}

/**
 * The `INVALID_PROMPT_DEFINITION` error of a broken argument schema: every problem in data, the first in the message.
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

/** A value as text in a message: a string as it is, anything else as JSON. */
export function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `must be one of: a, b, …`: the first {@link MAX_LISTED_VALUES} values only. */
export function oneOfMessage(values: Iterable<unknown>): string {
  let out = 'must be one of: ';
  let i = 0;
  for (const v of values) {
    if (i === MAX_LISTED_VALUES) return `${out}, …`;
    out += i === 0 ? showValue(v) : `, ${showValue(v)}`;
    i++;
  }
  return out;
}

/** The message of one ajv error, reworded where ajv's is unhelpful (enum, const, format, required, extras). */
export function describeAjvError(error: ErrorObject, atRoot = false): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return Array.isArray(params['allowedValues'])
        ? oneOfMessage(params['allowedValues'] as unknown[])
        : (error.message ?? 'must be one of the allowed values');
    case 'const':
      return `must be ${showValue(params['allowedValue'])}`;
    case 'format':
      return `must be a valid ${String(params['format'])}`;
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return atRoot ? 'is required' : `must have required property '${String(params['missingProperty'])}'`;
    case 'additionalProperties':
      return atRoot
        ? 'is not a declared argument'
        : `must not have property '${echoed(String(params['additionalProperty']))}'`;
    case 'unevaluatedProperties':
      return atRoot
        ? 'is not a declared argument'
        : `must not have property '${echoed(String(params['unevaluatedProperty']))}'`;
    default:
      return error.message ?? `must pass "${error.keyword}" keyword validation`;
  }
}

/** The top-level argument a root-level error names through its params, or `''`. */
function rootArgument(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const named =
    params['missingProperty'] ??
    params['additionalProperty'] ??
    params['unevaluatedProperty'] ??
    params['propertyName'];
  return typeof named === 'string' ? named : '';
}

/**
 * The argument an ajv error of an arguments object is about: the top-level key it is under, or the one a root-level
 * error names.
 */
export function errorArgument(error: ErrorObject): string {
  const path = error.instancePath;
  if (path === '') return rootArgument(error);
  const slash = path.indexOf('/', 1);
  return unescapePointerSegment(slash < 0 ? path.slice(1) : path.slice(1, slash));
}

/** The detail of one ajv error about `argument`; a nested location prefixes the message (`/0: must be string`). */
export function toDetail(error: ErrorObject, argument: string): SchemaValidationDetail {
  const path = error.instancePath;
  if (path === '') return { argument, keyword: error.keyword, message: describeAjvError(error, argument !== '') };
  const slash = path.indexOf('/', 1);
  const message = describeAjvError(error);
  // The location inside the value is client input (object keys): quoted cut, so the reason after it survives.
  return {
    argument,
    keyword: error.keyword,
    message: slash < 0 ? message : `${echoed(path.slice(slash))}: ${message}`,
  };
}

/** Details of the first {@link MAX_DETAILS} ajv errors of an arguments object. */
export function toDetails(errors: readonly ErrorObject[]): SchemaValidationDetail[] {
  const n = Math.min(errors.length, MAX_DETAILS);
  const details: SchemaValidationDetail[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const error = errors[i] as ErrorObject;
    details[i] = toDetail(error, errorArgument(error));
  }
  return details;
}
