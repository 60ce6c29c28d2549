import { describe, expect, it } from 'vitest';
import { parseJsonSource } from '../../src/fs/json-source.js';

const error = (text: string) => {
  const parsed = parseJsonSource(text);
  if ('value' in parsed) throw new Error('expected a syntax error');
  return `${parsed.line}:${parsed.column}: ${parsed.message}`;
};

describe('parseJsonSource', () => {
  it('places syntax errors at the offending character', () => {
    expect(error('{"a": 1,,}')).toBe("1:9: invalid JSON: expected a property name in double quotes, got ','");
    expect(error('{\n  "a": "x\n}')).toBe(
      '2:10: invalid JSON: unescaped control character in a string (write \\n, \\t, ...)',
    );
    expect(error('{"a": "\\q"}')).toBe("1:8: invalid JSON: invalid escape '\\q' in a string");
    expect(error('{"a": tru}')).toBe("1:7: invalid JSON: unexpected 't': expected a value");
    expect(error('[1 2]')).toBe("1:4: invalid JSON: expected ',' or ']' after an array item, got '2'");
    expect(error('{"a": 1} x')).toBe('1:10: invalid JSON: unexpected text after the JSON value');
    expect(error('{"a": "open')).toBe('1:7: invalid JSON: unterminated string');
    expect(error('{"a": -}')).toBe('1:7: invalid JSON: invalid number');
    expect(error(`${'['.repeat(600)}`)).toBe('1:514: invalid JSON: nesting deeper than 512 levels');
  });

  it('locates every member key and array item by its JSON pointer, escapes included', () => {
    const parsed = parseJsonSource('{\n  "a/b": {\n    "c~d": [10,\n      {"e": "\\u00e9"}]\n  }\n}');
    if (!('value' in parsed)) throw new Error(parsed.message);
    expect(parsed.value).toEqual({ 'a/b': { 'c~d': [10, { e: 'é' }] } });
    expect(parsed.locate('')).toEqual({ line: 1, column: 1 });
    expect(parsed.locate('/a~1b')).toEqual({ line: 2, column: 3 });
    expect(parsed.locate('/a~1b/c~0d')).toEqual({ line: 3, column: 5 });
    expect(parsed.locate('/a~1b/c~0d/1/e')).toEqual({ line: 4, column: 8 });
    expect(parsed.locate('/nope')).toBeUndefined();
  });

  it('parses deeply nested valid JSON and still locates what it can', () => {
    const parsed = parseJsonSource(`{"name": 1, "deep": ${'['.repeat(2_000)}${']'.repeat(2_000)}}`);
    if (!('value' in parsed)) throw new Error(parsed.message);
    expect(parsed.locate('/name')).toEqual({ line: 1, column: 2 });
    expect(parsed.locate(`/deep${'/0'.repeat(1_000)}`)).toBeUndefined();
  });
});
