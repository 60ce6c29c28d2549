/**
 * An in-memory {@link ResourceResolver}: a map from URI to text (or `{mimeType?, text? | blob?}`), with glob listing.
 *
 * @module
 */
import { PromptError } from '../errors.js';
import type { ResourceContents, ResourceResolver } from '../resources.js';
import { compileResourcePattern } from './pattern.js';

/** What a memory resolver holds per URI: the text, or contents without the URI. */
export type MemoryResourceInput = string | Omit<ResourceContents, 'uri'>;

/** An in-memory resolver: `read`, `list` (globs) and mutation. */
export interface MemoryResourceResolver extends ResourceResolver {
  read(uri: string): ResourceContents | undefined;
  list(pattern: string): ResourceContents[];
  /** Adds or replaces a resource. */
  set(uri: string, contents: MemoryResourceInput): void;
  /** Removes a resource; whether it was there. */
  delete(uri: string): boolean;
  /** Number of resources held. */
  readonly size: number;
}

interface Stored {
  mimeType?: string;
  text?: string;
  blob?: string;
}

function toStored(uri: string, input: MemoryResourceInput): Stored {
  if (typeof input === 'string') return { text: input };
  const ok =
    input !== null &&
    typeof input === 'object' &&
    (typeof input.text === 'string') !== (typeof input.blob === 'string') &&
    (input.mimeType === undefined || typeof input.mimeType === 'string');
  if (!ok) {
    throw new PromptError('INTERNAL_ERROR', `Invalid resource '${uri}': give exactly one of text or blob (strings)`);
  }
  const stored: Stored = {};
  if (input.mimeType !== undefined) stored.mimeType = input.mimeType;
  if (input.text !== undefined) stored.text = input.text;
  else stored.blob = input.blob as string;
  return stored;
}

function toContents(uri: string, stored: Stored): ResourceContents {
  return { uri, ...stored };
}

/**
 * Creates an in-memory resource resolver. `read(uri)` returns a copy of the resource or `undefined`; `list(pattern)`
 * returns every resource whose URI matches the glob (see {@link matchResourcePattern}), sorted by URI in code-unit
 * order.
 *
 * @example
 * ```ts
 * const resources = createMemoryResourceResolver({
 *   'architecture://adr/001': '# ADR 001: Use PostgreSQL',
 *   'architecture://patterns/cqrs': { mimeType: 'text/markdown', text: '# CQRS' },
 * });
 * resources.list('architecture://patterns/*'); // [{ uri: 'architecture://patterns/cqrs', mimeType: ..., text: ... }]
 * ```
 */
export function createMemoryResourceResolver(
  resources: Readonly<Record<string, MemoryResourceInput>> | readonly ResourceContents[] = {},
): MemoryResourceResolver {
  const store = new Map<string, Stored>();
  let sorted: string[] | undefined;
  if (Array.isArray(resources)) {
    for (const { uri, ...rest } of resources as readonly ResourceContents[]) store.set(uri, toStored(uri, rest));
  } else {
    for (const [uri, input] of Object.entries(resources as Readonly<Record<string, MemoryResourceInput>>)) {
      store.set(uri, toStored(uri, input));
    }
  }
  return {
    read(uri) {
      const stored = store.get(uri);
      return stored === undefined ? undefined : toContents(uri, stored);
    },
    list(pattern) {
      sorted ??= [...store.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const match = compileResourcePattern(pattern);
      const out: ResourceContents[] = [];
      for (const uri of sorted) if (match(uri)) out.push(toContents(uri, store.get(uri) as Stored));
      return out;
    },
    set(uri, contents) {
      const stored = toStored(uri, contents);
      if (!store.has(uri)) sorted = undefined;
      store.set(uri, stored);
    },
    delete(uri) {
      const had = store.delete(uri);
      if (had) sorted = undefined;
      return had;
    },
    get size() {
      return store.size;
    },
  };
}
