/**
 * Opaque, tamper-evident pagination cursors for `prompts/list`.
 *
 * A cursor names the last prompt of the previous page (so it stays valid under concurrent add/remove: the next page
 * starts at the first name after it, and a surviving prompt is never skipped or repeated) and carries a keyed
 * checksum with a per-registry secret, so a cursor edited by hand or issued by another registry is rejected.
 * The checksum is tamper-evidence, not cryptographic authentication: cursors carry no secrets.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';
import { base64UrlToText, textToBase64Url } from '../encoding.js';

const VERSION = 1;

/** 53-bit keyed string hash (cyrb53 variant). */
function keyedHash(text: string, k1: number, k2: number): string {
  let h1 = 0xdeadbeef ^ k1;
  let h2 = 0x41c6ce57 ^ k2;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function randomKey(): [number, number] {
  const buf = new Uint32Array(2);
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(buf);
  else {
    buf[0] = (Math.random() * 0x100000000) >>> 0;
    buf[1] = (Math.random() * 0x100000000) >>> 0;
  }
  return [buf[0]!, buf[1]!];
}

/** Issues and reads the cursors of one registry. */
export class CursorCodec {
  readonly #k1: number;
  readonly #k2: number;

  constructor() {
    [this.#k1, this.#k2] = randomKey();
  }

  /** A cursor that resumes after `lastName`. */
  encode(lastName: string): string {
    const payload = `${VERSION}:${lastName}`;
    return `${textToBase64Url(payload)}.${keyedHash(payload, this.#k1, this.#k2)}`;
  }

  /** The name a cursor resumes after; throws INVALID_CURSOR for anything this codec did not issue. */
  decode(cursor: string): string {
    const dot = cursor.lastIndexOf('.');
    const payload = dot > 0 && cursor.length <= 1024 ? base64UrlToText(cursor.slice(0, dot)) : undefined;
    if (
      payload === undefined ||
      keyedHash(payload, this.#k1, this.#k2) !== cursor.slice(dot + 1) ||
      !payload.startsWith(`${VERSION}:`)
    ) {
      throw new PromptError('INVALID_CURSOR', 'Invalid cursor');
    }
    return payload.slice(String(VERSION).length + 1);
  }
}
