/**
 * A LISTEN session that survives lost connections: reconnects with exponential backoff and reports each recovery, so
 * that readers reload everything they might have missed.
 *
 * @module
 */
import { errorClassName } from '../../errors.js';
import type { SafeLogger } from '../../logger.js';
import { sqlState } from './client.js';
import type { PgListenerClient } from './types.js';

/** What a log entry says about a failure: its class and, for a server error, its SQLSTATE (never its message). */
function failureFields(error: unknown): Record<string, unknown> {
  const state = sqlState(error);
  return state === undefined ? { error: errorClassName(error) } : { error: errorClassName(error), sqlState: state };
}

/** Settles as `promise` does, or rejects once `ms` pass first (`late` then gets what `promise` resolves to). */
function within<T>(promise: Promise<T>, ms: number, what: string, late?: (value: T) => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`${what} unanswered for ${ms} ms`));
    }, ms);
    (timer as { unref?: () => void }).unref?.();
  });
  promise.then(
    (value) => {
      if (timedOut) late?.(value);
    },
    () => undefined,
  );
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

/** @internal Options of {@link startListener}. */
export interface ListenerOptions {
  connect: () => Promise<PgListenerClient>;
  channel: string;
  onPayload: (payload: string | undefined) => void;
  /** Listening again after a loss: changes may have been missed. */
  onRecovered: () => void;
  log: SafeLogger;
  /**
   * A `SELECT 1` on the session this often notices a connection that died silently; connecting and LISTEN that take
   * longer count as a lost connection too.
   */
  heartbeatMs: number;
  retryMinMs: number;
  retryMaxMs: number;
}

/** @internal A running listener. */
export interface Listener {
  /** Resolves once the first attempt to listen has finished, whatever its outcome. */
  readonly started: Promise<void>;
  /** Whether the session is connected and has run LISTEN (false while a lost connection is re-established). */
  readonly listening: boolean;
  stop(): Promise<void>;
}

/** @internal Starts listening on `channel`, reconnecting until stopped. */
export function startListener(options: ListenerOptions): Listener {
  let stopped = false;
  let client: PgListenerClient | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryMs = options.retryMinMs;
  let lostOnce = false;
  let listening = false;

  const dispose = async (target: PgListenerClient): Promise<void> => {
    try {
      if (typeof target.release === 'function') target.release(true);
      else await target.end?.();
    } catch {
      /* already gone */
    }
  };

  const lost = (target: PgListenerClient, error: unknown): void => {
    if (client !== target) return;
    client = undefined;
    listening = false;
    if (heartbeat !== undefined) clearInterval(heartbeat);
    heartbeat = undefined;
    void dispose(target);
    if (stopped) return;
    lostOnce = true;
    options.log.warn(
      { event: 'prompt_listener_lost', channel: options.channel, ...failureFields(error), retryMs },
      'prompt change listener lost its connection; reconnecting',
    );
    scheduleRetry();
  };

  const scheduleRetry = (): void => {
    const delay = retryMs;
    retryMs = Math.min(retryMs * 2, options.retryMaxMs);
    retry = setTimeout(() => {
      retry = undefined;
      void attempt();
    }, delay);
    (retry as { unref?: () => void }).unref?.();
  };

  const attempt = async (): Promise<void> => {
    let next: PgListenerClient;
    try {
      // A server that stops answering while we connect: give up after a heartbeat, and close a session that comes late.
      next = await within(options.connect(), options.heartbeatMs, 'connecting', (late) => void dispose(late));
    } catch (error) {
      if (stopped) return;
      lostOnce = true;
      options.log.warn(
        { event: 'prompt_listener_connect_failed', channel: options.channel, ...failureFields(error), retryMs },
        'prompt change listener cannot connect; retrying',
      );
      scheduleRetry();
      return;
    }
    // Heard from the start: a client disposed because stop() came first may still report its closing socket.
    next.on('error', (error) => lost(next, error));
    if (stopped) {
      await dispose(next);
      return;
    }
    client = next;
    next.on('end', () => lost(next, new Error('connection ended')));
    next.on('notification', (message) => {
      if (client === next && message.channel === options.channel) options.onPayload(message.payload);
    });
    try {
      // A session that went silent before it listens never answers: given up after a heartbeat, as a listening one.
      await within(next.query(`LISTEN "${options.channel}"`), options.heartbeatMs, 'LISTEN');
    } catch (error) {
      lost(next, error);
      return;
    }
    if (client !== next) return;
    listening = true;
    retryMs = options.retryMinMs;
    let unanswered = false;
    heartbeat = setInterval(() => {
      // A connection that died without a word (a frozen server, a dropped route) never answers: one missed beat is
      // enough, rather than queueing a query per beat on a session that is gone.
      if (unanswered) {
        lost(next, new Error(`heartbeat unanswered for ${options.heartbeatMs} ms`));
        return;
      }
      unanswered = true;
      next.query('SELECT 1').then(
        () => {
          unanswered = false;
        },
        (error: unknown) => lost(next, error),
      );
    }, options.heartbeatMs);
    (heartbeat as { unref?: () => void }).unref?.();
    if (lostOnce) {
      options.log.info(
        { event: 'prompt_listener_recovered', channel: options.channel },
        'prompt change listener reconnected; reloading',
      );
      options.onRecovered();
    }
  };

  const started = attempt();
  return {
    started,
    get listening() {
      return listening;
    },
    async stop() {
      stopped = true;
      listening = false;
      if (retry !== undefined) clearTimeout(retry);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      const current = client;
      client = undefined;
      if (current !== undefined) await dispose(current);
    },
  };
}
