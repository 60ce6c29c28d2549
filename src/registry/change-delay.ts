/**
 * How long a change at a registry's source (a watched directory, a synced store) may take to reach the registry:
 * what feeds a registry declares it, and an adapter adds its own announcement delay to bound the cache hints it
 * gives (docs/mcp.md, "Cache hints").
 *
 * @module
 * @internal
 */

/** Delays declared per registry, one entry per feeder (kept weakly: a dropped registry takes its entries along). */
const declared = new WeakMap<object, Map<symbol, number>>();

/**
 * @internal Declares that changes at one source reach `registry` at most `ms` milliseconds after they happen
 * (`Infinity`: no bound is known). Returns the function that withdraws the declaration (when the feeder stops).
 */
export function declareChangeDelay(registry: object, ms: number): () => void {
  let entries = declared.get(registry);
  if (entries === undefined) {
    entries = new Map();
    declared.set(registry, entries);
  }
  const key = Symbol('feeder');
  entries.set(key, Number.isNaN(ms) || ms < 0 ? Infinity : ms);
  return () => {
    entries.delete(key);
  };
}

/** @internal The longest delay declared for `registry` (0 when nothing feeds it; `Infinity` when unbounded). */
export function changeDelayOf(registry: object): number {
  const entries = declared.get(registry);
  if (entries === undefined) return 0;
  let longest = 0;
  for (const ms of entries.values()) if (ms > longest) longest = ms;
  return longest;
}
