/** The one check of numeric options: what each range accepts, what it refuses, and the message that says why. */
import { describe, expect, it } from 'vitest';
import { DELAY_MS, MAX_TIMER_MS, TIMEOUT_MS, describeRange, integerOption, isInRange } from '../../src/options.js';
import type { OptionRange } from '../../src/options.js';
import { PromptError } from '../../src/errors.js';

const POSITIVE: OptionRange = { min: 1 };
const COUNT: OptionRange = { min: 0 };
const PAGE: OptionRange = { min: 1, max: 10_000 };

describe('integerOption', () => {
  it.each([
    ['a positive integer', POSITIVE, 1, 1],
    ['the largest safe integer, with no max', POSITIVE, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['0 where 0 is the min', COUNT, 0, 0],
    ['-0 where 0 is the min, as 0', COUNT, -0, 0],
    ['the min edge', PAGE, 1, 1],
    ['the max edge', PAGE, 10_000, 10_000],
    ['the longest timer', TIMEOUT_MS, MAX_TIMER_MS, MAX_TIMER_MS],
    ['a fraction where fractions are allowed', DELAY_MS, 2.5, 2.5],
    ['a zero delay', DELAY_MS, 0, 0],
  ])('accepts %s', (_what, range, value, expected) => {
    const got = integerOption('owner', 'size', value, range);
    expect(Object.is(got, expected)).toBe(true);
  });

  it.each([
    ['undefined, as the default', { min: 1, default: 7 }, 7],
    ['undefined, as a default outside the range (the caller owns it)', { min: 1, max: 2, default: 100 }, 100],
  ])('returns %s', (_what, range, expected) => {
    expect(integerOption('owner', 'size', undefined, range)).toBe(expected);
  });

  it.each([
    ['NaN', POSITIVE, Number.NaN, 'a positive integer', 'NaN'],
    ['Infinity', POSITIVE, Number.POSITIVE_INFINITY, 'a positive integer', 'Infinity'],
    ['-Infinity', COUNT, Number.NEGATIVE_INFINITY, 'a non-negative integer', '-Infinity'],
    [
      'Infinity where fractions are allowed',
      DELAY_MS,
      Number.POSITIVE_INFINITY,
      `a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
      'Infinity',
    ],
    ['-0 where 1 is the min', POSITIVE, -0, 'a positive integer', '-0'],
    ['0 where 1 is the min', POSITIVE, 0, 'a positive integer', '0'],
    ['a fraction', POSITIVE, 1.5, 'a positive integer', '1.5'],
    ['a fraction in a bounded range', PAGE, 1.5, 'an integer from 1 to 10000', '1.5'],
    ['one below the min', PAGE, 0, 'an integer from 1 to 10000', '0'],
    ['one above the max', PAGE, 10_001, 'an integer from 1 to 10000', '10001'],
    ['a negative number', COUNT, -1, 'a non-negative integer', '-1'],
    ['an integer past the safe range', POSITIVE, 2 ** 53, 'a positive integer', '9007199254740992'],
    [
      'a timer longer than setTimeout honours',
      TIMEOUT_MS,
      MAX_TIMER_MS + 1,
      `an integer of milliseconds from 1 to ${MAX_TIMER_MS}`,
      '2147483648',
    ],
    [
      'a delay longer than setTimeout honours',
      DELAY_MS,
      MAX_TIMER_MS + 0.5,
      `a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
      '2147483647.5',
    ],
    ['a negative delay', DELAY_MS, -0.5, `a number of milliseconds from 0 to ${MAX_TIMER_MS}`, '-0.5'],
    ['a numeric string', POSITIVE, '5', 'a positive integer', '"5"'],
    ['an empty string', POSITIVE, '', 'a positive integer', '""'],
    ['a bigint', POSITIVE, 5n, 'a positive integer', '5n'],
    ['a boolean', POSITIVE, true, 'a positive integer', 'true'],
    ['null', { min: 1, default: 3 }, null, 'a positive integer', 'null'],
    ['undefined without a default', POSITIVE, undefined, 'a positive integer', 'undefined'],
    ['an object', POSITIVE, { valueOf: () => 5 }, 'a positive integer', 'an object'],
    ['an array', POSITIVE, [5], 'a positive integer', 'an array'],
    ['a Number object', POSITIVE, Object(5), 'a positive integer', 'an object'],
    ['a number at least some other min', { min: 1000 }, 999, 'an integer of at least 1000', '999'],
  ])(
    'refuses %s with a RangeError naming owner, option, range and value',
    (_what, range, value, requirement, shown) => {
      expect(() => integerOption('createThing', 'limits.size', value, range)).toThrow(
        new RangeError(`createThing: limits.size must be ${requirement}, got ${shown}`),
      );
    },
  );

  it('cuts a long string it shows (the message stays small whatever the value)', () => {
    let message = '';
    try {
      integerOption('createThing', 'size', 'x'.repeat(100_000), POSITIVE);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith('createThing: size must be a positive integer, got "xxx')).toBe(true);
    expect(message.length).toBeLessThan(400);
  });

  it('throws the error the caller makes of the message, keeping its class and code', () => {
    const fail = (message: string): Error => new PromptError('INVALID_PROMPT_DEFINITION', message);
    let thrown: unknown;
    try {
      integerOption('', 'options.maxDepth', -1, { min: 0, default: 64 }, fail);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PromptError);
    expect((thrown as PromptError).code).toBe('INVALID_PROMPT_DEFINITION');
    expect((thrown as PromptError).message).toBe('options.maxDepth must be a non-negative integer, got -1');
  });

  it('never calls valueOf or toString of what it refuses', () => {
    let calls = 0;
    const sly = { valueOf: () => ++calls, toString: () => String(++calls) };
    expect(() => integerOption('createThing', 'size', sly, POSITIVE)).toThrow(RangeError);
    expect(calls).toBe(0);
  });
});

describe('describeRange', () => {
  it.each([
    [POSITIVE, 'a positive integer'],
    [COUNT, 'a non-negative integer'],
    [{ min: 0, max: Number.POSITIVE_INFINITY }, 'a non-negative integer'],
    [PAGE, 'an integer from 1 to 10000'],
    [{ min: 5 }, 'an integer of at least 5'],
    [{ min: 1, unit: 'milliseconds' }, 'a positive integer of milliseconds'],
    [TIMEOUT_MS, `an integer of milliseconds from 1 to ${MAX_TIMER_MS}`],
    [DELAY_MS, `a number of milliseconds from 0 to ${MAX_TIMER_MS}`],
    [{ min: 0, fractions: true }, 'a non-negative number'],
    [{ min: 2, fractions: true }, 'a number of at least 2'],
  ])('words %j as %s', (range, text) => {
    expect(describeRange(range)).toBe(text);
  });
});

describe('isInRange', () => {
  it('agrees with integerOption on every value of the tables above', () => {
    const values: unknown[] = [
      0,
      -0,
      1,
      1.5,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      MAX_TIMER_MS + 1,
      '5',
      5n,
      null,
      undefined,
    ];
    for (const range of [POSITIVE, COUNT, PAGE, TIMEOUT_MS, DELAY_MS]) {
      for (const value of values) {
        let accepted = true;
        try {
          integerOption('o', 'n', value, range);
        } catch {
          accepted = false;
        }
        expect(isInRange(value, range)).toBe(accepted);
      }
    }
  });
});
