/**
 * Name rules for prompts and their arguments.
 *
 * Prompt names: ASCII letters, digits, `-`, `_` and `.`; starting with a letter, digit or `_`; no `..`; 1 to 128
 * characters. This accepts kebab-case (`review-code`), snake_case (`test_simple_prompt`) and mixed forms
 * (`review_code-v2`, `team.review-code`), and keeps names safe as file names, URL path segments and CLI arguments.
 *
 * Argument names: 1 to 128 characters (code points), no whitespace, control or invisible format characters (bidi
 * controls, zero-width characters), and not `__proto__`, `constructor` or `prototype`. Names that are equal after
 * Unicode NFC normalization are duplicates.
 *
 * @module
 */
import { describeType } from './raw-data.js';

/** The longest prompt or argument name accepted. */
export const MAX_NAME_LENGTH = 128;

/** The regular expression (source) a valid prompt name matches; shared with the published JSON Schema. */
export const PROMPT_NAME_PATTERN = '^(?!.*\\.\\.)[A-Za-z0-9_][A-Za-z0-9._-]*$';

/** The regular expression (source) a valid argument name matches; shared with the published JSON Schema. */
export const ARGUMENT_NAME_PATTERN =
  '^[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF]+$';

/** Argument names that could reach an object's prototype chain. */
export const RESERVED_ARGUMENT_NAMES: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
const WHITESPACE = /\s/u;
/** Invisible format characters: bidi controls, zero-width (non-)joiners and spaces, soft hyphen, BOM, tags. */
const INVISIBLE = /\p{Cf}/u;
const PROMPT_NAME = new RegExp(PROMPT_NAME_PATTERN, 'u');
const ARGUMENT_NAME = new RegExp(ARGUMENT_NAME_PATTERN, 'u');
const PROMPT_NAME_CHAR = /[A-Za-z0-9._-]/u;

/** Checks shared by both kinds of name; returns a problem or undefined. */
function commonProblem(label: string, name: unknown): string | undefined {
  if (typeof name !== 'string') return `${label} must be a string (got ${describeType(name)})`;
  if (name.length === 0) return `${label} must not be empty`;
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) return `${label} must be at most ${MAX_NAME_LENGTH} characters (got ${length})`;
  if (CONTROL.test(name)) return `${label} must not contain control characters`;
  if (WHITESPACE.test(name)) return `${label} must not contain whitespace`;
  if (INVISIBLE.test(name)) return `${label} must not contain invisible characters (bidi controls, zero-width characters)`;
  return undefined;
}

/**
 * Checks a prompt name. Returns a problem message, or `undefined` when the name is valid.
 *
 * @example
 * ```ts
 * promptNameProblem('review-code'); // undefined
 * promptNameProblem('test_simple_prompt'); // undefined
 * promptNameProblem('../etc/passwd'); // "prompt name must not contain '/'"
 * ```
 */
export function promptNameProblem(name: unknown): string | undefined {
  // Fast path: the pattern is ASCII-only, so UTF-16 length is the character count.
  if (typeof name === 'string' && name.length <= MAX_NAME_LENGTH && PROMPT_NAME.test(name)) return undefined;
  const label = 'prompt name';
  const common = commonProblem(label, name);
  if (common !== undefined || typeof name !== 'string') return common;
  if (name.includes('/')) return `${label} must not contain '/'`;
  if (name.includes('\\')) return `${label} must not contain '\\'`;
  if (name.includes('..')) return `${label} must not contain '..'`;
  for (const char of name) {
    if (!PROMPT_NAME_CHAR.test(char)) {
      return `${label} may contain only ASCII letters, digits, '-', '_' and '.' (found '${char}')`;
    }
  }
  if (name.startsWith('-') || name.startsWith('.')) return `${label} must start with a letter, a digit or '_'`;
  return undefined;
}

/**
 * Checks a prompt argument name. Returns a problem message, or `undefined` when the name is valid.
 *
 * @example
 * ```ts
 * argumentNameProblem('code'); // undefined
 * argumentNameProblem('__proto__'); // "argument name '__proto__' is reserved"
 * ```
 */
export function argumentNameProblem(name: unknown): string | undefined {
  // Fast path: a UTF-16 length within the limit cannot exceed it in code points.
  if (
    typeof name === 'string' &&
    name.length <= MAX_NAME_LENGTH &&
    ARGUMENT_NAME.test(name) &&
    !INVISIBLE.test(name) &&
    !RESERVED_ARGUMENT_NAMES.includes(name)
  ) {
    return undefined;
  }
  const common = commonProblem('argument name', name);
  if (common !== undefined || typeof name !== 'string') return common;
  if (RESERVED_ARGUMENT_NAMES.includes(name)) return `argument name '${name}' is reserved`;
  return undefined;
}

/** The key under which two argument names count as the same (Unicode NFC: `café` composed or decomposed). */
export function argumentNameKey(name: string): string {
  return name.normalize('NFC');
}
