/**
 * String length in code points, and the hot-path "too long" check that only walks strings that could exceed.
 *
 * @module
 * @internal
 */

/**
 * Number of Unicode code points in `text` (a surrogate pair counts once; a lone surrogate counts once), the way
 * JSON Schema's `maxLength` counts.
 *
 * @example
 * ```ts
 * codePointLength('a😀'); // 2 (3 UTF-16 units)
 * ```
 */
export function codePointLength(text: string): number {
  const units = text.length;
  let count = units;
  for (let i = 0; i < units - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/**
 * Whether `text` has more than `limit` code points. Never walks a string whose UTF-16 length is within the limit
 * (it cannot exceed it in code points), nor one longer than twice the limit (it must exceed it).
 *
 * @example
 * ```ts
 * exceedsLimit('😀'.repeat(6000), 10_000); // false: 12,000 UTF-16 units but 6,000 code points
 * ```
 */
export function exceedsLimit(text: string, limit: number): boolean {
  const units = text.length;
  if (units <= limit) return false;
  if (units > limit * 2) return true;
  return codePointLength(text) > limit;
}
