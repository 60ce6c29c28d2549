/**
 * Reading example cases from data (a prompt file's `cases`, or a cases file beside it): every problem with its JSON
 * pointer, the valid cases frozen.
 *
 * @module
 */
import { CopyError, frozenCopy, quote, unknownKeyMessage } from '../definition/raw-data.js';
import { MAX_CARRIED_PROBLEMS } from '../definition/problems.js';
import type { DefinitionProblem } from '../definition/types.js';
import { ERROR_TABLE } from '../errors.js';
import type { PromptErrorCode } from '../errors.js';
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import type { PromptMessage } from '../types.js';
import type { PromptCase, PromptCaseErrorExpectation, PromptCaseExpectations, PromptCaseText } from './types.js';

/** The default most cases one prompt may carry (inline and beside it together). */
export const DEFAULT_MAX_CASES = 1_000;

/** The properties a case may have. */
export const CASE_KEYS: readonly string[] = Object.freeze([
  'name',
  'arguments',
  'messages',
  'contains',
  'notContains',
  'error',
]);

const TEXT_KEYS: readonly string[] = ['text', 'message'];
const ERROR_KEYS: readonly string[] = ['code', 'message', 'missing_arguments'];
const MESSAGE_KEYS: readonly string[] = ['role', 'content'];
const RPC_CODES: ReadonlySet<number> = new Set(Object.values(ERROR_TABLE).map((e) => e.rpcCode));

/** Options of {@link parsePromptCases}. */
export interface ParsePromptCasesOptions {
  /** JSON pointer of the case list in its file (default `/cases`); problems and cases are placed under it. */
  path?: string;
  /**
   * The argument names the prompt declares: a case that passes another one (and expects no error) is a problem.
   * Not checked when absent.
   */
  declaredArguments?: readonly string[];
  /** Most cases (default {@link DEFAULT_MAX_CASES}); more is one problem and no case is read. */
  maxCases?: number;
  /**
   * Case names already read (from another file of the same prompt) with where: a repeat is a problem. Filled in with
   * the names read here.
   */
  takenNames?: Map<string, string>;
  /** The file the cases are written in, copied onto each case. */
  file?: string;
  /** Places a pointer in the file, copied onto each case as its line and column. */
  locate?: (pointer: string) => { line: number; column: number } | undefined;
}

/** The result of {@link parsePromptCases}: the valid cases, and every problem (a case with a problem is left out). */
export interface ParsedPromptCases {
  cases: PromptCase[];
  problems: DefinitionProblem[];
}

class Problems {
  readonly list: DefinitionProblem[] = [];
  dropped = 0;
  add(path: string, message: string): void {
    if (this.list.length < MAX_CARRIED_PROBLEMS) this.list.push({ path, message });
    else this.dropped++;
  }
}

/**
 * Reads a list of example cases. Each case has a unique `name`, optional `arguments` (an object), and expectations:
 * `messages` (the exact rendered messages), `contains` / `notContains` (text, or `{text, message}` for one
 * message's text blocks), or `error` (a JSON-RPC code such as `-32602`, a PromptError code such as
 * `PROMPT_ARGUMENT_MISSING`, or `{code, message, missing_arguments}`). Never throws for bad data.
 *
 * @example
 * ```ts
 * const { cases, problems } = parsePromptCases(
 *   [{ name: 'greets', arguments: { who: 'Ada' }, contains: 'Hello Ada' }],
 *   { declaredArguments: ['who'] },
 * );
 * // cases[0].expect.contains -> [{ text: 'Hello Ada' }], problems -> []
 * ```
 */
export function parsePromptCases(input: unknown, options: ParsePromptCasesOptions = {}): ParsedPromptCases {
  const path = options.path ?? '/cases';
  const problems = new Problems();
  const cases: PromptCase[] = [];
  const max = options.maxCases ?? DEFAULT_MAX_CASES;
  if (!Array.isArray(input)) {
    problems.add(path, `cases must be a list of cases (got ${describeType(input)})`);
    return { cases, problems: problems.list };
  }
  if (input.length > max) {
    problems.add(path, `${input.length} cases, over the limit of ${max} cases for one prompt`);
    return { cases, problems: problems.list };
  }
  const names = options.takenNames ?? new Map<string, string>();
  // Where a name was first used: file:line:col when placed (clickable), else its pointer.
  const where = (at: string): string => {
    const place = options.locate?.(at);
    if (place === undefined) return at;
    return `${options.file ?? 'line'}${options.file === undefined ? ' ' : ':'}${place.line}:${place.column}`;
  };
  const declared = options.declaredArguments === undefined ? undefined : new Set(options.declaredArguments);
  for (let i = 0; i < input.length; i++) {
    const at = childPointer(path, i);
    const before = problems.list.length + problems.dropped;
    const read = readCase(problems, input[i], at, declared);
    if (read === undefined) continue;
    const first = names.get(read.name);
    if (first !== undefined) {
      problems.add(childPointer(at, 'name'), `duplicate case name ${quote(read.name)} (first at ${first})`);
      continue;
    }
    names.set(read.name, where(at));
    if (problems.list.length + problems.dropped !== before) continue;
    read.pointer = at;
    if (options.file !== undefined) read.file = options.file;
    const place = options.locate?.(at);
    if (place !== undefined) {
      read.line = place.line;
      read.column = place.column;
    }
    cases.push(Object.freeze(read) as PromptCase);
  }
  if (problems.dropped > 0) problems.list.push({ path, message: `and ${problems.dropped} more problem(s) in cases` });
  return { cases, problems: problems.list };
}

function readCase(
  p: Problems,
  value: unknown,
  at: string,
  declared: ReadonlySet<string> | undefined,
): PromptCase | undefined {
  if (!isRecord(value)) {
    p.add(at, `a case must be an object with 'name' (got ${describeType(value)})`);
    return undefined;
  }
  const before = p.list.length + p.dropped;
  for (const key of Object.keys(value)) {
    if (!CASE_KEYS.includes(key)) p.add(childPointer(at, key), unknownKeyMessage(key, CASE_KEYS));
  }
  const name = ownValue(value, 'name');
  if (name === undefined) p.add(childPointer(at, 'name'), 'name is required');
  else if (typeof name !== 'string')
    p.add(childPointer(at, 'name'), `name must be a string (got ${describeType(name)})`);
  else if (name.trim() === '') p.add(childPointer(at, 'name'), 'name must not be empty');
  const expect: PromptCaseExpectations = {};
  const error = ownValue(value, 'error');
  if (error !== undefined) {
    const read = readError(p, error, childPointer(at, 'error'));
    if (read !== undefined) expect.error = read;
    for (const key of ['messages', 'contains', 'notContains']) {
      if (ownValue(value, key) !== undefined)
        p.add(childPointer(at, key), `a case expects either an error or ${key}, not both`);
    }
  }
  const args = readArguments(p, ownValue(value, 'arguments'), childPointer(at, 'arguments'), declared, error);
  const messages = ownValue(value, 'messages');
  if (messages !== undefined && error === undefined) {
    const read = readMessages(p, messages, childPointer(at, 'messages'));
    if (read !== undefined) expect.messages = read;
  }
  for (const key of ['contains', 'notContains'] as const) {
    const given = ownValue(value, key);
    if (given === undefined || error !== undefined) continue;
    const read = readTexts(p, given, childPointer(at, key), key);
    if (read !== undefined) expect[key] = read;
  }
  if (p.list.length + p.dropped !== before || typeof name !== 'string' || args === undefined) {
    // The name still counts for duplicates when it is valid.
    return typeof name === 'string' && name.trim() !== ''
      ? ({ name, arguments: {}, expect: {} } as PromptCase)
      : undefined;
  }
  return { name, arguments: args, expect: Object.freeze(expect) };
}

function copy(p: Problems, value: unknown, at: string): unknown {
  try {
    return frozenCopy(value);
  } catch (error) {
    if (error instanceof CopyError) p.add(`${at}${error.at}`, error.reason);
    else if (error instanceof RangeError) p.add(at, 'nested too deeply');
    else throw error;
    return undefined;
  }
}

function readArguments(
  p: Problems,
  value: unknown,
  at: string,
  declared: ReadonlySet<string> | undefined,
  error: unknown,
): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return Object.freeze({});
  if (!isRecord(value)) {
    p.add(at, `arguments must be an object of argument values (got ${describeType(value)})`);
    return undefined;
  }
  // A case expecting an error may pass what the prompt does not declare: that is what it checks.
  if (declared !== undefined && error === undefined) {
    for (const key of Object.keys(value)) {
      if (!declared.has(key)) {
        const known = [...declared];
        const hint = / \(did you mean .*\)$/.exec(unknownKeyMessage(key, known))?.[0] ?? '';
        p.add(
          childPointer(at, key),
          `argument ${quote(key)} is not declared by the prompt${known.length === 0 ? ' (it declares no arguments)' : hint}`,
        );
      }
    }
  }
  return copy(p, value, at) as Readonly<Record<string, unknown>> | undefined;
}

function readMessages(p: Problems, value: unknown, at: string): readonly PromptMessage[] | undefined {
  if (!Array.isArray(value)) {
    p.add(at, `messages must be a list of messages (got ${describeType(value)})`);
    return undefined;
  }
  const before = p.list.length + p.dropped;
  const out: PromptMessage[] = [];
  for (let i = 0; i < value.length; i++) {
    const m: unknown = value[i];
    const mAt = childPointer(at, i);
    if (!isRecord(m)) {
      p.add(mAt, `a message must be an object with 'role' and 'content' (got ${describeType(m)})`);
      continue;
    }
    for (const key of Object.keys(m))
      if (!MESSAGE_KEYS.includes(key)) p.add(childPointer(mAt, key), unknownKeyMessage(key, MESSAGE_KEYS));
    const role = ownValue(m, 'role');
    if (role !== 'user' && role !== 'assistant')
      p.add(childPointer(mAt, 'role'), `invalid role ${quote(role)}: must be 'user' or 'assistant'`);
    const content = ownValue(m, 'content');
    let block: unknown;
    if (typeof content === 'string') block = { type: 'text', text: content };
    else if (isRecord(content) && typeof content['type'] === 'string') block = content;
    else
      p.add(
        childPointer(mAt, 'content'),
        `content must be a string or a content block with 'type' (got ${describeType(content)})`,
      );
    if (block === undefined || (role !== 'user' && role !== 'assistant')) continue;
    const copied = copy(p, block, childPointer(mAt, 'content'));
    if (copied !== undefined) out.push(Object.freeze({ role, content: copied }) as PromptMessage);
  }
  return p.list.length + p.dropped === before ? Object.freeze(out) : undefined;
}

function readTexts(p: Problems, value: unknown, at: string, key: string): readonly PromptCaseText[] | undefined {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const single = !Array.isArray(value);
  const out: PromptCaseText[] = [];
  const before = p.list.length + p.dropped;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const iAt = single ? at : childPointer(at, i);
    if (typeof item === 'string') {
      out.push(Object.freeze({ text: item }));
      continue;
    }
    if (!isRecord(item)) {
      p.add(iAt, `${key} must be text, {text, message}, or a list of them (got ${describeType(item)})`);
      continue;
    }
    for (const k of Object.keys(item))
      if (!TEXT_KEYS.includes(k)) p.add(childPointer(iAt, k), unknownKeyMessage(k, TEXT_KEYS));
    const text = ownValue(item, 'text');
    if (typeof text !== 'string') {
      p.add(childPointer(iAt, 'text'), `text must be a string (got ${describeType(text)})`);
      continue;
    }
    const message = ownValue(item, 'message');
    if (message === undefined) {
      out.push(Object.freeze({ text }));
    } else if (typeof message === 'number' && Number.isSafeInteger(message) && message >= 0) {
      out.push(Object.freeze({ text, message }));
    } else {
      p.add(childPointer(iAt, 'message'), `message must be a message index (0, 1, ...), got ${quote(message)}`);
    }
  }
  return p.list.length + p.dropped === before ? Object.freeze(out) : undefined;
}

function readCode(p: Problems, value: unknown, at: string): number | PromptErrorCode | undefined {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && RPC_CODES.has(value)) return value;
    p.add(at, `unknown JSON-RPC error code ${quote(value)} (one of ${[...RPC_CODES].sort().join(', ')})`);
    return undefined;
  }
  if (typeof value === 'string') {
    if (Object.hasOwn(ERROR_TABLE, value)) return value as PromptErrorCode;
    const hint = unknownKeyMessage(value, Object.keys(ERROR_TABLE)).replace(/^unknown property/, 'unknown error code');
    p.add(at, hint);
    return undefined;
  }
  p.add(at, `an error code is a JSON-RPC code (-32602) or an error code name (got ${describeType(value)})`);
  return undefined;
}

function readError(p: Problems, value: unknown, at: string): PromptCaseErrorExpectation | undefined {
  if (!isRecord(value)) {
    const code = readCode(p, value, at);
    return code === undefined ? undefined : Object.freeze({ code });
  }
  for (const key of Object.keys(value))
    if (!ERROR_KEYS.includes(key)) p.add(childPointer(at, key), unknownKeyMessage(key, ERROR_KEYS));
  if (ownValue(value, 'code') === undefined) {
    p.add(childPointer(at, 'code'), 'code is required (-32602, or an error code such as PROMPT_ARGUMENT_MISSING)');
    return undefined;
  }
  const code = readCode(p, value['code'], childPointer(at, 'code'));
  if (code === undefined) return undefined;
  const out: PromptCaseErrorExpectation = { code };
  const message = ownValue(value, 'message');
  if (message !== undefined) {
    if (typeof message === 'string') out.message = message;
    else p.add(childPointer(at, 'message'), `message must be a string (got ${describeType(message)})`);
  }
  const missing = ownValue(value, 'missing_arguments');
  if (missing !== undefined) {
    if (Array.isArray(missing) && missing.every((m) => typeof m === 'string'))
      out.missing_arguments = Object.freeze([...(missing as string[])]);
    else p.add(childPointer(at, 'missing_arguments'), 'missing_arguments must be a list of argument names');
  }
  return Object.freeze(out);
}

/**
 * @internal The argument names a definition declares: its `arguments` and the properties of its `inputSchema`.
 */
export function declaredArgumentNames(definition: {
  arguments?: readonly { name: string }[];
  inputSchema?: Record<string, unknown>;
}): string[] {
  const names = (definition.arguments ?? []).map((a) => a.name);
  const properties = definition.inputSchema?.['properties'];
  if (isRecord(properties)) for (const key of Object.keys(properties)) if (!names.includes(key)) names.push(key);
  return names;
}
