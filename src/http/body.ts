/**
 * Reading a request body within a byte limit (413 as soon as it is passed), a time limit (408) and the server budget.
 */
import { PromptError } from '../errors.js';
import type { BodyLease } from './budget.js';

/**
 * @internal A request body as a transport has it: raw bytes, or what a framework's body parser already made of them
 * (Express's `req.body`: a Buffer from `express.raw()`, a string from `express.text()`, a value from `express.json()`).
 */
export type RequestBody = { bytes: Uint8Array } | { text: string } | { value: unknown };

/** @internal Chunks of a body, refused (413) as soon as they pass `limit` bytes; each byte is held in `lease`. */
export class BodyBuffer {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(
    readonly limit: number,
    readonly lease: BodyLease,
  ) {}

  push(chunk: Uint8Array): void {
    const size = this.#size + chunk.byteLength;
    if (size > this.limit) throw bodyTooLarge(this.limit);
    this.lease.hold(size);
    this.#size = size;
    this.#chunks.push(chunk);
  }

  /** The body: the one chunk as it is, or every chunk copied once into one array (the chunks are dropped). */
  bytes(): Uint8Array {
    const chunks = this.#chunks.splice(0);
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

/** @internal Collects chunks from `next()` until it returns undefined; `cancel()` runs when a limit stops it. */
export async function collectBody(
  next: () => Promise<Uint8Array | undefined>,
  cancel: () => void,
  limit: number,
  timeoutMs: number,
  lease: BodyLease,
): Promise<Uint8Array> {
  const buffer = new BodyBuffer(limit, lease);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut()), timeoutMs);
  });
  try {
    for (
      let chunk = await Promise.race([next(), timeout]);
      chunk !== undefined;
      chunk = await Promise.race([next(), timeout])
    ) {
      buffer.push(chunk);
    }
  } catch (error) {
    cancel();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return buffer.bytes();
}

/** @internal 408 for a body that did not arrive in time. */
export function bodyTimedOut(): PromptError {
  return new PromptError('REQUEST_TIMEOUT', 'Request body timed out');
}

/** @internal 413 for a body over `limit` bytes. */
export function bodyTooLarge(limit: number): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `Request body exceeds ${limit} bytes`);
}

/** @internal 413 at once when a declared Content-Length is already over the limit. */
export function checkDeclaredLength(header: string | null | undefined, limit: number): void {
  const declared = Number(header ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(limit);
}
