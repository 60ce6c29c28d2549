/**
 * The one "is this a plain JSON object?" check (not null, not an array) used across the library.
 *
 * @module
 * @internal
 */

/**
 * Whether `value` is an object that is neither null nor an array.
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
