/** A retrieved prompt as the tool's result: JSON text, its size and the work to write it bounded. */
import { echoed } from '../errors.js';
import { isRecord, quoteJsonWithin } from '../json.js';
import { describeContentWithin } from '../response.js';
import { quoted as quotedName } from './names.js';
import { RetrievalError } from './failure.js';

/** The bounds of one result. */
export interface ResultLimits {
  /** Longest result, in characters (UTF-16 units) of the JSON text. */
  readonly maxResultLength: number;
  /** Most messages read from the integration's answer. */
  readonly maxMessages: number;
}

/** Longest prompt name echoed, in characters of its JSON literal (the name is the one asked for). */
const MAX_NAME = 300;
/** Longest prompt description kept, in characters of its JSON literal (at most a quarter of the result). */
const MAX_DESCRIPTION = 2000;
/** Room kept for the closing of the messages array and the `truncated` object (numbers of up to 16 digits). */
const TAIL_RESERVE = 240;
/** The longest head of a message in the array. */
const LONGEST_HEAD = ',{"role":"assistant","content":';
/** A message is left out rather than written with less room than this for its content. */
const MIN_CONTENT = 16;

/**
 * The integration's answer as `{"prompt", "description"?, "messages": [{"role", "content", "droppedCharacters"?}],
 * "truncated"?}`: roles only `user` or `assistant` (anything else is refused), each content one JSON string (text as
 * it is, other blocks described: `[image image/png, 12 KB]`), at most `maxMessages` messages and `maxResultLength`
 * characters in all. A cut content carries `droppedCharacters`; `truncated` says what was left out. Messages past the
 * limits are never read.
 */
export function formatRetrievedPrompt(
  result: unknown,
  promptName: string,
  limits: ResultLimits,
): { text: string; messageCount: number } {
  if (!isRecord(result) || !Array.isArray(result['messages'])) {
    throw new RetrievalError('the integration answered with something that is not a prompt', 'INVALID_RESULT');
  }
  const max = limits.maxResultLength;
  const messages: readonly unknown[] = result['messages'];
  const total = messages.length;
  if (!Number.isSafeInteger(total))
    throw new RetrievalError('the integration answered with something that is not a prompt', 'INVALID_RESULT');
  let out = `{"prompt":${quoteJsonWithin(echoed(promptName), MAX_NAME).quoted}`;
  let descriptionDropped = 0;
  const description = result['description'];
  if (typeof description === 'string' && description !== '') {
    const room = Math.min(MAX_DESCRIPTION, Math.floor(max / 4));
    const { quoted, kept } = quoteJsonWithin(
      description.length > room ? description.slice(0, room) : description,
      room,
    );
    out += `,"description":${quoted}`;
    descriptionDropped = description.length - kept;
  }
  out += ',"messages":[';
  const readable = Math.min(total, limits.maxMessages);
  let written = 0;
  let cut = false;
  for (; written < readable; written++) {
    // Room for this message's content: what is left after its head, a droppedCharacters field and the tail.
    const room =
      max - TAIL_RESERVE - out.length - LONGEST_HEAD.length - ',"droppedCharacters":0000000000000000}'.length;
    if (room < MIN_CONTENT) break; // no room: the message is not even read
    const message = messages[written];
    const role = isRecord(message) ? message['role'] : undefined;
    if (role !== 'user' && role !== 'assistant') {
      const shown = typeof role === 'string' ? `role ${quotedName(role)}` : 'no role';
      throw new RetrievalError(
        `the integration answered with a message ${written + 1} that has ${shown} (only user and assistant)`,
        'INVALID_RESULT',
      );
    }
    const head = `${written > 0 ? ',' : ''}{"role":"${role}","content":`;
    const content = describeContentWithin((message as Record<string, unknown>)['content'], room);
    const { quoted, kept } = quoteJsonWithin(content.text, room);
    const dropped = content.length - kept;
    out += `${head}${quoted}${dropped > 0 ? `,"droppedCharacters":${dropped}` : ''}}`;
    if (dropped > 0) cut = true;
  }
  out += ']';
  const omitted = total - written;
  if (cut || omitted > 0 || descriptionDropped > 0) {
    out += `,"truncated":{"maxResultLength":${max},"maxMessages":${limits.maxMessages},"messageCount":${total},"omittedMessages":${omitted}`;
    if (descriptionDropped > 0) out += `,"descriptionDroppedCharacters":${descriptionDropped}`;
    out += '}';
  }
  return { text: `${out}}`, messageCount: total };
}
