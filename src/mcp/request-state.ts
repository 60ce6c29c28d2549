/**
 * The `requestState` of a prompts/get that asked for arguments: which arguments the form asked, signed with an HMAC
 * (SHA-256, Web Crypto) under a per-server random key and bound to the prompt's name. It comes back as client input,
 * so nothing in it is trusted before the MAC checks out.
 *
 * Format: `mpk1.<base64url JSON {"a": [names]}>.<base64url MAC>`, the MAC over a label, the prompt name and the
 * payload text.
 *
 * @module
 * @internal
 */
import { base64ToBytes, base64UrlToText, bytesToBase64, textToBase64Url } from '../encoding.js';
import { PromptError } from '../errors.js';

/** Characters a requestState may have: a form asks at most 32 names of at most 128 characters. */
export const MAX_REQUEST_STATE_CHARS = 32_768;
/** Bytes of a caller's secret, at least. */
export const MIN_SECRET_BYTES = 32;
const PREFIX = 'mpk1';
const LABEL = 'mcp-prompt-kit/prompts-get-arguments\n';
const MAX_ASKED = 1_000;

function invalidState(reason: string): PromptError {
  return new PromptError('INVALID_PARAMS', `Invalid requestState: ${reason}`, {
    data: { reason: 'invalid_request_state' },
  });
}

function subtle(): SubtleCrypto {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (crypto?.subtle === undefined)
    throw new Error('mcp-prompt-kit: asking for arguments needs Web Crypto (crypto.subtle)');
  return crypto.subtle;
}

function toBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;

/** Signs and checks the requestState of one server (or of every server sharing its secret). */
export class RequestStateSigner {
  readonly #key: Promise<CryptoKey>;

  /** A random key, or one derived from `secret` (at least 32 bytes) so that several servers accept each other's. */
  constructor(secret?: Uint8Array) {
    if (secret === undefined) {
      this.#key = subtle().generateKey(HMAC, false, ['sign', 'verify']) as Promise<CryptoKey>;
    } else {
      if (!(secret instanceof Uint8Array) || secret.byteLength < MIN_SECRET_BYTES) {
        throw new TypeError(`elicitation.secret must be a Uint8Array of at least ${MIN_SECRET_BYTES} bytes`);
      }
      this.#key = subtle().importKey('raw', secret.slice(), HMAC, false, ['sign', 'verify']);
    }
    // An unhandled rejection would surface before the first use; the first use reports it.
    this.#key.catch(() => {});
  }

  /** The requestState of a form for `prompt` asking `asked`. */
  async sign(prompt: string, asked: readonly string[]): Promise<string> {
    const payload = textToBase64Url(JSON.stringify({ a: asked }));
    const mac = new Uint8Array(await subtle().sign('HMAC', await this.#key, this.#signed(prompt, payload)));
    return `${PREFIX}.${payload}.${toBase64Url(mac)}`;
  }

  /** The names a requestState for `prompt` asked; -32602 (`data.reason: 'invalid_request_state'`) otherwise. */
  async verify(prompt: string, state: unknown): Promise<string[]> {
    if (typeof state !== 'string') throw invalidState('must be a string');
    if (state.length > MAX_REQUEST_STATE_CHARS) {
      throw invalidState(`longer than ${MAX_REQUEST_STATE_CHARS} characters, not issued by this server`);
    }
    const parts = state.split('.');
    const mac = parts.length === 3 && parts[0] === PREFIX ? base64ToBytes(parts[2]!) : undefined;
    if (mac === undefined || !/^[A-Za-z0-9_-]*$/.test(parts[2]!)) throw invalidState('not issued by this server');
    const payload = parts[1]!;
    const valid = await subtle().verify('HMAC', await this.#key, new Uint8Array(mac), this.#signed(prompt, payload));
    if (!valid) throw invalidState(`not issued by this server for this prompt`);
    const asked = readPayload(base64UrlToText(payload));
    if (asked === undefined) throw invalidState('not issued by this server');
    return asked;
  }

  #signed(prompt: string, payload: string): Uint8Array<ArrayBuffer> {
    return new TextEncoder().encode(`${LABEL}${prompt}\n${payload}`);
  }
}

function readPayload(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const asked = (parsed as { a?: unknown } | null)?.a;
  if (!Array.isArray(asked) || asked.length > MAX_ASKED || !asked.every((n) => typeof n === 'string')) return undefined;
  return asked as string[];
}
