import { describe, expect, it } from 'vitest';
import { oneLine, quoteJsonWithin } from '../../src/json.js';

/** Characters that hide, reorder or break text. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\p{Cs}/u;

/** Deterministic text mixing plain, escaped, hidden, astral and lone-surrogate characters. */
function mixedText(variant: number, length: number): string {
  const alphabet = [
    'a',
    'é',
    '"',
    '\\',
    '\n',
    '\u0001',
    '\u202e',
    '\u2028',
    '\u0085',
    '😀',
    '\ud800',
    '\udc00',
    '\ufeff',
    ' ',
  ];
  let x = variant;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[x % alphabet.length]!;
  }
  return out;
}

describe('quoteJsonWithin', () => {
  it('writes a JSON literal of at most maxLength characters that parses back to the kept prefix, nothing hidden', () => {
    for (let variant = 1; variant <= 200; variant++) {
      const text = mixedText(variant, variant % 50);
      for (const max of [2, 3, 7, 8, 13, 40, 400]) {
        const { quoted, kept } = quoteJsonWithin(text, max);
        expect(quoted.length).toBeLessThanOrEqual(max);
        expect(quoted).not.toMatch(HIDDEN);
        expect(JSON.parse(quoted)).toBe(text.slice(0, kept));
        // Never cut inside a surrogate pair.
        expect(/[\ud800-\udbff]$/.test(text.slice(0, kept)) && /^[\udc00-\udfff]/.test(text.slice(kept))).toBe(false);
        if (kept < text.length)
          expect(
            quoteJsonWithin(text.slice(0, kept + (text.codePointAt(kept)! > 0xffff ? 2 : 1)), max).kept,
          ).toBeLessThan(kept + 1);
      }
    }
  });

  it('keeps everything when it fits, and nothing when not even the quotes do', () => {
    expect(quoteJsonWithin('plain', 100)).toEqual({ quoted: '"plain"', kept: 5 });
    expect(quoteJsonWithin('plain', 1)).toEqual({ quoted: '', kept: 0 });
    expect(quoteJsonWithin('plain', 2)).toEqual({ quoted: '""', kept: 0 });
  });

  it('does work bounded by maxLength, not by the length of the text', () => {
    const huge = 'x'.repeat(50_000_000);
    expect(quoteJsonWithin(huge, 12)).toEqual({ quoted: '"xxxxxxxxxx"', kept: 10 });
  });
});

describe('oneLine', () => {
  it('escapes what hides or breaks a line and keeps quotes, backslashes and other text as they are', () => {
    expect(oneLine('a "b" \\ c\nd\u202ee\u0085f😀')).toBe('a "b" \\ c\\nd\\u202ee\\u0085f😀');
    expect(oneLine('plain')).toBe('plain');
    for (let variant = 1; variant <= 100; variant++) expect(oneLine(mixedText(variant, 40))).not.toMatch(HIDDEN);
  });
});
