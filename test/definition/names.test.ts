import { describe, expect, it } from 'vitest';
import { argumentNameProblem, promptNameProblem } from '../../src/definition/index.js';
import { ARGUMENT_NAME_PATTERN, PROMPT_NAME_PATTERN } from '../../src/definition/names.js';
import type { InvalidDefinitionData } from '../../src/definition/types.js';
import { FunctionRegistry, defineFunction } from '../../src/functions/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { thrownBy } from '../support/errors.js';

const CONFORMANCE_NAMES = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
];

describe('promptNameProblem', () => {
  it('accepts snake_case names used by the MCP conformance suite (test_simple_prompt)', () => {
    for (const name of CONFORMANCE_NAMES) expect(promptNameProblem(name)).toBeUndefined();
  });

  it('accepts kebab-case, mixed, dotted and digit-leading names up to 128 characters', () => {
    for (const name of [
      'review-code-against-patterns',
      'review_code-v2',
      'team.review',
      '2fa-help',
      '_x',
      'A'.repeat(128),
    ]) {
      expect(promptNameProblem(name), name).toBeUndefined();
    }
  });

  it("rejects names with '/', '..', whitespace, control characters, or more than 128 characters", () => {
    expect(promptNameProblem('a/b')).toBe("prompt name must not contain '/'");
    expect(promptNameProblem('../etc/passwd')).toBe("prompt name must not contain '/'");
    expect(promptNameProblem('a\\b')).toBe("prompt name must not contain '\\'");
    expect(promptNameProblem('a..b')).toBe("prompt name must not contain '..'");
    expect(promptNameProblem('review code')).toBe('prompt name must not contain whitespace');
    expect(promptNameProblem('review\tcode')).toBe('prompt name must not contain control characters');
    expect(promptNameProblem('review\u00a0code')).toBe('prompt name must not contain whitespace');
    expect(promptNameProblem('a\u0000')).toBe('prompt name must not contain control characters');
    expect(promptNameProblem('a\u009b')).toBe('prompt name must not contain control characters');
    expect(promptNameProblem('a'.repeat(129))).toBe('prompt name must be at most 128 characters (got 129)');
  });

  it('rejects empty and non-string names', () => {
    expect(promptNameProblem('')).toBe('prompt name must not be empty');
    expect(promptNameProblem(undefined)).toBe('prompt name must be a string (got undefined)');
    expect(promptNameProblem(42)).toBe('prompt name must be a string (got a number)');
    expect(promptNameProblem(null)).toBe('prompt name must be a string (got null)');
  });

  it("rejects characters outside ASCII letters, digits, '-', '_' and '.', and a leading '-' or '.'", () => {
    expect(promptNameProblem('révision')).toBe(
      "prompt name may contain only ASCII letters, digits, '-', '_' and '.' (found 'é')",
    );
    expect(promptNameProblem('a:b')).toMatch(/found ':'/);
    expect(promptNameProblem('-rf')).toBe("prompt name must start with a letter, a digit or '_'");
    expect(promptNameProblem('.hidden')).toBe("prompt name must start with a letter, a digit or '_'");
  });

  it('agrees with PROMPT_NAME_PATTERN (the JSON Schema rule) on every sample', () => {
    const pattern = new RegExp(PROMPT_NAME_PATTERN, 'u');
    const samples = [
      ...CONFORMANCE_NAMES,
      'a',
      'a.b',
      'a..b',
      'a/b',
      'a b',
      '-a',
      '.a',
      '_a',
      'a-',
      'a.',
      'é',
      'a\u0001',
      'x'.repeat(128),
    ];
    for (const name of samples) expect(promptNameProblem(name) === undefined, name).toBe(pattern.test(name));
  });
});

describe('argumentNameProblem', () => {
  it('accepts names without whitespace or control characters, non-ASCII included', () => {
    for (const name of [
      'code',
      'file-path',
      'user_name',
      'arg1',
      'código',
      '名前',
      '#x',
      'resources',
      '😀'.repeat(128),
    ]) {
      expect(argumentNameProblem(name), name).toBeUndefined();
    }
  });

  it('rejects names no template could reach: a dot (a path), braces, the resource: prefix', () => {
    expect(argumentNameProblem('user.name')).toBe(
      "argument name 'user.name' must not contain '.': a template reads a dotted name as a path into an argument ('{{user.name}}' is never this one), so it could never be used (write 'user_name' instead)",
    );
    expect(argumentNameProblem('.')).toMatch(/must not contain '\.'/);
    expect(argumentNameProblem('a{b')).toBe(
      "argument name 'a{b' must not contain '{' or '}': no template tag can name it",
    );
    expect(argumentNameProblem('x}')).toMatch(/must not contain '\{' or '\}'/);
    expect(argumentNameProblem('resource:doc')).toBe(
      "argument name 'resource:doc' must not start with 'resource:': {{resource:...}} is a resource directive",
    );
  });

  it('rejects empty names, whitespace, control characters and more than 128 code points', () => {
    expect(argumentNameProblem('')).toBe('argument name must not be empty');
    expect(argumentNameProblem('my arg')).toBe('argument name must not contain whitespace');
    expect(argumentNameProblem('a\nb')).toBe('argument name must not contain control characters');
    expect(argumentNameProblem('a'.repeat(129))).toBe('argument name must be at most 128 characters (got 129)');
    expect(argumentNameProblem(1)).toBe('argument name must be a string (got a number)');
  });

  it('rejects bidi controls and zero-width characters, which make two names look alike', () => {
    for (const name of ['us\u200ber', 'user\u200d', 'a\u202eb', 'a\u2066b', 'a\u00adb', 'a\u{E0041}']) {
      expect(argumentNameProblem(name), JSON.stringify(name)).toMatch(/must not contain invisible characters/);
    }
  });

  it('rejects default-ignorable characters (fillers, variation selectors, grapheme joiner) and the blank Braille pattern', () => {
    for (const ch of ['\u034f', '\u115f', '\u3164', '\uffa0', '\ufe0f', '\u{E0100}', '\u2800', '\u17b4']) {
      expect(argumentNameProblem(`a${ch}b`), JSON.stringify(ch)).toMatch(/must not contain invisible characters/);
      expect(argumentNameProblem(`${ch}a`), JSON.stringify(ch)).toMatch(/must not contain invisible characters/);
    }
  });

  it('rejects lone surrogates, which no client can send back as well-formed text', () => {
    for (const name of ['a\ud800b', '\udc00', 'x\ud83d']) {
      expect(argumentNameProblem(name), JSON.stringify(name)).toBe(
        'argument name must be well-formed Unicode text (it contains a lone surrogate)',
      );
    }
    expect(argumentNameProblem('a\u{1F600}')).toBeUndefined();
  });

  it("rejects '__proto__', 'constructor' and 'prototype'", () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      expect(argumentNameProblem(name)).toBe(`argument name '${name}' is reserved`);
    }
  });

  it('agrees with ARGUMENT_NAME_PATTERN (the JSON Schema rule) on names of allowed length', () => {
    const pattern = new RegExp(ARGUMENT_NAME_PATTERN, 'u');
    for (const name of [
      'code',
      'a b',
      'a\tb',
      'a\u007fb',
      'código',
      'a\u2028b',
      '',
      'a\u200bb',
      'a\u202eb',
      '\ufeffa',
      'a.b',
      '.',
      'a{',
      '}',
      'resource:x',
      'resources',
      'x-resource:',
    ]) {
      expect(argumentNameProblem(name) === undefined, JSON.stringify(name)).toBe(pattern.test(name));
    }
  });

  it('agrees with ARGUMENT_NAME_PATTERN on every character of the Basic Multilingual Plane but surrogates', () => {
    const pattern = new RegExp(ARGUMENT_NAME_PATTERN, 'u');
    const disagree: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const name = `a${String.fromCharCode(c)}`;
      if ((argumentNameProblem(name) === undefined) !== pattern.test(name)) disagree.push(c.toString(16));
    }
    expect(disagree).toEqual([]);
  });
});

describe('argument names a template cannot reach, where they are declared', () => {
  const message = /argument name 'a\.b' must not contain '\.'/;

  it("refuses a dotted name in a prompt's arguments and inputSchema properties, located by pointer", () => {
    const inArguments = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        arguments: [{ name: 'ok' }, { name: 'a.b' }],
        messages: [{ role: 'user', content: '{{ok}}' }],
      }),
    );
    expect(inArguments.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((inArguments.data as InvalidDefinitionData).problems).toEqual([
      { path: '/arguments/1/name', message: expect.stringMatching(message) },
    ]);
    const inSchema = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', properties: { 'a.b': { type: 'string' } } },
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(inSchema.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((inSchema.data as InvalidDefinitionData).problems).toEqual([
      { path: '/inputSchema/properties/a.b', message: expect.stringMatching(message) },
    ]);
  });

  it("refuses the same names in a function's arguments (one rule wherever an argument is declared)", () => {
    const error = thrownBy(() =>
      new FunctionRegistry().add(defineFunction({ name: 'F', arguments: [{ name: 'a.b' }], run: () => 1 })),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toMatch(message);
    expect(JSON.stringify(error.data)).toContain('/arguments/0/name');
  });
});
