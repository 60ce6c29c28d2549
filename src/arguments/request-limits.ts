/**
 * The limits of one request beyond the value bounds: their defaults, reading them from the options (a bad one is a
 * definition error), and the wording of a request over them (too many arguments, too much pattern work, an argument
 * name too long).
 *
 * @module
 */
import { echoed } from '../errors.js';
import { integerOption } from '../options.js';
import type { ValueLimits } from './bounds.js';
import { definitionError, schemaFailure } from './failures.js';
import type { ArgumentValidationOptions, ArgumentValidationResult, SchemaValidationDetail } from './types.js';

/** Default bounds of typed (array/object) values; see {@link ArgumentValidationOptions}. */
export const DEFAULT_MAX_DEPTH = 64;
export const DEFAULT_MAX_ITEMS = 10_000;
export const DEFAULT_MAX_BYTES = 1_048_576;
/** Default bound on the pattern work of a request (characters checked × program size). */
export const DEFAULT_MAX_PATTERN_WORK = 25_000_000;
/** Default bound on the argument keys of a request, and on the arguments a prompt declares. */
export const DEFAULT_MAX_ARGUMENTS = 1_000;

/** {@link ValueLimits} and the bound on argument keys of one request. */
export interface RequestLimits extends ValueLimits {
  readonly maxArguments: number;
  readonly maxPatternWork: number;
}

export function limitOption(value: number | undefined, fallback: number, name: string): number {
  return integerOption('', `options.${name}`, value, { min: 0, default: fallback }, (message) =>
    definitionError([{ path: `/${name}`, message }]),
  );
}

export function limitsOf(o: ArgumentValidationOptions): Omit<RequestLimits, 'maxLength'> {
  return {
    maxDepth: limitOption(o.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth'),
    maxItems: limitOption(o.maxItems, DEFAULT_MAX_ITEMS, 'maxItems'),
    maxBytes: limitOption(o.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes'),
    maxArguments: limitOption(o.maxArguments, DEFAULT_MAX_ARGUMENTS, 'maxArguments'),
    maxPatternWork: limitOption(o.maxPatternWork, DEFAULT_MAX_PATTERN_WORK, 'maxPatternWork'),
  };
}

export function nameTooLong(name: string, limit: number): SchemaValidationDetail {
  return {
    argument: echoed(name),
    keyword: 'maxLength',
    message: `is an argument name longer than ${limit} characters (limit maxLength)`,
  };
}

export function tooManyArguments(max: number, provided: number, required: number): ArgumentValidationResult {
  const detail = {
    argument: '',
    keyword: 'maxArguments',
    message: `has more than ${max} arguments (limit maxArguments)`,
  };
  return { ok: false, error: schemaFailure([detail], provided, required) };
}

export function tooMuchPatternWork(max: number, provided: number, required: number): ArgumentValidationResult {
  const detail = {
    argument: '',
    keyword: 'maxPatternWork',
    message: `needs more than ${max} steps of pattern matching (limit maxPatternWork)`,
  };
  return { ok: false, error: schemaFailure([detail], provided, required) };
}
