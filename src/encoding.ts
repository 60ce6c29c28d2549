/**
 * Runtime-neutral encoding helpers (no `node:buffer`): base64 and base64url for bytes and UTF-8 text, well-formed
 * UTF-16.
 *
 * @module
 * @internal
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = /* @__PURE__ */ (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  table['-'.charCodeAt(0)] = 62;
  table['_'.charCodeAt(0)] = 63;
  return table;
})();

/** Encodes bytes as standard base64 (with padding). */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[(v >> 18) & 63]! + ALPHABET[(v >> 12) & 63]! + ALPHABET[(v >> 6) & 63]! + ALPHABET[v & 63]!;
  }
  if (i < n) {
    const rest = n - i;
    const v = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out += ALPHABET[(v >> 18) & 63]! + ALPHABET[(v >> 12) & 63]!;
    out += rest === 2 ? `${ALPHABET[(v >> 6) & 63]!}=` : '==';
  }
  return out;
}

/** Decodes standard or url-safe base64 (padding optional); returns undefined on any invalid character. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  if (end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

/**
 * Whether `text` is canonical standard base64: alphabet `A-Z a-z 0-9 + /`, length a multiple of 4, `=` padding only at
 * the end, no whitespace (what both MCP SDKs' clients accept).
 */
export function isBase64(text: string): boolean {
  const n = text.length;
  if (n % 4 !== 0) return false;
  let end = n;
  if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (end > 0 && end === n - 1 && text.charCodeAt(end - 1) === 61) end--;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    // Standard alphabet only: the url-safe '-' and '_' share the decode table but are not base64 here.
    if (c >= 128 || DECODE[c]! < 0 || c === 45 || c === 95) return false;
  }
  return true;
}

/**
 * The decoded byte size of base64 text without decoding it; ASCII whitespace (line breaks of wrapped base64) and
 * padding do not count.
 */
export function base64DecodedSize(text: string): number {
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 61 && c !== 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) chars++;
  }
  return Math.floor((chars * 3) / 4);
}

/** Encodes UTF-8 text as unpadded base64url. */
export function textToBase64Url(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes unpadded base64url into UTF-8 text; undefined when it is not valid base64url or not valid UTF-8. */
export function base64UrlToText(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = base64ToBytes(text);
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A copy of `text` that holds no reference to a larger string it was cut from: engines keep a slice's source alive,
 * so a kept cut of a huge remote string would keep all of it.
 */
export function detachedCopy(text: string): string {
  return ` ${text}`.slice(1);
}

interface WellFormedString {
  isWellFormed?(): boolean;
  toWellFormed?(): string;
}

/** A lone surrogate: with the `u` flag a pair is one code point, which is not `Cs`. */
const LONE_SURROGATE = /\p{Cs}/gu;

/** Whether `text` is well-formed UTF-16 (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  const s = text as unknown as WellFormedString;
  return typeof s.isWellFormed === 'function' ? s.isWellFormed() : text.search(LONE_SURROGATE) < 0;
}

/** `text` with every lone surrogate replaced by U+FFFD, so the JSON on the wire is well-formed UTF-16/UTF-8. */
export function wellFormed(text: string): string {
  const s = text as unknown as WellFormedString;
  if (typeof s.isWellFormed === 'function') return s.isWellFormed() ? text : s.toWellFormed!();
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** C0 and C1 controls, DEL, and the Unicode line separators and bidirectional overrides a terminal acts on. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED_CONTROLS: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` safe to print on a terminal or a log line: every control character (escape sequences, line breaks, bidi
 * overrides) is written as a visible escape (`\n`, `\x1b`, `\u202e`). For file names and anything else read from
 * disk or a client before it reaches output.
 */
export function escapeControlCharacters(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => {
    const named = NAMED_CONTROLS[c];
    if (named !== undefined) return named;
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
