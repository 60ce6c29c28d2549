/**
 * Name rules for prompts and their arguments.
 *
 * Prompt names: ASCII letters, digits, `-`, `_` and `.`; starting with a letter, digit or `_`; no `..`; 1 to 128
 * characters. This accepts kebab-case (`review-code`), snake_case (`test_simple_prompt`) and mixed forms
 * (`review_code-v2`, `team.review-code`), and keeps names safe as file names, URL path segments and CLI arguments.
 *
 * Argument names: 1 to 128 characters (code points), no whitespace, control or invisible characters (format
 * characters, default-ignorable code points, U+2800), well-formed UTF-16, not `__proto__`, `constructor` or
 * `prototype`, and reachable from a template as `{{name}}`: no `.` (`{{a.b}}` reads field `b` of argument `a`), no
 * `{` or `}`, not starting with `resource:` (a directive). Names that are equal after Unicode NFC normalization are
 * duplicates ({@link DeclaredNames}). One rule for every place an argument name is declared: prompt and function
 * `arguments` and inputSchema `properties`.
 *
 * @module
 */
import { isWellFormedText } from '../encoding.js';
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import type { DefinitionProblem } from './types.js';
import { quote } from './raw-data.js';

/** The longest prompt or argument name accepted. */
export const MAX_NAME_LENGTH = 128;

/** The regular expression (source) a valid prompt name matches; shared with the published JSON Schema. */
export const PROMPT_NAME_PATTERN = '^(?!.*\\.\\.)[A-Za-z0-9_][A-Za-z0-9._-]*$';

/** The regular expression (source) of a valid argument name's BMP characters; shared with the published JSON Schema. */
export const ARGUMENT_NAME_PATTERN =
  '^(?!resource:)[^\\s.\\{\\}\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2' +
  '\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u2800\\u3164\\uFE00-\\uFE0F' +
  '\\uFEFF\\uFFA0\\uFFF0-\\uFFFB]+$';

/** Argument names that could reach an object's prototype chain. */
export const RESERVED_ARGUMENT_NAMES: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
const WHITESPACE = /\s/u;
/**
 * Invisible characters: format characters (bidi controls, zero-width spaces and joiners, soft hyphen, BOM, tags),
 * default-ignorable code points (Hangul fillers, variation selectors, combining grapheme joiner) and the blank
 * Braille pattern.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
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
  if (INVISIBLE.test(name))
    return `${label} must not contain invisible characters (bidi controls, zero-width characters, fillers)`;
  if (!isWellFormedText(name)) return `${label} must be well-formed Unicode text (it contains a lone surrogate)`;
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
    isWellFormedText(name) &&
    !RESERVED_ARGUMENT_NAMES.includes(name)
  ) {
    return undefined;
  }
  const common = commonProblem('argument name', name);
  if (common !== undefined || typeof name !== 'string') return common;
  if (RESERVED_ARGUMENT_NAMES.includes(name)) return `argument name '${name}' is reserved`;
  return templateNameProblem(name);
}

/** Why a template could never name the argument `name` in `{{name}}` (docs/prompts.md, "Templates"), or undefined. */
function templateNameProblem(name: string): string | undefined {
  const quoted = quote(name);
  if (name.includes('.')) {
    return `argument name ${quoted} must not contain '.': a template reads a dotted name as a path into an argument (${quote(`{{${name}}}`)} is never this one), so it could never be used (write ${quote(name.replace(/\./g, '_'))} instead)`;
  }
  if (name.includes('{') || name.includes('}'))
    return `argument name ${quoted} must not contain '{' or '}': no template tag can name it`;
  if (name.startsWith('resource:'))
    return `argument name ${quoted} must not start with 'resource:': {{resource:...}} is a resource directive`;
  return undefined;
}

/** The key under which two argument names count as the same (Unicode NFC: `café` composed or decomposed). */
export function argumentNameKey(name: string): string {
  return name.normalize('NFC');
}

/**
 * The argument names one list declares so far: {@link DeclaredNames.add} returns the problem of a name equal after
 * NFC to one added before (a duplicate, or a twin spelled differently), else records it.
 */
export class DeclaredNames {
  readonly #seen = new Map<string, { readonly name: string; readonly at: string }>();

  add(name: string, at: string, problemAt: string = at): DefinitionProblem | undefined {
    const key = argumentNameKey(name);
    const first = this.#seen.get(key);
    if (first === undefined) {
      this.#seen.set(key, { name, at });
      return undefined;
    }
    const twin = first.name === name ? '' : `, as ${quote(first.name)}: equal after Unicode NFC normalization`;
    return {
      path: problemAt,
      message: `duplicate argument name ${quote(name)} (first declared at ${first.at}${twin})`,
    };
  }
}

/**
 * Problems of the names an inputSchema declares (its `properties` keys): each under {@link argumentNameProblem}, no
 * two equal after NFC, and none a different spelling of a name in `args` (the same name in both is one argument).
 */
export function inputSchemaNameProblems(
  schema: Record<string, unknown>,
  args: readonly unknown[] | undefined,
): DefinitionProblem[] {
  const properties = ownValue(schema, 'properties');
  if (!isRecord(properties)) return [];
  const problems: DefinitionProblem[] = [];
  const spelled = new Map<string, string>();
  for (const entry of args ?? []) {
    const name = isRecord(entry) ? ownValue(entry, 'name') : undefined;
    if (typeof name === 'string') spelled.set(argumentNameKey(name), name);
  }
  const names = new DeclaredNames();
  const base = childPointer('/inputSchema', 'properties');
  for (const name of Object.keys(properties)) {
    const at = childPointer(base, name);
    const problem = argumentNameProblem(name);
    if (problem !== undefined) problems.push({ path: at, message: problem });
    const twin = names.add(name, at);
    if (twin !== undefined) problems.push(twin);
    const other = spelled.get(argumentNameKey(name));
    if (other !== undefined && other !== name) {
      const message = `duplicate argument name ${quote(name)} (declared in arguments as ${quote(other)}: equal after Unicode NFC normalization; spell both the same)`;
      problems.push({ path: at, message });
    }
  }
  return problems;
}
