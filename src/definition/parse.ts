/**
 * Structural validation and normalization of prompt definitions (data from files, or programmatic objects).
 *
 * @module
 */
import { ARGUMENT_SCHEMA_KEYWORDS, matchesJsonType } from './keywords.js';
import type { Icon, Role } from '../types.js';
import { CopyError, frozenCopy, quote, unknownKeyMessage } from './raw-data.js';
import { DeclaredNames, argumentNameProblem, promptNameProblem } from './names.js';
import { inputSchemaProblems } from './root-schema.js';
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import { MAX_CARRIED_PROBLEMS, createDefinitionError, type LocatePointer } from './problems.js';
import type { ParsedLists } from './reuse.js';
import type {
  ArgumentType,
  ContentTemplate,
  DefinitionProblem,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptMessageTemplate,
  SystemRolePolicy,
} from './types.js';

/** Options of {@link parsePromptDefinition}. */
export interface ParsePromptDefinitionOptions {
  /** Where the definition came from (file path, URL…); heads the error message and is put in `data.source`. */
  source?: string;
  /** `'reject'` (default): a `system` role is a problem. `'user'`: legacy `system` messages become `user`. */
  systemRole?: SystemRolePolicy;
  /** Maps a JSON pointer to its 1-based line/column in the source text (for file loaders). */
  locate?: LocatePointer;
}

/** The properties a definition may have (`$schema` lets editors autocomplete; `render` is programmatic only). */
export const DEFINITION_KEYS: readonly string[] = Object.freeze([
  '$schema',
  'name',
  'title',
  'description',
  'icons',
  '_meta',
  'tags',
  'arguments',
  'inputSchema',
  'messages',
  'render',
]);

/** The properties an argument declaration may have (`complete` is programmatic only). */
export const ARGUMENT_KEYS: readonly string[] = Object.freeze([
  'name',
  'title',
  'description',
  'required',
  ...ARGUMENT_SCHEMA_KEYWORDS,
  'complete',
]);

/** JSON-Schema type names an argument may declare. */
export const ARGUMENT_TYPES: readonly ArgumentType[] = Object.freeze([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
]);

/** The content block types a message template may hold. */
export const CONTENT_TYPES: readonly string[] = Object.freeze(['text', 'image', 'audio', 'resource', 'resource_link']);

const CONTENT_TYPE_LIST = CONTENT_TYPES.map((t) => `'${t}'`).join(', ');
interface StringRule {
  required?: boolean;
  nonEmpty?: boolean;
}
const NO_OPTIONS: StringRule = Object.freeze({});
const REQUIRED: StringRule = Object.freeze({ required: true });
const NON_EMPTY: StringRule = Object.freeze({ nonEmpty: true });
const REQUIRED_NON_EMPTY: StringRule = Object.freeze({ required: true, nonEmpty: true });
const MESSAGE_KEYS: readonly string[] = ['role', 'content'];
const ICON_KEYS: readonly string[] = ['src', 'mimeType', 'sizes', 'theme'];
const CONTENT_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text', '_meta'],
  image: ['type', 'data', 'path', 'mimeType', '_meta'],
  audio: ['type', 'data', 'path', 'mimeType', '_meta'],
  resource: ['type', 'uri', 'mimeType', '_meta'],
  resource_link: ['type', 'uri', 'name', 'title', 'mimeType', 'description', '_meta'],
};

/** The message for content given as an array. */
export const ARRAY_CONTENT_MESSAGE =
  'content must be one content block, not an array; use one message per block or normalizeLegacyPrompt';

const ROLE_HINT = "must be 'user' or 'assistant'";

type Out = Record<string, unknown>;

/** Collects problems while reading one definition. */
class Reader {
  readonly problems: DefinitionProblem[] = [];

  constructor(readonly systemRole: SystemRolePolicy) {}

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  unknownKeys(record: Record<string, unknown>, path: string, known: readonly string[]): void {
    for (const key in record) {
      if (!known.includes(key) && Object.hasOwn(record, key)) {
        // Past what an error carries, a hint is never read: skip its edit distances.
        this.problem(childPointer(path, key), this.problems.length < MAX_CARRIED_PROBLEMS ? unknownKeyMessage(key, known) : 'unknown property');
      }
    }
  }

  /** Copies an optional string property into `out`; `nonEmpty` also rejects `''`. */
  string(record: Record<string, unknown>, key: string, path: string, out: Out, opts: StringRule = NO_OPTIONS): void {
    if (ownValue(record, key) === undefined) {
      if (opts.required === true) this.problem(childPointer(path, key), `${key} is required`);
      return;
    }
    const value = record[key];
    if (typeof value !== 'string') {
      this.problem(childPointer(path, key), `${key} must be a string (got ${describeType(value)})`);
    } else if (opts.nonEmpty === true && value.length === 0) {
      this.problem(childPointer(path, key), `${key} must not be empty`);
    } else {
      out[key] = value;
    }
  }

  /** Copies an optional JSON object property (a frozen deep copy) into `out`. */
  object(record: Record<string, unknown>, key: string, path: string, out: Out): void {
    if (ownValue(record, key) === undefined) return;
    const value = record[key];
    const at = childPointer(path, key);
    if (!isRecord(value)) {
      this.problem(at, `${key} must be an object (got ${describeType(value)})`);
      return;
    }
    const copy = this.copy(value, at);
    if (copy !== undefined) out[key] = copy;
  }

  copy(value: unknown, path: string): unknown {
    try {
      return frozenCopy(value);
    } catch (error) {
      if (!(error instanceof CopyError)) throw error;
      this.problem(path + error.at, error.reason);
      return undefined;
    }
  }

  stringArray(record: Record<string, unknown>, key: string, path: string, out: Out): void {
    if (ownValue(record, key) === undefined) return;
    const value = record[key];
    const at = childPointer(path, key);
    if (!Array.isArray(value)) {
      this.problem(at, `${key} must be an array of strings (got ${describeType(value)})`);
      return;
    }
    let ok = true;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string') {
        ok = false;
        this.problem(childPointer(at, i), `${key} items must be strings (got ${describeType(item)})`);
      }
    }
    if (ok) out[key] = frozenArray(value);
  }
}

/** A frozen copy of an array, allocated at its exact length. */
function frozenArray<T>(source: readonly T[]): readonly T[] {
  const copy = new Array<T>(source.length);
  for (let i = 0; i < source.length; i++) copy[i] = source[i] as T;
  return Object.freeze(copy);
}

function isArgumentType(value: unknown): value is ArgumentType {
  return typeof value === 'string' && (ARGUMENT_TYPES as readonly string[]).includes(value);
}

function readIcon(r: Reader, value: unknown, path: string): Icon | undefined {
  if (!isRecord(value)) {
    r.problem(path, `icon must be an object with 'src' (got ${describeType(value)})`);
    return undefined;
  }
  const before = r.problems.length;
  r.unknownKeys(value, path, ICON_KEYS);
  const out: Out = {};
  r.string(value, 'src', path, out, REQUIRED_NON_EMPTY);
  r.string(value, 'mimeType', path, out);
  r.stringArray(value, 'sizes', path, out);
  if (ownValue(value, 'theme') !== undefined) {
    const theme = value['theme'];
    if (theme === 'light' || theme === 'dark') out['theme'] = theme;
    else r.problem(childPointer(path, 'theme'), `invalid theme ${quote(theme)}: must be 'light' or 'dark'`);
  }
  return r.problems.length === before ? (Object.freeze(out) as unknown as Icon) : undefined;
}

function readNonNegativeInteger(r: Reader, arg: Record<string, unknown>, key: string, path: string, out: Out): void {
  if (ownValue(arg, key) === undefined) return;
  const value = arg[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = value;
  else r.problem(childPointer(path, key), `${key} must be a non-negative integer (got ${quote(value)})`);
}

function readNumber(r: Reader, arg: Record<string, unknown>, key: string, path: string, out: Out): void {
  if (ownValue(arg, key) === undefined) return;
  const value = arg[key];
  if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  else r.problem(childPointer(path, key), `${key} must be a finite number (got ${quote(value)})`);
}

function readArgument(r: Reader, value: unknown, path: string): PromptArgumentDefinition | undefined {
  if (!isRecord(value)) {
    r.problem(path, `argument must be an object with a 'name' (got ${describeType(value)})`);
    return undefined;
  }
  const before = r.problems.length;
  r.unknownKeys(value, path, ARGUMENT_KEYS);
  const out: Out = {};
  if (ownValue(value, 'name') === undefined) {
    r.problem(childPointer(path, 'name'), 'name is required');
  } else {
    const problem = argumentNameProblem(value['name']);
    if (problem === undefined) out['name'] = value['name'];
    else r.problem(childPointer(path, 'name'), problem);
  }
  r.string(value, 'title', path, out);
  r.string(value, 'description', path, out);
  if (ownValue(value, 'required') !== undefined) {
    if (typeof value['required'] === 'boolean') out['required'] = value['required'];
    else r.problem(childPointer(path, 'required'), `required must be a boolean (got ${describeType(value['required'])})`);
  }

  let type: ArgumentType | undefined;
  if (ownValue(value, 'type') !== undefined) {
    const t = value['type'];
    if (isArgumentType(t)) {
      type = t;
      out['type'] = t;
    } else {
      r.problem(childPointer(path, 'type'), `invalid type ${quote(t)}: must be one of ${ARGUMENT_TYPES.map((x) => `'${x}'`).join(', ')}`);
    }
  }
  const typeOk = ownValue(value, 'type') === undefined || type !== undefined;

  let enumValues: readonly unknown[] | undefined;
  if (ownValue(value, 'enum') !== undefined) {
    const e = value['enum'];
    const at = childPointer(path, 'enum');
    if (!Array.isArray(e)) {
      r.problem(at, `enum must be an array (got ${describeType(e)})`);
    } else if (e.length === 0) {
      r.problem(at, 'enum must not be empty');
    } else {
      const enumBefore = r.problems.length;
      const seen = new Set<unknown>();
      for (let i = 0; i < e.length; i++) {
        const item: unknown = e[i];
        if (item !== null && typeof item !== 'string' && typeof item !== 'boolean' && !(typeof item === 'number' && Number.isFinite(item))) {
          r.problem(childPointer(at, i), `enum values must be strings, numbers, booleans or null (got ${describeType(item)})`);
        } else if (type !== undefined && !matchesJsonType(item, type)) {
          r.problem(childPointer(at, i), `enum value ${quote(item)} does not match type '${type}'`);
        } else if (seen.has(item)) {
          r.problem(childPointer(at, i), `duplicate enum value ${quote(item)}`);
        }
        seen.add(item);
      }
      if (r.problems.length === enumBefore) {
        enumValues = frozenArray(e);
        out['enum'] = enumValues;
      }
    }
  }

  if (ownValue(value, 'pattern') !== undefined) {
    const p = value['pattern'];
    const at = childPointer(path, 'pattern');
    if (typeof p !== 'string') {
      r.problem(at, `pattern must be a string (got ${describeType(p)})`);
    } else {
      try {
        new RegExp(p, 'u');
        out['pattern'] = p;
      } catch (error) {
        r.problem(at, `invalid pattern ${quote(p)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  r.string(value, 'format', path, out);
  readNonNegativeInteger(r, value, 'minLength', path, out);
  readNonNegativeInteger(r, value, 'maxLength', path, out);
  readNumber(r, value, 'minimum', path, out);
  readNumber(r, value, 'maximum', path, out);

  if (ownValue(value, 'default') !== undefined) {
    const d = value['default'];
    const at = childPointer(path, 'default');
    // With neither a type nor an enum, an argument is a string (that is all the MCP wire sends).
    const expected: ArgumentType | undefined = type ?? (ownValue(value, 'enum') !== undefined ? undefined : 'string');
    if (typeOk && expected !== undefined && !matchesJsonType(d, expected)) {
      r.problem(at, `default must match type '${expected}' (got ${quote(d)})`);
    } else if (enumValues !== undefined && !enumValues.includes(d)) {
      r.problem(at, `default ${quote(d)} is not one of the enum values`);
    } else {
      const copyBefore = r.problems.length;
      const copy = r.copy(d, at);
      if (r.problems.length === copyBefore) out['default'] = copy;
    }
  }
  r.object(value, 'items', path, out);
  if (typeOk) checkKeywordsApply(r, out, path, type, enumValues);
  if (ownValue(value, 'complete') !== undefined) {
    if (typeof value['complete'] === 'function') out['complete'] = value['complete'];
    else r.problem(childPointer(path, 'complete'), 'complete must be a function (programmatic definitions only)');
  }
  return r.problems.length === before ? (Object.freeze(out) as unknown as PromptArgumentDefinition) : undefined;
}

function readArguments(
  r: Reader,
  value: unknown,
  path: string,
  lists: ParsedLists | undefined,
): readonly PromptArgumentDefinition[] | undefined {
  if (!Array.isArray(value)) {
    r.problem(path, `arguments must be an array of argument declarations (got ${describeType(value)})`);
    return undefined;
  }
  const before = r.problems.length;
  const out = new Array<PromptArgumentDefinition>(value.length);
  const names = new DeclaredNames();
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = childPointer(path, i);
    const arg = readArgument(r, item, at);
    const name = isRecord(item) ? ownValue(item, 'name') : undefined;
    const twin = typeof name === 'string' ? names.add(name, at, childPointer(at, 'name')) : undefined;
    if (twin !== undefined) r.problems.push(twin);
    if (arg !== undefined) out[i] = arg;
  }
  if (r.problems.length !== before) return undefined;
  lists?.rememberArguments(out);
  return Object.freeze(out);
}

function readRole(r: Reader, message: Record<string, unknown>, path: string): Role | undefined {
  const at = childPointer(path, 'role');
  if (ownValue(message, 'role') === undefined) {
    r.problem(at, `role is required: ${ROLE_HINT}`);
    return undefined;
  }
  const role = message['role'];
  if (role === 'user' || role === 'assistant') return role;
  if (role === 'system' && r.systemRole === 'user') return 'user';
  r.problem(at, `invalid role ${quote(role)}: ${ROLE_HINT}`);
  return undefined;
}

function readContent(r: Reader, value: unknown, path: string): ContentTemplate | undefined {
  if (typeof value === 'string') return Object.freeze({ type: 'text', text: value });
  if (Array.isArray(value)) {
    r.problem(path, ARRAY_CONTENT_MESSAGE);
    return undefined;
  }
  if (!isRecord(value)) {
    r.problem(path, `content must be a string or a content block object (got ${describeType(value)})`);
    return undefined;
  }
  const typeAt = childPointer(path, 'type');
  const types = CONTENT_TYPE_LIST;
  if (ownValue(value, 'type') === undefined) {
    r.problem(typeAt, `content type is required: one of ${types}`);
    return undefined;
  }
  const type = value['type'];
  const keys = typeof type === 'string' && Object.hasOwn(CONTENT_KEYS, type) ? CONTENT_KEYS[type] : undefined;
  if (keys === undefined) {
    r.problem(typeAt, `unknown content type ${quote(type)}: must be one of ${types}`);
    return undefined;
  }
  const before = r.problems.length;
  r.unknownKeys(value, path, keys);
  const out: Out = { type };
  switch (type) {
    case 'text':
      r.string(value, 'text', path, out, REQUIRED);
      break;
    case 'image':
    case 'audio': {
      const hasData = ownValue(value, 'data') !== undefined;
      const hasPath = ownValue(value, 'path') !== undefined;
      if (hasData && hasPath) r.problem(path, `${type} content needs exactly one of 'data' (base64) or 'path', not both`);
      else if (!hasData && !hasPath) r.problem(path, `${type} content needs 'data' (base64) or 'path'`);
      r.string(value, 'data', path, out, NON_EMPTY);
      r.string(value, 'path', path, out, NON_EMPTY);
      r.string(value, 'mimeType', path, out, REQUIRED_NON_EMPTY);
      break;
    }
    case 'resource':
      r.string(value, 'uri', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'mimeType', path, out, NON_EMPTY);
      break;
    case 'resource_link':
      r.string(value, 'uri', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'name', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'title', path, out);
      r.string(value, 'mimeType', path, out, NON_EMPTY);
      r.string(value, 'description', path, out);
      break;
  }
  r.object(value, '_meta', path, out);
  return r.problems.length === before ? (Object.freeze(out) as unknown as ContentTemplate) : undefined;
}

function readMessages(
  r: Reader,
  value: unknown,
  path: string,
  lists: ParsedLists | undefined,
): readonly PromptMessageTemplate[] | undefined {
  if (!Array.isArray(value)) {
    r.problem(path, `messages must be a non-empty array of message templates (got ${describeType(value)})`);
    return undefined;
  }
  if (value.length === 0) {
    r.problem(path, 'messages must not be empty');
    return undefined;
  }
  const before = r.problems.length;
  const out = new Array<PromptMessageTemplate>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = childPointer(path, i);
    if (!isRecord(item)) {
      r.problem(at, `message must be an object with 'role' and 'content' (got ${describeType(item)})`);
      continue;
    }
    r.unknownKeys(item, at, MESSAGE_KEYS);
    const role = readRole(r, item, at);
    let content: ContentTemplate | undefined;
    if (ownValue(item, 'content') === undefined) r.problem(childPointer(at, 'content'), 'content is required');
    else content = readContent(r, item['content'], childPointer(at, 'content'));
    if (role !== undefined && content !== undefined) out[i] = Object.freeze({ role, content });
  }
  if (r.problems.length !== before) return undefined;
  lists?.rememberMessages(out);
  return Object.freeze(out);
}

/** The result of {@link checkPromptDefinition}: a definition when there is no problem. */
export interface DefinitionCheck {
  definition?: PromptDefinition;
  problems: DefinitionProblem[];
  /** The definition's name when it is a valid one (for error headings). */
  name?: string;
}

/**
 * Validates a definition, collecting every problem instead of throwing (the parser and the legacy normalizer).
 * With `lists`, argument and message lists equal to ones parsed before are reused instead of read again.
 */
export function checkPromptDefinition(input: unknown, systemRole: SystemRolePolicy = 'reject', lists?: ParsedLists): DefinitionCheck {
  const r = new Reader(systemRole);
  if (!isRecord(input)) {
    r.problem('', `a prompt definition must be an object (got ${describeType(input)})`);
    return { problems: r.problems };
  }
  r.unknownKeys(input, '', DEFINITION_KEYS);
  const out: Out = {};
  let name: string | undefined;
  if (ownValue(input, 'name') === undefined) {
    r.problem('/name', 'name is required');
  } else {
    const problem = promptNameProblem(input['name']);
    if (problem === undefined) name = out['name'] = input['name'] as string;
    else r.problem('/name', problem);
  }
  r.string(input, 'title', '', out);
  r.string(input, 'description', '', out);
  if (ownValue(input, 'icons') !== undefined) {
    const icons = input['icons'];
    if (!Array.isArray(icons)) {
      r.problem('/icons', `icons must be an array (got ${describeType(icons)})`);
    } else {
      const before = r.problems.length;
      const read = icons.map((icon: unknown, i) => readIcon(r, icon, childPointer('/icons', i)));
      if (r.problems.length === before) out['icons'] = Object.freeze(read);
    }
  }
  r.object(input, '_meta', '', out);
  r.stringArray(input, 'tags', '', out);
  if (ownValue(input, 'arguments') !== undefined) {
    const raw = input['arguments'];
    const args = lists?.arguments(raw) ?? readArguments(r, raw, '/arguments', lists);
    if (args !== undefined) out['arguments'] = args;
  }
  r.object(input, 'inputSchema', '', out);
  const inputSchema = out['inputSchema'] as Record<string, unknown> | undefined;
  if (inputSchema !== undefined) {
    const args = ownValue(input, 'arguments');
    // `inputSchema` is this parse's deeply frozen copy: the argument plan need not check it again.
    r.problems.push(...inputSchemaProblems(inputSchema, Array.isArray(args) ? args : undefined, true));
  }

  const hasMessages = ownValue(input, 'messages') !== undefined;
  const hasRender = ownValue(input, 'render') !== undefined;
  if (hasMessages && hasRender) {
    r.problem('', "a definition has either 'messages' or a 'render' function, not both");
  } else if (hasRender) {
    if (typeof input['render'] === 'function') out['render'] = input['render'];
    else r.problem('/render', `render must be a function (got ${describeType(input['render'])})`);
  } else if (hasMessages) {
    const raw = input['messages'];
    const messages = lists?.messages(raw) ?? readMessages(r, raw, '/messages', lists);
    if (messages !== undefined) out['messages'] = messages;
  } else {
    r.problem('/messages', "messages is required (a non-empty array of message templates), unless a 'render' function is given");
  }

  const result: DefinitionCheck = { problems: r.problems };
  if (name !== undefined) result.name = name;
  if (r.problems.length === 0) result.definition = Object.freeze(out) as unknown as PromptDefinition;
  return result;
}

/**
 * Validates a prompt definition and returns a normalized, deeply frozen copy (the input is never mutated):
 * string content becomes `{type: 'text', text}`, `$schema` is dropped, and with `systemRole: 'user'` legacy
 * `system` messages become `user` messages.
 *
 * @throws PromptError `INVALID_PROMPT_DEFINITION` listing every problem in `data.problems` (JSON pointer, message,
 *   and line/column when `locate` finds them) and in a readable message.
 * @example
 * ```ts
 * const text = '{ "name": "review", "messages": [{ "role": "system", "content": "Be brief" }] }';
 * parsePromptDefinition(JSON.parse(text), { source: 'prompts/review.json' });
 * // throws PromptError: prompts/review.json: invalid prompt definition
 * //   /messages/0/role: invalid role 'system': must be 'user' or 'assistant'
 * ```
 */
export function parsePromptDefinition(input: unknown, options: ParsePromptDefinitionOptions = {}): PromptDefinition {
  return parseWithLists(input, options, undefined);
}

/** @internal {@link parsePromptDefinition} reusing equal lists parsed before (a registry's). */
export function parseWithLists(input: unknown, options: ParsePromptDefinitionOptions, lists: ParsedLists | undefined): PromptDefinition {
  const check = checkPromptDefinition(input, options.systemRole ?? 'reject', lists);
  if (check.definition !== undefined) return check.definition;
  throw createDefinitionError(check.problems, {
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(check.name === undefined ? {} : { name: check.name }),
    ...(options.locate === undefined ? {} : { locate: options.locate }),
  });
}

const STRING_KEYWORDS = ['pattern', 'format', 'minLength', 'maxLength'] as const;
const NUMBER_KEYWORDS = ['minimum', 'maximum'] as const;

/** A keyword that cannot apply to the argument's type (else the enum's, else string) is an error, not a no-op. */
function checkKeywordsApply(
  r: Reader,
  value: Record<string, unknown>,
  path: string,
  type: ArgumentType | undefined,
  enumValues: readonly unknown[] | undefined,
): void {
  let effective: ArgumentType | undefined = type;
  if (effective === undefined) {
    if (enumValues === undefined) effective = 'string';
    else if (enumValues.every((v) => typeof v === 'number')) effective = 'number';
    else if (enumValues.every((v) => typeof v === 'string')) effective = 'string';
    else return;
  }
  const described = type === undefined ? `an argument without a type is a ${effective}` : `type '${type}'`;
  if (effective !== 'string') {
    for (const k of STRING_KEYWORDS) {
      if (ownValue(value, k) !== undefined) r.problem(childPointer(path, k), `${k} applies to strings, but ${described}`);
    }
  }
  if (effective !== 'number' && effective !== 'integer') {
    for (const k of NUMBER_KEYWORDS) {
      if (ownValue(value, k) !== undefined) r.problem(childPointer(path, k), `${k} applies to numbers, but ${described}: declare type 'number' or 'integer'`);
    }
  }
  if (effective !== 'array' && ownValue(value, 'items') !== undefined) {
    r.problem(childPointer(path, 'items'), `items applies to arrays, but ${described}: declare type 'array'`);
  }
}
