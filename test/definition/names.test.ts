import { describe, expect, it } from 'vitest';
import { validateArgumentName, validatePromptName } from '../../src/definition/index.js';
import { ARGUMENT_NAME_PATTERN, PROMPT_NAME_PATTERN } from '../../src/definition/names.js';

const CONFORMANCE_NAMES = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
];

describe('validatePromptName', () => {
  it('accepts snake_case names used by the MCP conformance suite (test_simple_prompt)', () => {
    for (const name of CONFORMANCE_NAMES) expect(validatePromptName(name)).toBeUndefined();
  });

  it('accepts kebab-case, mixed, dotted and digit-leading names up to 128 characters', () => {
    for (const name of ['review-code-against-patterns', 'review_code-v2', 'team.review', '2fa-help', '_x', 'A'.repeat(128)]) {
      expect(validatePromptName(name), name).toBeUndefined();
    }
  });

  it("rejects names with '/', '..', whitespace, control characters, or more than 128 characters", () => {
    expect(validatePromptName('a/b')).toBe("prompt name must not contain '/'");
    expect(validatePromptName('../etc/passwd')).toBe("prompt name must not contain '/'");
    expect(validatePromptName('a\\b')).toBe("prompt name must not contain '\\'");
    expect(validatePromptName('a..b')).toBe("prompt name must not contain '..'");
    expect(validatePromptName('review code')).toBe('prompt name must not contain whitespace');
    expect(validatePromptName('review\tcode')).toBe('prompt name must not contain control characters');
    expect(validatePromptName('review\u00a0code')).toBe('prompt name must not contain whitespace');
    expect(validatePromptName('a\u0000')).toBe('prompt name must not contain control characters');
    expect(validatePromptName('a\u009b')).toBe('prompt name must not contain control characters');
    expect(validatePromptName('a'.repeat(129))).toBe('prompt name must be at most 128 characters (got 129)');
  });

  it('rejects empty and non-string names', () => {
    expect(validatePromptName('')).toBe('prompt name must not be empty');
    expect(validatePromptName(undefined)).toBe('prompt name must be a string (got undefined)');
    expect(validatePromptName(42)).toBe('prompt name must be a string (got a number)');
    expect(validatePromptName(null)).toBe('prompt name must be a string (got null)');
  });

  it("rejects characters outside ASCII letters, digits, '-', '_' and '.', and a leading '-' or '.'", () => {
    expect(validatePromptName('révision')).toBe(
      "prompt name may contain only ASCII letters, digits, '-', '_' and '.' (found 'é')",
    );
    expect(validatePromptName('a:b')).toMatch(/found ':'/);
    expect(validatePromptName('-rf')).toBe("prompt name must start with a letter, a digit or '_'");
    expect(validatePromptName('.hidden')).toBe("prompt name must start with a letter, a digit or '_'");
  });

  it('agrees with PROMPT_NAME_PATTERN (the JSON Schema rule) on every sample', () => {
    const pattern = new RegExp(PROMPT_NAME_PATTERN, 'u');
    const samples = [...CONFORMANCE_NAMES, 'a', 'a.b', 'a..b', 'a/b', 'a b', '-a', '.a', '_a', 'a-', 'a.', 'é', 'a\u0001', 'x'.repeat(128)];
    for (const name of samples) expect(validatePromptName(name) === undefined, name).toBe(pattern.test(name));
  });
});

describe('validateArgumentName', () => {
  it('accepts names without whitespace or control characters, non-ASCII included', () => {
    for (const name of ['code', 'file-path', 'user.name', 'arg1', 'código', '名前', '😀'.repeat(128)]) {
      expect(validateArgumentName(name), name).toBeUndefined();
    }
  });

  it('rejects empty names, whitespace, control characters and more than 128 code points', () => {
    expect(validateArgumentName('')).toBe('argument name must not be empty');
    expect(validateArgumentName('my arg')).toBe('argument name must not contain whitespace');
    expect(validateArgumentName('a\nb')).toBe('argument name must not contain control characters');
    expect(validateArgumentName('a'.repeat(129))).toBe('argument name must be at most 128 characters (got 129)');
    expect(validateArgumentName(1)).toBe('argument name must be a string (got a number)');
  });

  it("rejects '__proto__', 'constructor' and 'prototype'", () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      expect(validateArgumentName(name)).toBe(`argument name '${name}' is reserved`);
    }
  });

  it('agrees with ARGUMENT_NAME_PATTERN (the JSON Schema rule) on names of allowed length', () => {
    const pattern = new RegExp(ARGUMENT_NAME_PATTERN, 'u');
    for (const name of ['code', 'a b', 'a\tb', 'a\u007fb', 'código', 'a\u2028b', '']) {
      expect(validateArgumentName(name) === undefined, JSON.stringify(name)).toBe(pattern.test(name));
    }
  });
});
