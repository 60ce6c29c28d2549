/**
 * Recently parsed argument and message lists, reused when a new definition's lists are equal: a registry of
 * 10,000 prompts of one shape parses, and holds, one list. A list is reused only when reading it again could not
 * give anything else (same own keys, same values; object-valued defaults, `items` and `_meta` are never compared).
 *
 * @module
 * @internal
 */
import { isRecord } from '../json.js';
import type { PromptArgumentDefinition, PromptMessageTemplate } from './types.js';

/** How many distinct lists of each kind are remembered (most recent first). */
const REMEMBERED = 8;
/** Message lists with more text than this are not remembered (a replaced prompt's big texts are not kept alive). */
const MAX_REMEMBERED_TEXT = 65_536;
/** Argument lists with more enum values than this are not remembered either. */
const MAX_REMEMBERED_CHOICES = 4_096;

/** A parsed argument and its keys (a raw one must have exactly these, with the same values). */
interface KnownArgument {
  readonly parsed: PromptArgumentDefinition;
  readonly keys: readonly string[];
}

interface KnownArguments {
  readonly list: readonly PromptArgumentDefinition[];
  readonly items: readonly KnownArgument[];
}

function sameEnum(raw: unknown, parsed: readonly unknown[]): boolean {
  if (!Array.isArray(raw) || raw.length !== parsed.length) return false;
  for (let i = 0; i < raw.length; i++) if (!Object.is(raw[i], parsed[i])) return false;
  return true;
}

/** Every enumerable own key of `raw` is one of `keys` (an unknown key, or one set to undefined, is for the parser). */
function onlyKeys(raw: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const key in raw) if (Object.hasOwn(raw, key) && !keys.includes(key)) return false;
  return true;
}

function sameArgument(raw: unknown, known: KnownArgument): boolean {
  if (!isRecord(raw)) return false;
  const parsed = known.parsed as unknown as Record<string, unknown>;
  const keys = known.keys;
  let count = 0;
  for (const key in raw) {
    if (!Object.hasOwn(raw, key)) continue;
    // An unknown key, or a known one set to undefined, is for the parser to judge.
    if (!keys.includes(key)) return false;
    const value = raw[key];
    if (key === 'enum' ? !sameEnum(value, parsed[key] as readonly unknown[]) : !Object.is(value, parsed[key]))
      return false;
    count++;
  }
  // The parser also reads non-enumerable own keys: there must be none.
  return count === keys.length && Object.getOwnPropertyNames(raw).length === count;
}

function sameMessage(raw: unknown, parsed: PromptMessageTemplate): boolean {
  if (!isRecord(raw) || !Object.hasOwn(raw, 'role') || !Object.hasOwn(raw, 'content') || raw['role'] !== parsed.role)
    return false;
  if (!onlyKeys(raw, MESSAGE_KEYS)) return false;
  const content = raw['content'];
  const text = (parsed.content as { text?: unknown }).text;
  if (typeof content === 'string') return content === text;
  if (!isRecord(content) || content['type'] !== 'text' || content['text'] !== text || !onlyKeys(content, TEXT_KEYS))
    return false;
  return Object.hasOwn(content, 'type') && Object.hasOwn(content, 'text');
}

const MESSAGE_KEYS: readonly string[] = ['role', 'content'];
const TEXT_KEYS: readonly string[] = ['type', 'text'];

/** Whether a parsed message can be recognised again: text content without `_meta`. */
function reusableMessage(message: PromptMessageTemplate): boolean {
  const content = message.content as unknown as Record<string, unknown>;
  return content['type'] === 'text' && content['_meta'] === undefined;
}

/** @internal The lists one registry parsed recently, for {@link checkPromptDefinition}. */
export class ParsedLists {
  readonly #arguments: KnownArguments[] = [];
  readonly #messages: (readonly PromptMessageTemplate[])[] = [];

  /** An equal argument list parsed before, if any. */
  arguments(raw: unknown): readonly PromptArgumentDefinition[] | undefined {
    if (!Array.isArray(raw)) return undefined;
    outer: for (const known of this.#arguments) {
      if (known.items.length !== raw.length) continue;
      for (let i = 0; i < raw.length; i++) if (!sameArgument(raw[i], known.items[i]!)) continue outer;
      return known.list;
    }
    return undefined;
  }

  /**
   * Remembers a freshly parsed argument list (unless it holds object values, which are not compared, or huge enums).
   */
  rememberArguments(list: readonly PromptArgumentDefinition[]): void {
    const items: KnownArgument[] = [];
    let choices = 0;
    for (const parsed of list) {
      const record = parsed as unknown as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.some((key) => key !== 'enum' && typeof record[key] === 'object' && record[key] !== null)) return;
      if ((choices += parsed.enum?.length ?? 0) > MAX_REMEMBERED_CHOICES) return;
      items.push({ parsed, keys });
    }
    remember(this.#arguments, { list, items });
  }

  /** An equal message list parsed before, if any. */
  messages(raw: unknown): readonly PromptMessageTemplate[] | undefined {
    if (!Array.isArray(raw)) return undefined;
    outer: for (const known of this.#messages) {
      if (known.length !== raw.length) continue;
      for (let i = 0; i < raw.length; i++) if (!sameMessage(raw[i], known[i]!)) continue outer;
      return known;
    }
    return undefined;
  }

  /** Remembers a freshly parsed message list (text content without `_meta` only, up to 64 Ki characters). */
  rememberMessages(list: readonly PromptMessageTemplate[]): void {
    let text = 0;
    for (const message of list) {
      if (!reusableMessage(message)) return;
      text += (message.content as { text: string }).text.length;
    }
    if (text <= MAX_REMEMBERED_TEXT) remember(this.#messages, list);
  }
}

function remember<T>(recent: T[], entry: T): void {
  recent.unshift(entry);
  if (recent.length > REMEMBERED) recent.pop();
}
