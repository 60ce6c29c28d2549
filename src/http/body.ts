/** Reading a request body within a byte limit (413 as soon as it is passed) and a time limit (408). */
import { PromptError } from '../errors.js';

/** @internal Collects chunks from `next()` until it returns undefined; `cancel()` runs when a limit stops it. */
export async function collectBody(
  next: () => Promise<Uint8Array | undefined>,
  cancel: () => void,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PromptError('REQUEST_TIMEOUT', 'Request body timed out')), timeoutMs);
  });
  try {
    for (let chunk = await Promise.race([next(), timeout]); chunk !== undefined; chunk = await Promise.race([next(), timeout])) {
      size += chunk.byteLength;
      if (size > limit) throw bodyTooLarge(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    cancel();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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
