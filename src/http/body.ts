/** Reading a request body within a byte limit (413 as soon as it is passed) and a time limit (408). */
import { PromptError } from '../errors.js';

/** @internal Chunks of a body, refused (413) as soon as they pass `limit` bytes. */
export class BodyBuffer {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  push(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#size > this.limit) throw bodyTooLarge(this.limit);
    this.#chunks.push(chunk);
  }

  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0]!;
    const out = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of this.#chunks) {
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
): Promise<Uint8Array> {
  const buffer = new BodyBuffer(limit);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut()), timeoutMs);
  });
  try {
    for (let chunk = await Promise.race([next(), timeout]); chunk !== undefined; chunk = await Promise.race([next(), timeout])) {
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
