/**
 * Change events of a registry: delivered synchronously, in the order the changes happened, to every listener.
 *
 * @module
 */
import { errorClassName } from '../errors.js';
import type { SafeLogger } from '../logger.js';

/** A change to the registry, delivered synchronously once per add/set/remove call. */
export interface RegistryChangeEvent {
  type: 'add' | 'set' | 'remove';
  /** The names added, replaced or removed by that call. */
  names: string[];
}

/**
 * @internal The listeners of one registry. A listener that changes the registry queues its event behind the one being
 * delivered, so every listener sees the same sequence; a throwing listener is logged and does not affect the others.
 */
export class ChangeEvents {
  readonly #listeners = new Set<(event: RegistryChangeEvent) => void>();
  readonly #pending: RegistryChangeEvent[] = [];
  #emitting = false;
  readonly #log: SafeLogger;

  constructor(log: SafeLogger) {
    this.#log = log;
  }

  /** Subscribes `listener`; returns the unsubscribe function. */
  add(listener: (event: RegistryChangeEvent) => void): () => void {
    const wrapped = (event: RegistryChangeEvent): void => listener(event);
    this.#listeners.add(wrapped);
    return () => {
      this.#listeners.delete(wrapped);
    };
  }

  /** Delivers `event` to every listener, after any event being delivered now. */
  emit(event: RegistryChangeEvent): void {
    this.#pending.push(event);
    if (this.#emitting) return;
    this.#emitting = true;
    try {
      for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
        for (const listener of [...this.#listeners]) {
          try {
            listener(next);
          } catch (error) {
            this.#log.error(
              { event: 'listener_failed', change: next.type, error: errorClassName(error) },
              'registry change listener threw',
            );
          }
        }
      }
    } finally {
      this.#emitting = false;
    }
  }
}
