/**
 * Normalization of legacy stored prompts (`{name, content, role?}` records) into valid definitions.
 *
 * @module
 */
import { unknownKeyMessage } from './raw-data.js';
import { checkPromptDefinition } from './parse.js';
import { childPointer, isRecord, ownValue, setOwn } from '../json.js';
import { createDefinitionError, type LocatePointer } from './problems.js';
import type { DefinitionProblem, PromptDefinition, SystemRolePolicy } from './types.js';

/** Options of {@link normalizeLegacyPrompt}. */
export interface NormalizeLegacyPromptOptions {
  /** `'reject'` (default): a `system` role is a problem. `'user'`: `system` messages become `user` messages. */
  systemRole?: SystemRolePolicy;
  /** Where the record came from; heads the error message and is put in `data.source`. */
  source?: string;
  /** Maps a JSON pointer (into the legacy record) to its 1-based line/column in the source text. */
  locate?: LocatePointer;
}

/** Where a generated message came from in the legacy record. */
interface Origin {
  message: string;
  role: string;
  content: string;
}

const LEGACY_MESSAGE_KEYS: readonly string[] = ['role', 'content'];

/** A role left unset in a legacy store (absent or SQL NULL) defaults to `assistant`, as the original migration does. */
function legacyRole(record: Record<string, unknown>): unknown {
  const role = ownValue(record, 'role');
  return role === undefined || role === null ? 'assistant' : role;
}

/**
 * Turns a legacy stored prompt into a valid {@link PromptDefinition}:
 * - `{name, description?, content: string, role?}` becomes one message (a missing role becomes `assistant`);
 * - content given as an array of chunks (`{type: 'text', text}` objects or strings) becomes consecutive messages of
 *   the same role, one chunk each, at the top level and inside `messages`;
 * - a bare string content becomes a text block.
 *
 * It never silently changes an invalid role: `system` is rejected unless `systemRole: 'user'`, and any other invalid
 * role is always rejected. Problems are reported like {@link parsePromptDefinition}'s (PromptError
 * `INVALID_PROMPT_DEFINITION`), with JSON pointers into the legacy record itself.
 *
 * @example
 * ```ts
 * normalizeLegacyPrompt({ name: 'greet', content: 'Say hello' });
 * // { name: 'greet', messages: [{ role: 'assistant', content: { type: 'text', text: 'Say hello' } }] }
 * normalizeLegacyPrompt({ name: 'old', role: 'system', content: 'Be brief' }, { systemRole: 'user' });
 * // { name: 'old', messages: [{ role: 'user', content: { type: 'text', text: 'Be brief' } }] }
 * ```
 */
export function normalizeLegacyPrompt(record: unknown, options: NormalizeLegacyPromptOptions = {}): PromptDefinition {
  const pre: DefinitionProblem[] = [];
  const origins: Origin[] = [];
  let candidate: unknown = record;
  let contentForm = false;
  let emptyChunks = false;

  if (isRecord(record)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (key !== 'content' && key !== 'role' && key !== 'messages') {
        setOwn(out, key, record[key]);
      }
    }
    const messages: unknown[] = [];
    const expand = (content: unknown, role: unknown, origin: Origin): void => {
      if (Array.isArray(content)) {
        if (content.length === 0) {
          emptyChunks = true;
          pre.push({ path: origin.content, message: 'content must not be an empty array' });
        }
        content.forEach((chunk: unknown, j) => {
          messages.push({ role, content: chunk });
          origins.push({ ...origin, content: childPointer(origin.content, j) });
        });
      } else {
        messages.push(content === undefined ? { role } : { role, content });
        origins.push(origin);
      }
    };

    if (ownValue(record, 'content') !== undefined) {
      contentForm = true;
      if (ownValue(record, 'messages') !== undefined) {
        pre.push({ path: '', message: "a legacy prompt has either 'content' or 'messages', not both" });
      }
      expand(record['content'], legacyRole(record), { message: '', role: '/role', content: '/content' });
      out['messages'] = messages;
    } else {
      if (ownValue(record, 'role') !== undefined) {
        pre.push({ path: '/role', message: "a top-level 'role' is only allowed with a legacy 'content'" });
      }
      const given = ownValue(record, 'messages');
      if (Array.isArray(given)) {
        given.forEach((message: unknown, i) => {
          const at = childPointer('/messages', i);
          if (!isRecord(message)) {
            messages.push(message);
            origins.push({ message: at, role: at, content: at });
            return;
          }
          for (const key of Object.keys(message)) {
            if (!LEGACY_MESSAGE_KEYS.includes(key)) {
              pre.push({ path: childPointer(at, key), message: unknownKeyMessage(key, LEGACY_MESSAGE_KEYS) });
            }
          }
          expand(ownValue(message, 'content'), legacyRole(message), {
            message: at,
            role: childPointer(at, 'role'),
            content: childPointer(at, 'content'),
          });
        });
        out['messages'] = messages;
      } else if (given !== undefined) {
        out['messages'] = given;
      }
    }
    candidate = out;
  }

  const remap = (path: string): string => {
    const match = /^\/messages\/(\d+)(\/.*)?$/.exec(path);
    if (match === null) return path === '/messages' && contentForm ? '/content' : path;
    const origin = origins[Number(match[1])];
    if (origin === undefined) return path;
    const rest = match[2] ?? '';
    if (rest === '') return origin.message;
    if (rest === '/role' || rest.startsWith('/role/')) return origin.role + rest.slice('/role'.length);
    if (rest === '/content' || rest.startsWith('/content/')) return origin.content + rest.slice('/content'.length);
    return origin.message + rest;
  };

  const check = checkPromptDefinition(candidate, options.systemRole ?? 'reject');
  // An empty chunk array already explains why no message is left; don't also say "messages must not be empty".
  const parsed = check.problems.filter((p) => !(emptyChunks && p.path === '/messages'));
  const problems = [...pre, ...parsed.map((p) => ({ ...p, path: remap(p.path) }))];
  if (problems.length === 0 && check.definition !== undefined) return check.definition;
  throw createDefinitionError(problems, {
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(check.name === undefined ? {} : { name: check.name }),
    ...(options.locate === undefined ? {} : { locate: options.locate }),
  });
}
