/**
 * The logger interface (pino-style: structured object first, message second). Silent by default.
 * The library never logs argument values (they may be secrets): only names, sizes, codes and durations.
 *
 * @module
 */

/** A structured log function: `(fields, message)`. */
export type LogFn = (fields: Record<string, unknown>, message: string) => void;

/** A pino-compatible logger; every level is optional. */
export interface Logger {
  debug?: LogFn;
  info?: LogFn;
  warn?: LogFn;
  error?: LogFn;
}

/** @internal A logger whose levels are all callable (missing ones do nothing). */
export interface SafeLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const noop: LogFn = () => {};

/** @internal Binds the optional levels of a user logger; a throwing logger never breaks a request. */
export function toSafeLogger(logger: Logger | undefined): SafeLogger {
  const bind = (fn: LogFn | undefined): LogFn => {
    if (typeof fn !== 'function' || logger === undefined) return noop;
    return (fields, message) => {
      try {
        fn.call(logger, fields, message);
      } catch {
        /* a broken logger must not break the host */
      }
    };
  };
  return {
    debug: bind(logger?.debug),
    info: bind(logger?.info),
    warn: bind(logger?.warn),
    error: bind(logger?.error),
  };
}
