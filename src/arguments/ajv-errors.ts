/**
 * Turns ajv errors into human-readable `{argument, keyword, message}` details.
 *
 * @module
 * @internal
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaValidationDetail } from './types.js';
import { unescapePointerSegment } from '../json.js';

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** How many allowed values a message lists before it ends with `, …`. */
export const MAX_LISTED_VALUES = 10;

/** How many details a schema failure carries at most (the rest are counted in `total_errors`). */
export const MAX_DETAILS = 20;

/**
 * `must be one of: a, b, …`: the first {@link MAX_LISTED_VALUES} values (a long enum must not be repeated in full
 * in every detail of a response).
 *
 * @example
 * ```ts
 * oneOfMessage(['a', 'b']); // 'must be one of: a, b'
 * ```
 */
export function oneOfMessage(values: Iterable<unknown>): string {
  let out = 'must be one of: ';
  let i = 0;
  for (const v of values) {
    if (i === MAX_LISTED_VALUES) return `${out}, …`;
    out += i === 0 ? show(v) : `, ${show(v)}`;
    i++;
  }
  return out;
}

/**
 * The message of one ajv error, reworded where ajv's is unhelpful (enum, const, format, required, extras).
 *
 * @example
 * ```ts
 * describeAjvError({ keyword: 'enum', params: { allowedValues: ['a', 'b'] }, instancePath: '/x', schemaPath: '' });
 * // 'must be one of: a, b'
 * ```
 */
export function describeAjvError(error: ErrorObject, atRoot = false): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return Array.isArray(params['allowedValues'])
        ? oneOfMessage(params['allowedValues'] as unknown[])
        : (error.message ?? 'must be one of the allowed values');
    case 'const':
      return `must be ${show(params['allowedValue'])}`;
    case 'format':
      return `must be a valid ${String(params['format'])}`;
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return atRoot ? 'is required' : `must have required property '${String(params['missingProperty'])}'`;
    case 'additionalProperties':
      return atRoot ? 'is not a declared argument' : `must not have property '${String(params['additionalProperty'])}'`;
    case 'unevaluatedProperties':
      return atRoot ? 'is not a declared argument' : `must not have property '${String(params['unevaluatedProperty'])}'`;
    default:
      return error.message ?? `must pass "${error.keyword}" keyword validation`;
  }
}

/** The top-level argument a root-level error names through its params, or `''`. */
function rootArgument(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const named =
    params['missingProperty'] ?? params['additionalProperty'] ?? params['unevaluatedProperty'] ?? params['propertyName'];
  return typeof named === 'string' ? named : '';
}

/**
 * Maps ajv errors of an arguments object to details: `argument` is the top-level key the error is under (or the key
 * a root-level `required` / `additionalProperties` error names); a nested location prefixes the message. Only the
 * first `max` errors are described (the caller reports how many there were).
 *
 * @example
 * ```ts
 * toDetails([{ keyword: 'type', instancePath: '/tags/0', params: { type: 'string' }, message: 'must be string', schemaPath: '' }]);
 * // [{ argument: 'tags', keyword: 'type', message: '/0: must be string' }]
 * ```
 */
export function toDetails(errors: readonly ErrorObject[], max = MAX_DETAILS): SchemaValidationDetail[] {
  const details: SchemaValidationDetail[] = [];
  const n = Math.min(errors.length, max);
  for (let i = 0; i < n; i++) {
    const error = errors[i] as ErrorObject;
    const path = error.instancePath;
    if (path === '') {
      const argument = rootArgument(error);
      details.push({ argument, keyword: error.keyword, message: describeAjvError(error, argument !== '') });
      continue;
    }
    const slash = path.indexOf('/', 1);
    const argument = unescapePointerSegment(slash < 0 ? path.slice(1) : path.slice(1, slash));
    const rest = slash < 0 ? '' : path.slice(slash);
    const message = describeAjvError(error);
    details.push({ argument, keyword: error.keyword, message: rest === '' ? message : `${rest}: ${message}` });
  }
  return details;
}
