/** Remote names as the model reads them: a plain identifier as it is, anything else as a JSON string. */
import { echoed } from '../errors.js';
import { quoteJsonWithin } from '../json.js';

/** Longest prompt name shown (as written, quotes and escapes included); longer ones are counted, not shown. */
export const MAX_SHOWN_NAME = 200;

/** A plain identifier is shown as it is; any other name as a JSON string. */
const PLAIN_NAME = /^[A-Za-z0-9_.:/@-]+$/;

/**
 * How a remote name is written in the description and in messages: as it is, or a JSON string; undefined if longer than
 * `max`.
 */
export function shownName(name: string, max = MAX_SHOWN_NAME): string | undefined {
  if (name.length <= max && PLAIN_NAME.test(name)) return name;
  const { quoted, kept } = quoteJsonWithin(name.length > max ? name.slice(0, max) : name, max);
  return kept === name.length ? quoted : undefined;
}

/** How many names (available prompts, missing arguments) a message lists. */
const MAX_NAMES = 20;

/** A name in a message: `'plain_name'`, or a JSON string when it has anything else; cut after 128 characters. */
export function quoted(name: string): string {
  const cut = echoed(name);
  const head = name.slice(0, 128);
  return shownName(head) === head ? `'${cut}'` : quoteJsonWithin(cut, 1000).quoted;
}

/** The first {@link MAX_NAMES} names, each as {@link quoted} without the quotes of plain names, with `…` for more. */
export function namesList(names: readonly string[]): string {
  return (
    names
      .slice(0, MAX_NAMES)
      .map((n) => {
        const q = quoted(n);
        return q.startsWith("'") ? q.slice(1, -1) : q;
      })
      .join(', ') + (names.length > MAX_NAMES ? ', …' : '')
  );
}
