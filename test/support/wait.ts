/** Waiting for a state in tests: poll until it holds, with a limit that only a broken build reaches. */

/** Resolves once `check()` is true (polling every 5 ms), or rejects after `timeoutMs` naming `what` was awaited. */
export async function waitFor(check: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
