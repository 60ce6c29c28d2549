/**
 * Exact decimal arithmetic on JSON numbers: `multipleOf` decided on decimals (README: Argument validation).
 *
 * @module
 * @internal
 */

/** `x` as `[m, e]` with x = m × 10^e, from its shortest decimal form (`String(x)`, exponent forms included). */
function decimalOf(x: number): [bigint, number] {
  let text = String(x);
  let exponent = 0;
  const e = text.indexOf('e');
  if (e >= 0) {
    exponent = Number(text.slice(e + 1));
    text = text.slice(0, e);
  }
  const dot = text.indexOf('.');
  if (dot >= 0) {
    exponent -= text.length - dot - 1;
    text = text.slice(0, dot) + text.slice(dot + 1);
  }
  return [BigInt(text), exponent];
}

/** Whether `value` is an integer multiple of `step` (> 0) in decimal: 0.3 of 0.1 yes, 1.0000000001 of 1 no. */
export function isDecimalMultiple(value: number, step: number): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(step)) return value % step === 0;
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  const [mv, ev] = decimalOf(value);
  const [ms, es] = decimalOf(step);
  if (mv === 0n) return true;
  return ev >= es ? (mv * 10n ** BigInt(ev - es)) % ms === 0n : mv % (ms * 10n ** BigInt(es - ev)) === 0n;
}
