/** The preview page's JSON requests: checked shapes in, the state's answers out; a bad shape is INVALID_PARAMS. */
import { PromptError } from '../../errors.js';
import { isRecord } from '../../json.js';
import type { PreviewState } from './state.js';

/** Arguments one form may send, and the characters of one name. */
const MAX_ARGUMENTS = 1_000;
const MAX_NAME = 1_000;

function name(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_NAME) {
    throw new PromptError('INVALID_PARAMS', `${field} must be a non-empty string of at most ${MAX_NAME} characters`);
  }
  return value;
}

/** The form's values: an object of strings, as an MCP client sends prompt arguments. */
function stringArguments(value: unknown): Record<string, string> {
  if (value === undefined) return Object.create(null) as Record<string, string>;
  if (!isRecord(value)) throw new PromptError('INVALID_PARAMS', 'arguments must be an object of strings');
  const keys = Object.keys(value);
  if (keys.length > MAX_ARGUMENTS) {
    throw new PromptError('LIMIT_EXCEEDED', `arguments has ${keys.length} entries, over the limit of ${MAX_ARGUMENTS}`);
  }
  const out = Object.create(null) as Record<string, string>;
  for (const key of keys) {
    const v = value[key];
    if (typeof v !== 'string') throw new PromptError('INVALID_PARAMS', `arguments.${key} must be a string`);
    out[key] = v;
  }
  return out;
}

function body(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new PromptError('INVALID_PARAMS', 'the request body must be a JSON object');
  return value;
}

/** `GET /api/prompt?name=`: the prompt with its form (404 for an unknown name). */
export function promptRequest(state: PreviewState, query: URLSearchParams): unknown {
  const wanted = name(query.get('name') ?? undefined, 'name');
  const prompt = state.prompt(wanted);
  if (prompt === undefined) throw new PromptError('PROMPT_NOT_FOUND', `Unknown prompt: ${wanted}`);
  return prompt;
}

/** `POST /api/render` `{name, arguments}`: the messages, or the error. */
export function renderRequest(state: PreviewState, given: unknown): Promise<unknown> {
  const b = body(given);
  return state.render(name(b['name'], 'name'), stringArguments(b['arguments']));
}

/** `POST /api/diff` `{name, arguments}`: the rendering diffed against the previous and the git HEAD version. */
export async function diffRequest(state: PreviewState, given: unknown): Promise<unknown> {
  const b = body(given);
  return { diffs: await state.diffs(name(b['name'], 'name'), stringArguments(b['arguments'])) };
}

/** `POST /api/complete` `{name, argument, value, arguments}`: the suggestions. */
export async function completeRequest(state: PreviewState, given: unknown): Promise<unknown> {
  const b = body(given);
  const value = b['value'] ?? '';
  if (typeof value !== 'string') throw new PromptError('INVALID_PARAMS', 'value must be a string');
  const values = await state.complete(
    name(b['name'], 'name'),
    name(b['argument'], 'argument'),
    value,
    stringArguments(b['arguments']),
  );
  return { values };
}
