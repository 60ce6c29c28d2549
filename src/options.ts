/**
 * The one check of numeric options (limits, sizes, timeouts): an integer (or, where fractions mean something, a
 * finite number) within a range, else an error naming the function, the option, the range and the value received.
 *
 * @module
 * @internal
 */
import { echoed } from './errors.js';
import { describeType } from './json.js';

/** The longest delay `setTimeout` honours (a longer one fires at once, after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The values a numeric option accepts. */
export interface OptionRange {
  /** The smallest value accepted. */
  readonly min: number;
  /** The largest value accepted (default `Number.MAX_SAFE_INTEGER`; a range without one reads as open-ended). */
  readonly max?: number;
  /** What an absent (`undefined`) option stands for; without one, `undefined` is refused. */
  readonly default?: number;
  /** Named in the message: `an integer of milliseconds from 1 to 2147483647`. */
  readonly unit?: string;
  /** Accept any finite number in range, not only integers (a delay of 2.5 ms). */
  readonly fractions?: boolean;
}

/** A timeout handed to `setTimeout`: whole milliseconds from 1 to {@link MAX_TIMER_MS}. */
export const TIMEOUT_MS: OptionRange = Object.freeze({ min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' });

/** A delay handed to `setTimeout` (a debounce, a batch window, a poll interval): 0 to {@link MAX_TIMER_MS} ms. */
export const DELAY_MS: OptionRange = Object.freeze({
  min: 0,
  max: MAX_TIMER_MS,
  unit: 'milliseconds',
  fractions: true,
});

/** Makes the error to throw from the message (a `RangeError` unless the caller keeps another kind). */
export type OptionError = (message: string) => Error;

const rangeError: OptionError = (message) => new RangeError(message);

/** Whether `value` is a number `range` accepts (`-0` counts as 0). */
export function isInRange(value: unknown, range: OptionRange): value is number {
  if (typeof value !== 'number') return false;
  const whole = range.fractions === true ? Number.isFinite(value) : Number.isInteger(value);
  return whole && value >= range.min && value <= (range.max ?? Number.MAX_SAFE_INTEGER);
}

/**
 * What an accepted value is, for messages: `a positive integer`, `an integer from 1 to 10000`, `a number of
 * milliseconds from 0 to 2147483647`.
 */
export function describeRange(range: OptionRange): string {
  const kind = range.fractions === true ? 'number' : 'integer';
  const unit = range.unit === undefined ? '' : ` of ${range.unit}`;
  const { min, max } = range;
  if (max !== undefined && Number.isFinite(max))
    return `${kind === 'integer' ? 'an' : 'a'} ${kind}${unit} from ${min} to ${max}`;
  if (min === 1 && kind === 'integer') return `a positive integer${unit}`;
  if (min === 0) return `a non-negative ${kind}${unit}`;
  return `${kind === 'integer' ? 'an' : 'a'} ${kind}${unit} of at least ${min}`;
}

/** A received value as a message shows it: numbers as written (`-0`, `NaN`), strings quoted and cut, others by type. */
export function shownValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${String(value)}n`;
    case 'string':
      return JSON.stringify(echoed(value));
    case 'boolean':
      return String(value);
    default:
      return describeType(value);
  }
}

/**
 * The value of a numeric option: `range.default` when absent, else `value` itself when `range` accepts it (`-0` as
 * 0); anything else throws `error(message)` (a RangeError by default) with the message
 * `owner: name must be <range>, got <value>` (`name` alone when `owner` is empty).
 */
export function integerOption(
  owner: string,
  name: string,
  value: unknown,
  range: OptionRange,
  error: OptionError = rangeError,
): number {
  if (value === undefined && range.default !== undefined) return range.default;
  if (isInRange(value, range)) return value === 0 ? 0 : value;
  const option = owner === '' ? name : `${owner}: ${name}`;
  throw error(`${option} must be ${describeRange(range)}, got ${shownValue(value)}`);
}
