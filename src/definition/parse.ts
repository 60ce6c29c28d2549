/**
 * Structural validation and normalization of prompt definitions (data from files, or programmatic objects):
 * the definition's own properties here, argument declarations in parse-arguments.ts, messages in parse-messages.ts.
 *
 * @module
 */
import { declaredArgumentNames, parsePromptCases } from '../cases/parse.js';
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import type { Icon } from '../types.js';
import { promptNameProblem } from './names.js';
import { readArguments } from './parse-arguments.js';
import { readMessages } from './parse-messages.js';
import { createDefinitionError, type LocatePointer } from './problems.js';
import { quote } from './raw-data.js';
import { REQUIRED_NON_EMPTY, Reader } from './reader.js';
import type { Out } from './reader.js';
import type { ParsedLists } from './reuse.js';
import { inputSchemaProblems } from './root-schema.js';
import type { DefinitionProblem, PromptDefinition, SystemRolePolicy } from './types.js';

/** Options of {@link parsePromptDefinition}. */
export interface ParsePromptDefinitionOptions {
  /** Where the definition came from (file path, URL…); heads the error message and is put in `data.source`. */
  source?: string;
  /** `'reject'` (default): a `system` role is a problem. `'user'`: legacy `system` messages become `user`. */
  systemRole?: SystemRolePolicy;
  /** Maps a JSON pointer to its 1-based line/column in the source text (for file loaders). */
  locate?: LocatePointer;
}

/**
 * The properties a definition may have (`$schema` lets editors autocomplete; `render` is programmatic only; `cases`
 * are checked and left out: they are example cases, not part of the prompt).
 */
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
  'cases',
]);

const ICON_KEYS: readonly string[] = ['src', 'mimeType', 'sizes', 'theme'];

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
export function checkPromptDefinition(
  input: unknown,
  systemRole: SystemRolePolicy = 'reject',
  lists?: ParsedLists,
): DefinitionCheck {
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
    r.problem(
      '/messages',
      "messages is required (a non-empty array of message templates), unless a 'render' function is given",
    );
  }

  if (ownValue(input, 'cases') !== undefined) {
    const args = out['arguments'] as readonly { name: string }[] | undefined;
    const declared = declaredArgumentNames({
      ...(args === undefined ? {} : { arguments: args }),
      ...(inputSchema === undefined ? {} : { inputSchema }),
    });
    const cases = parsePromptCases(input['cases'], { declaredArguments: declared });
    r.problems.push(...cases.problems);
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
export function parseWithLists(
  input: unknown,
  options: ParsePromptDefinitionOptions,
  lists: ParsedLists | undefined,
): PromptDefinition {
  const check = checkPromptDefinition(input, options.systemRole ?? 'reject', lists);
  if (check.definition !== undefined) return check.definition;
  throw createDefinitionError(check.problems, {
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(check.name === undefined ? {} : { name: check.name }),
    ...(options.locate === undefined ? {} : { locate: options.locate }),
  });
}
