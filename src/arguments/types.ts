/**
 * Types of argument validation: options, the -32602 failure shapes and the compiled validator.
 *
 * @module
 */
import type { JsonSchema } from '../types.js';

/** Options of {@link validatePromptArguments} and {@link ArgumentValidatorCache.compile}. */
export interface ArgumentValidationOptions {
  /**
   * Max characters (code points) for ANY string argument, extras included. Default 10_000. A declared `maxLength`
   * (on the argument, or in `inputSchema.properties[name]`) wins for that argument.
   */
  maxLength?: number;
  /**
   * Extra (undeclared) arguments: accepted by default; `'reject'` -> schema error (keyword `additionalProperties`).
   * An inputSchema that sets `additionalProperties` or `unevaluatedProperties` at its root decides itself (it wins).
   */
  extraArguments?: 'accept' | 'reject';
  /** Max nesting depth of an array/object argument value (containers inside containers). Default 64. */
  maxDepth?: number;
  /**
   * Max items (array elements plus object keys, at every depth) of all array/object values of a request. Default
   * 10,000.
   */
  maxItems?: number;
  /** Max approximate size in bytes of all array/object values of a request together. Default 1,048,576. */
  maxBytes?: number;
  /**
   * Max argument keys a request may carry (extras and nulls included), and arguments a prompt may declare. Default
   * 1,000.
   */
  maxArguments?: number;
  /**
   * Max pattern work of one request: the characters each `pattern` / `patternProperties` / `propertyNames` check
   * reads, times that pattern's RE2 program size, summed. Default 25,000,000 (a bound of some 0.3 s of matching).
   */
  maxPatternWork?: number;
}

/** `data` of a "Missing required prompt arguments" failure. */
export interface MissingArgumentsData {
  /** Missing required arguments, in declaration order (the order of `inputSchema.required` for an inputSchema). */
  missing_arguments: string[];
  /** Keys given with a non-null value, extras included. */
  provided_count: number;
  /** Declared required arguments. */
  required_count: number;
}

/** One schema problem: which argument, which JSON-Schema keyword, and a human-readable message. */
export interface SchemaValidationDetail {
  /** The top-level argument the problem is about (`""` for a problem with the arguments object as a whole). */
  argument: string;
  /**
   * The failing JSON-Schema keyword (`type`, `enum`, `pattern`, `format`, `additionalProperties`, ...), or one of ours
   * (`exactNumber`, `wellFormed`, `maxDepth`, `maxItems`, `maxBytes`).
   */
  keyword: string;
  /** E.g. `must be one of: typescript, python`; a nested location is prefixed (`/0: must be string`). */
  message: string;
}

/** `data` of a "Prompt arguments do not conform to schema" failure. */
export interface SchemaValidationData {
  error_type: 'schema_validation_failed';
  /** At most 20 (the first found). */
  details: SchemaValidationDetail[];
  provided_count: number;
  required_count: number;
  /** Present (true) when more problems were found than `details` lists. */
  truncated?: true;
  /** Present with `truncated`: how many problems were found in all. */
  total_errors?: number;
}

/** `data` of an "Argument '<name>' exceeds <limit> characters" failure. */
export interface ArgumentTooLongData {
  error_type: 'argument_too_long';
  argument: string;
  limit: number;
  provided_count: number;
  required_count: number;
}

/** Why arguments were refused: the JSON-RPC error object a client receives (code -32602). */
export type ArgumentValidationFailure =
  | { code: -32602; message: 'Missing required prompt arguments'; data: MissingArgumentsData }
  | { code: -32602; message: 'Prompt arguments do not conform to schema'; data: SchemaValidationData }
  | { code: -32602; message: string /* Argument '<name>' exceeds <limit> characters */; data: ArgumentTooLongData };

/** The outcome of a validation: the validated (coerced, defaulted) arguments, or the failure. */
export type ArgumentValidationResult =
  | { ok: true; arguments: Record<string, unknown> }
  | { ok: false; error: ArgumentValidationFailure };

/** Options of the {@link ArgumentValidatorCache} constructor. */
export interface ArgumentValidatorCacheOptions {
  /** Defaults for every {@link ArgumentValidatorCache.compile} call (its own options win, field by field). */
  defaults?: ArgumentValidationOptions;
}

/** A validator for one prompt's arguments, made by {@link ArgumentValidatorCache.compile}. */
export interface CompiledArgumentValidator {
  /** Validates, coerces and defaults `provided`; throws `INVALID_PARAMS` (not an object) or the definition error. */
  validate(provided: unknown): ArgumentValidationResult;
  /** Checks the declarations at registration without compiling (throws `INVALID_PROMPT_DEFINITION`, remembered). */
  check(): void;
  /** Drops this user's reference to the shared schema (idempotent); a released validator still validates. */
  release(): void;
  /** Declared argument names (declaration order; for an inputSchema: its properties). */
  readonly argumentNames: readonly string[];
  /** Required argument names (declaration order; for an inputSchema: its `required` array). */
  readonly requiredArguments: readonly string[];
  /** The JSON Schema arguments are validated against (for declarations: without title/description). */
  readonly schema: JsonSchema;
}
