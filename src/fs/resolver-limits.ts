/** The limits of the file resource resolver: their defaults, and reading them from its options. */
import { integerOption } from '../options.js';
import { DEFAULT_MAX_WALKED } from './scan.js';

/** @internal The resolver's limits when its options leave them out. */
export const DEFAULT_RESOLVER_LIMITS = Object.freeze({
  maxDocumentBytes: 1_048_576,
  maxTotalBytes: 1_048_576,
  maxMatches: 50,
  maxListed: 10_000,
  maxWalked: DEFAULT_MAX_WALKED,
  maxCacheBytes: 32 * 1_048_576,
  indexTtlMs: 2_000,
});

type LimitName = keyof typeof DEFAULT_RESOLVER_LIMITS;

/** @internal The resolver's limits: each one given (checked: a positive integer, 0 too for `indexTtlMs`) or its default. */
export function resolverLimits(options: Partial<Record<LimitName, number>>): Record<LimitName, number> {
  const out = { ...DEFAULT_RESOLVER_LIMITS } as Record<LimitName, number>;
  for (const key of Object.keys(out) as LimitName[]) {
    out[key] = integerOption('createFileResourceResolver', key, options[key], {
      min: key === 'indexTtlMs' ? 0 : 1,
      default: DEFAULT_RESOLVER_LIMITS[key],
    });
  }
  return out;
}
