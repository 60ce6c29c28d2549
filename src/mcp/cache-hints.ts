/**
 * Cache hints of the 2026-07-28 protocol (`ttlMs`, `cacheScope` on prompts/list, resources/list, resources/read,
 * server/discover): the override option, its check, and how the adapters stamp them. The rule that picks the
 * defaults is documented once, in docs/mcp.md ("Cache hints").
 *
 * @module
 */
import { isRecord } from '../json.js';
import { integerOption, shownValue } from '../options.js';
import type { McpAuthInfo } from './request-info.js';

/** Who may keep a cached result: any cache (`public`) or only the client that asked (`private`). */
export type CacheScope = 'public' | 'private';

/**
 * The cache hints an adapter puts on its 2026-07-28 results, overriding the ones it derives (docs/mcp.md, "Cache
 * hints"). Either field may be left out: the derived value stays.
 */
export interface CacheHints {
  /** How long a client may reuse the result, in milliseconds (0 to 86,400,000: clients honour at most a day). */
  ttlMs?: number;
  /** `public` (the default: a listing is the same for every caller) or `private` (per-caller results, auth). */
  cacheScope?: CacheScope;
}

/** The longest TTL accepted: what SDK clients honour at most (24 h). */
export const MAX_CACHE_TTL_MS = 86_400_000;

/** The first protocol revision with cache hints. */

/** @internal Checks a `cacheHints` option of `owner`: a copy with only valid fields, or a RangeError/TypeError. */
export function checkCacheHints(owner: string, value: unknown): CacheHints {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new TypeError(`${owner}: cacheHints must be an object, got ${shownValue(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'ttlMs' && key !== 'cacheScope') {
      throw new TypeError(`${owner}: cacheHints.${key} is not a cache hint (use ttlMs and cacheScope)`);
    }
  }
  const hints: CacheHints = {};
  if (value['ttlMs'] !== undefined) {
    hints.ttlMs = integerOption(owner, 'cacheHints.ttlMs', value['ttlMs'], {
      min: 0,
      max: MAX_CACHE_TTL_MS,
      unit: 'milliseconds',
    });
  }
  const scope = value['cacheScope'];
  if (scope !== undefined) {
    if (scope !== 'public' && scope !== 'private') {
      throw new TypeError(`${owner}: cacheHints.cacheScope must be "public" or "private", got ${shownValue(scope)}`);
    }
    hints.cacheScope = scope;
  }
  return hints;
}

/**
 * @internal The TTL to claim for a listing whose changes are announced at most `announceMs` after they happen: never
 * longer (a client would keep a listing past the announcement of its change), 0 when no bound is known.
 */
export function ttlFor(announceMs: number): number {
  return Number.isFinite(announceMs) && announceMs >= 0 ? Math.min(Math.floor(announceMs), MAX_CACHE_TTL_MS) : 0;
}

/**
 * @internal `result` with the cache fields of one request: the override's fields, else `ttlMs` and `public` — or
 * `private` when the request came with auth info (what an authenticated caller sees must not fill a shared cache).
 */
export function withCacheHints<T extends object>(
  result: T,
  override: CacheHints,
  ttlMs: number,
  authInfo: McpAuthInfo | undefined,
): T & { ttlMs: number; cacheScope: CacheScope } {
  return {
    ...result,
    ttlMs: override.ttlMs ?? ttlMs,
    cacheScope: override.cacheScope ?? (authInfo === undefined ? 'public' : 'private'),
  };
}
