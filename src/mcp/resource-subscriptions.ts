/**
 * `resources/subscribe` and `resources/unsubscribe` for {@link attachResources}: the URIs one connection (or session)
 * subscribed to, and `notifications/resources/updated` for those among the URIs its owner reports changed (on the
 * 2026-07-28 era, for all of them: the SDK's `subscriptions/listen` router filters).
 *
 * @module
 */
import { JsonRpcError, PromptError } from '../errors.js';
import { isClientInitialized, speaksModernEra } from './server-shape.js';
import type { LowLevelServer } from './server-shape.js';

/** How many URIs one connection may subscribe to at once: the next one is refused (-32602). */
export const MAX_SUBSCRIPTIONS = 1000;
/** How many characters the URIs one connection subscribed to may add up to (256 Ki): the memory a connection holds. */
export const MAX_SUBSCRIBED_CHARACTERS = 256 * 1024;

/** @internal The subscriptions of one attached server. */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();
  #characters = 0;

  constructor(private readonly low: LowLevelServer) {}

  get size(): number {
    return this.#uris.size;
  }

  /**
   * Adds `uri` (already known to be readable); -32602 LIMIT_EXCEEDED past {@link MAX_SUBSCRIPTIONS} URIs or
   * {@link MAX_SUBSCRIBED_CHARACTERS} characters.
   */
  add(uri: string): void {
    if (this.#uris.has(uri)) return;
    const refuse = (what: string): never => {
      throw JsonRpcError.from(
        new PromptError(
          'LIMIT_EXCEEDED',
          `resources/subscribe: ${what} (the limit for one connection); unsubscribe first`,
        ),
      );
    };
    if (this.#uris.size >= MAX_SUBSCRIPTIONS) refuse(`this connection already has ${MAX_SUBSCRIPTIONS} subscriptions`);
    if (this.#characters + uri.length > MAX_SUBSCRIBED_CHARACTERS)
      refuse(`the subscribed URIs would exceed ${MAX_SUBSCRIBED_CHARACTERS} characters`);
    this.#uris.add(uri);
    this.#characters += uri.length;
  }

  /** Removes `uri` (unsubscribing from a URI not subscribed to is not an error, as in the spec's examples). */
  delete(uri: string): void {
    if (this.#uris.delete(uri)) this.#characters -= uri.length;
  }

  /**
   * Sends `notifications/resources/updated` for each of `uris` subscribed to; returns how many were sent. On a
   * 2026-07-28 connection every URI goes out: the SDK delivers each only to the `subscriptions/listen` streams whose
   * `resourceSubscriptions` name it, and drops the rest.
   */
  updated(uris: readonly string[]): number {
    const low = this.low as unknown as { sendResourceUpdated?: (params: { uri: string }) => Promise<void> | void };
    if (typeof low.sendResourceUpdated !== 'function' || this.low.transport === undefined) return 0;
    if (!isClientInitialized(this.low)) return 0;
    const everyUri = speaksModernEra(this.low);
    let sent = 0;
    for (const uri of new Set(uris)) {
      if (!everyUri && !this.#uris.has(uri)) continue;
      sent++;
      try {
        void Promise.resolve(low.sendResourceUpdated.call(this.low, { uri })).catch(() => undefined);
      } catch {
        /* a closed transport: nothing to notify */
      }
    }
    return sent;
  }

  clear(): void {
    this.#uris.clear();
    this.#characters = 0;
  }
}
