/** Waiting for a state in tests: poll until it holds, with a limit that only a broken build reaches. */

/** How long a test waits for an event it expects: only a broken build reaches it, never a busy machine. */
export const EVENT_WAIT_MS = 30_000;

/** Resolves once `check()` is true (polling every 5 ms), or rejects after `timeoutMs` naming `what` was awaited. */
export async function waitFor(check: () => boolean, timeoutMs = EVENT_WAIT_MS, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
