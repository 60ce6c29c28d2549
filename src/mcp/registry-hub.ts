/**
 * One change listener per registry, shared by every server attached to it. A registry often outlives its servers
 * (one per request over stateless HTTP): the hub holds them only weakly, and drops the ones collected as it goes, so
 * that attaching costs a Set entry rather than a listener, a closure and a finalizer per server.
 *
 * @module
 * @internal
 */
import type { PromptRegistry } from '../registry/registry.js';

/** @internal What the hub tells of a change. */
export interface ChangeTarget {
  onRegistryChange(): void;
}

/** Below this many entries the hub never sweeps; above, it sweeps when its size doubles since the last sweep. */
const MIN_SWEEP = 64;

class RegistryHub {
  readonly #targets = new Set<WeakRef<ChangeTarget>>();
  #sweepAt = MIN_SWEEP;

  constructor(registry: PromptRegistry) {
    // The registry holds the hub; the hub holds its targets only weakly.
    registry.onChange(() => this.#changed());
  }

  add(ref: WeakRef<ChangeTarget>): void {
    this.#targets.add(ref);
    if (this.#targets.size < this.#sweepAt) return;
    this.#sweep();
    this.#sweepAt = Math.max(MIN_SWEEP, 2 * this.#targets.size);
  }

  delete(ref: WeakRef<ChangeTarget>): void {
    this.#targets.delete(ref);
  }

  get size(): number {
    return this.#targets.size;
  }

  #sweep(): void {
    for (const ref of this.#targets) if (ref.deref() === undefined) this.#targets.delete(ref);
  }

  #changed(): void {
    for (const ref of [...this.#targets]) {
      const target = ref.deref();
      if (target === undefined) this.#targets.delete(ref);
      else target.onRegistryChange();
    }
  }
}

const hubs = new WeakMap<PromptRegistry, RegistryHub>();

/**
 * @internal Tells `target` of every change of `registry` while `target` is reachable from elsewhere; returns the
 * function that stops it. Amortised O(1): collected targets are swept when the hub has doubled since its last sweep.
 */
export function followRegistry(registry: PromptRegistry, target: ChangeTarget): () => void {
  let hub = hubs.get(registry);
  if (hub === undefined) {
    hub = new RegistryHub(registry);
    hubs.set(registry, hub);
  }
  const ref = new WeakRef(target);
  hub.add(ref);
  const joined = hub;
  return () => joined.delete(ref);
}

/** @internal How many targets the hub of `registry` holds, collected ones not yet swept included (for tests). */
export function followerCount(registry: PromptRegistry): number {
  return hubs.get(registry)?.size ?? 0;
}
