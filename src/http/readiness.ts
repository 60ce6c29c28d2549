/**
 * Readiness from a {@link RegistrySync}'s health: `200` while the replica serves a known-good set, `503` once it is
 * closed or past the lag or degradation its operator tolerates; the body is the health itself, as JSON.
 *
 * @module
 */
import { PromptError, echoed } from '../errors.js';
import { isRecord } from '../json.js';
import { MAX_TIMER_MS, integerOption } from '../options.js';
import type { RegistrySyncHealth } from '../stores/sync.js';
import { transportError } from './core-response.js';

/** What readiness is read from: a {@link RegistrySync} (anything with `health()`). */
export interface HealthSource {
  health(): RegistrySyncHealth;
}

/** Options of {@link createReadinessHandler} and of the HTTP handlers' `readiness`. */
export interface ReadinessOptions {
  /** The sync whose health decides (`await syncRegistry(...)`). */
  sync: HealthSource;
  /** The route, below the handler's base path (default `/readyz`). */
  path?: string;
  /** Not ready once the oldest unapplied change has waited longer than this (default: no bound). */
  maxLagMs?: number;
  /**
   * Not ready once degraded (serving the snapshot, the store unreadable or its change feed down) for longer than this
   * (default: no bound: a degraded replica still serves its last good set, which is what it is for; 0: not ready while
   * degraded at all).
   */
  maxDegradedMs?: number;
}

/** @internal Readiness options checked, defaults filled in. */
export interface ResolvedReadiness {
  sync: HealthSource;
  path: string;
  maxLagMs: number | undefined;
  maxDegradedMs: number | undefined;
}

const PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

/** @internal Checks readiness options of `owner`, throwing at the first bad one. */
export function resolveReadiness(owner: string, options: ReadinessOptions): ResolvedReadiness {
  if (!isRecord(options) || !isRecord(options.sync) || typeof options.sync.health !== 'function')
    throw new TypeError(`${owner}: readiness.sync must be a RegistrySync (an object with health())`);
  const path = options.path ?? '/readyz';
  if (typeof path !== 'string' || !PATH.test(path))
    throw new RangeError(`${owner}: readiness.path must be a path such as /readyz, got ${JSON.stringify(path)}`);
  const bound = (name: string, value: unknown): number | undefined =>
    value === undefined
      ? undefined
      : integerOption(owner, `readiness.${name}`, value, { min: 0, max: MAX_TIMER_MS, unit: 'milliseconds' });
  return {
    sync: options.sync,
    path,
    maxLagMs: bound('maxLagMs', options.maxLagMs),
    maxDegradedMs: bound('maxDegradedMs', options.maxDegradedMs),
  };
}

/** @internal The answer of a readiness request: 200 or 503, the health and `ready` as JSON, never cached. */
export function readinessAnswer(readiness: ResolvedReadiness): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  let health: RegistrySyncHealth | undefined;
  try {
    health = readiness.sync.health();
  } catch {
    health = undefined;
  }
  const now = Date.now();
  const reasons: string[] = [];
  if (health === undefined) reasons.push('health unavailable');
  else {
    if (health.status === 'closed') reasons.push('sync closed');
    if (readiness.maxLagMs !== undefined && health.lagMs > readiness.maxLagMs)
      reasons.push(`lag ${health.lagMs} ms exceeds ${readiness.maxLagMs} ms`);
    if (
      readiness.maxDegradedMs !== undefined &&
      health.degradedSince !== null &&
      now - health.degradedSince >= readiness.maxDegradedMs
    )
      reasons.push(`degraded for more than ${readiness.maxDegradedMs} ms`);
  }
  const ready = reasons.length === 0;
  return {
    status: ready ? 200 : 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify({ ready, ...(ready ? {} : { reasons }), ...health }),
  };
}

/**
 * A fetch handler answering readiness probes from a sync's health, for servers that do not use the HTTP handlers of
 * this package (they take the same options as `readiness`): `GET` or `HEAD` gives 200 `{"ready":true,...}` or 503
 * `{"ready":false,"reasons":[...],...}` with the health (`status`, `source`, `listening`, `lagMs`, `degradedSince`,
 * ...); other methods 405.
 *
 * @example
 * ```ts
 * import { createMemoryPromptStore, syncRegistry } from 'mcp-prompt-kit';
 * import { createReadinessHandler } from 'mcp-prompt-kit/http';
 *
 * const sync = await syncRegistry(createMemoryPromptStore(), registry);
 * const readyz = createReadinessHandler({ sync, maxDegradedMs: 300_000 });
 * const response = await readyz(new Request('http://localhost/readyz'));
 * ```
 */
export function createReadinessHandler(options: ReadinessOptions): (request: Request) => Promise<Response> {
  const readiness = resolveReadiness('createReadinessHandler', options);
  return async (request) => {
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      const refusal = transportError(
        new PromptError('METHOD_NOT_ALLOWED', `Method not allowed: ${echoed(method)}; allowed: GET, HEAD`),
      );
      return new Response(refusal.body, {
        status: refusal.status,
        headers: { ...refusal.headers, allow: 'GET, HEAD' },
      });
    }
    const answer = readinessAnswer(readiness);
    return new Response(method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
  };
}
