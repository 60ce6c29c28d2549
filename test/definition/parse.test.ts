import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { parsePromptDefinition } from '../../src/definition/index.js';
import type {
  InvalidDefinitionData,
  ParsePromptDefinitionOptions,
  PromptDefinition,
} from '../../src/definition/index.js';
import { thrownBy } from '../support/errors.js';

function parseError(input: unknown, options?: ParsePromptDefinitionOptions): PromptError {
  return thrownBy(() => parsePromptDefinition(input, options));
}

const problemsOf = (error: PromptError): InvalidDefinitionData['problems'] =>
  (error.data as InvalidDefinitionData).problems;

const review = {
  name: 'review-code',
  description: 'Review code',
  arguments: [{ name: 'code', required: true, maxLength: 10000 }],
  messages: [{ role: 'user', content: 'Review:\n{{code}}' }],
};

describe('parsePromptDefinition', () => {
  it("rejects role 'system' with a precise message", () => {
    const error = parseError(
      { name: 'p', messages: [{ role: 'system', content: 'x' }] },
      { source: 'prompts/review.json' },
    );
    expect(error).toBeInstanceOf(PromptError);
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(problemsOf(error)).toEqual([
      { path: '/messages/0/role', message: "invalid role 'system': must be 'user' or 'assistant'" },
    ]);
    expect(error.message).toBe(
      "prompts/review.json: invalid prompt definition\n  /messages/0/role: invalid role 'system': must be 'user' or 'assistant'",
    );
    expect(error.data).toEqual({ source: 'prompts/review.json', problems: problemsOf(error) });
  });

  it('names any other bad role in the same message', () => {
    const error = parseError({
      name: 'p',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'b' },
      ],
    });
    expect(problemsOf(error)).toEqual([
      { path: '/messages/1/role', message: "invalid role 'tool': must be 'user' or 'assistant'" },
    ]);
  });

  it("maps 'system' to 'user' only with systemRole 'user', and still rejects other bad roles", () => {
    const legacy = { name: 'p', messages: [{ role: 'system', content: 'Be brief' }] };
    expect(parseError(legacy, { systemRole: 'reject' }).code).toBe('INVALID_PROMPT_DEFINITION');
    const def = parsePromptDefinition(legacy, { systemRole: 'user' });
    expect(def.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Be brief' } }]);
    const other = parseError({ name: 'p', messages: [{ role: 'developer', content: 'x' }] }, { systemRole: 'user' });
    expect(problemsOf(other)[0]?.message).toBe("invalid role 'developer': must be 'user' or 'assistant'");
  });

  it('lists every problem with its JSON pointer', () => {
    const error = parseError({
      name: 'bad/name',
      title: 1,
      arguments: [
        { name: 'a', type: 'text' },
        { name: 'a b', minLength: -1 },
      ],
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        { role: 'user', content: { type: 'video' } },
      ],
    });
    expect(problemsOf(error).map((p) => p.path)).toEqual([
      '/name',
      '/title',
      '/arguments/0/type',
      '/arguments/1/name',
      '/arguments/1/minLength',
      '/messages/0/role',
      '/messages/1/content',
      '/messages/2/content/type',
    ]);
    expect(error.message.split('\n')).toHaveLength(1 + 8);
  });

  it('escapes keys in JSON pointers', () => {
    const error = parseError({ name: 'p', 'a/b~c': 1, messages: [{ role: 'user', content: 'x' }] });
    expect(problemsOf(error).map((p) => p.path)).toEqual(['/a~1b~0c']);
  });

  it('explains that content must be one block, not an array', () => {
    const error = parseError({ name: 'p', messages: [{ role: 'user', content: ['a', 'b'] }] });
    expect(problemsOf(error)[0]?.message).toBe(
      'content must be one content block, not an array; use one message per block or normalizeLegacyPrompt',
    );
  });

  it('reports an unknown content type with the allowed ones', () => {
    const error = parseError({ name: 'p', messages: [{ role: 'user', content: { type: 'video', uri: 'x' } }] });
    expect(problemsOf(error)[0]?.message).toBe(
      "unknown content type 'video': must be one of 'text', 'image', 'audio', 'resource', 'resource_link'",
    );
  });

  it('suggests the known property for a typo', () => {
    const error = parseError({ ...review, argument: [] });
    expect(problemsOf(error)).toEqual([
      { path: '/argument', message: "unknown property 'argument' (did you mean 'arguments'?)" },
    ]);
    const arg = parseError({ ...review, arguments: [{ name: 'code', requried: true }] });
    expect(problemsOf(arg)[0]?.message).toBe("unknown property 'requried' (did you mean 'required'?)");
  });

  it("reports a pattern that does not compile with the 'u' flag, with the engine's reason", () => {
    const error = parseError({ ...review, arguments: [{ name: 'code', pattern: '[a-z' }] });
    expect(problemsOf(error)[0]?.path).toBe('/arguments/0/pattern');
    expect(problemsOf(error)[0]?.message).toMatch(/^invalid pattern '\[a-z': .+/);
  });

  it('checks a default against the declared type and enum', () => {
    const typed = parseError({ ...review, arguments: [{ name: 'n', type: 'integer', default: '3' }] });
    expect(problemsOf(typed)).toEqual([
      { path: '/arguments/0/default', message: "default must match type 'integer' (got '3')" },
    ]);
    const enumed = parseError({ ...review, arguments: [{ name: 'l', enum: ['ts', 'go'], default: 'rust' }] });
    expect(problemsOf(enumed)).toEqual([
      { path: '/arguments/0/default', message: "default 'rust' is not one of the enum values" },
    ]);
  });

  it('reports a duplicate argument name where it repeats', () => {
    const error = parseError({ ...review, arguments: [{ name: 'code' }, { name: 'lang' }, { name: 'code' }] });
    expect(problemsOf(error)).toEqual([
      { path: '/arguments/2/name', message: "duplicate argument name 'code' (first declared at /arguments/0)" },
    ]);
  });

  it('reports argument names equal after Unicode NFC normalization as duplicates', () => {
    const error = parseError({ ...review, arguments: [{ name: 'caf\u00e9' }, { name: 'cafe\u0301' }] });
    expect(problemsOf(error)).toEqual([
      {
        path: '/arguments/1/name',
        message:
          "duplicate argument name 'cafe\u0301' (first declared at /arguments/0, as 'caf\u00e9': equal after Unicode NFC normalization)",
      },
    ]);
    const schema = parseError({
      ...review,
      arguments: undefined,
      inputSchema: { type: 'object', properties: { 'caf\u00e9': {}, 'cafe\u0301': {} } },
    });
    expect(problemsOf(schema)).toEqual([
      {
        path: '/inputSchema/properties/cafe\u0301',
        message:
          "duplicate argument name 'cafe\u0301' (first declared at /inputSchema/properties/caf\u00e9, as 'caf\u00e9': equal after Unicode NFC normalization)",
      },
    ]);
  });

  it('reports an argument and an inputSchema property that differ only in Unicode normalization', () => {
    const error = parseError({
      ...review,
      arguments: [{ name: 'caf\u00e9' }],
      inputSchema: { type: 'object', properties: { 'cafe\u0301': { type: 'string' } } },
    });
    expect(problemsOf(error)).toEqual([
      {
        path: '/inputSchema/properties/cafe\u0301',
        message:
          "duplicate argument name 'cafe\u0301' (declared in arguments as 'caf\u00e9': equal after Unicode NFC normalization; spell both the same)",
      },
    ]);
    const same = {
      ...review,
      arguments: [{ name: 'caf\u00e9', description: 'd' }],
      inputSchema: { type: 'object', properties: { 'caf\u00e9': { type: 'string' } } },
    };
    expect(() => parsePromptDefinition(same)).not.toThrow();
  });

  it('heads the message with the prompt name when no source is given', () => {
    const error = parseError({ name: 'review-code', messages: [] });
    expect(error.message).toBe("invalid prompt definition 'review-code'\n  /messages: messages must not be empty");
    expect(error.data).toEqual({ problems: [{ path: '/messages', message: 'messages must not be empty' }] });
  });

  it('names the root of the document as (root)', () => {
    expect(parseError([]).message).toBe(
      'invalid prompt definition\n  (root): a prompt definition must be an object (got an array)',
    );
  });

  it('adds line and column from locate, falling back to the nearest locatable parent', () => {
    const positions: Record<string, { line: number; column: number }> = {
      '/messages/0': { line: 3, column: 5 },
      '/messages/0/role': { line: 3, column: 15 },
    };
    const error = parseError(
      { name: 'p', messages: [{ role: 'system' }] },
      { source: 'prompts/p.json', locate: (pointer) => positions[pointer] },
    );
    expect(problemsOf(error)).toEqual([
      {
        path: '/messages/0/role',
        message: "invalid role 'system': must be 'user' or 'assistant'",
        line: 3,
        column: 15,
      },
      { path: '/messages/0/content', message: 'content is required', line: 3, column: 5 },
    ]);
    expect(error.message).toBe(
      'prompts/p.json: invalid prompt definition\n' +
        "  /messages/0/role: invalid role 'system': must be 'user' or 'assistant' (line 3, column 15)\n" +
        '  /messages/0/content: content is required (line 3, column 5)',
    );
  });

  it('lists at most 50 problems in the message and all of them in data', () => {
    const messages = Array.from({ length: 60 }, () => ({ role: 'system', content: 'x' }));
    const error = parseError({ name: 'p', messages });
    expect(problemsOf(error)).toHaveLength(60);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(1 + 50 + 1);
    expect(lines[50]).toContain('/messages/49/role');
    expect(lines.at(-1)).toBe('  and 10 more problems');
  });

  it('is an operator error that clients only ever see as a generic -32603', () => {
    const error = parseError(
      { name: 'p', messages: [{ role: 'system', content: 'x' }] },
      { source: 'secret/path.json' },
    );
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('normalizes string content into a text block and drops $schema', () => {
    const def = parsePromptDefinition({ $schema: 'https://example.com/s.json', ...review });
    expect(def).toEqual({
      name: 'review-code',
      description: 'Review code',
      arguments: [{ name: 'code', required: true, maxLength: 10000 }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Review:\n{{code}}' } }],
    });
    expect('$schema' in def).toBe(false);
  });

  it('keeps every content block type', () => {
    const blocks = [
      { type: 'text', text: 'a', _meta: { k: 1 } },
      { type: 'image', data: 'AA==', mimeType: 'image/png' },
      { type: 'audio', path: 'a.wav', mimeType: 'audio/wav' },
      { type: 'resource', uri: 'docs://{{id}}', mimeType: 'text/plain' },
      { type: 'resource_link', uri: 'file:///a', name: 'a', title: 'A', description: 'd', mimeType: 'text/plain' },
    ];
    const def = parsePromptDefinition({
      name: 'p',
      messages: blocks.map((content) => ({ role: 'assistant', content })),
    });
    expect(def.messages?.map((m) => m.content)).toEqual(blocks);
  });

  it('does not mutate the input', () => {
    const input = {
      ...review,
      _meta: { nested: { list: [1, 2] } },
      inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: { type: 'text', text: 'y' } },
      ],
    };
    const before = structuredClone(input);
    parsePromptDefinition(input, { systemRole: 'user' });
    expect(input).toEqual(before);
    expect(Object.isFrozen(input)).toBe(false);
    expect(() => parsePromptDefinition(deepFreeze(structuredClone(input)), { systemRole: 'user' })).not.toThrow();
  });

  it('returns a deeply frozen copy that shares no data object with the input', () => {
    const input = {
      ...review,
      _meta: { nested: { list: [1, 2] } },
      inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
    };
    const def = parsePromptDefinition(input);
    expect(def._meta).toEqual(input._meta);
    expect(def._meta).not.toBe(input._meta);
    expect(def.inputSchema).not.toBe(input.inputSchema);
    expect(def.arguments?.[0]).not.toBe(input.arguments[0]);
    for (const value of [
      def,
      def._meta,
      def._meta?.['nested'],
      def.inputSchema,
      def.arguments,
      def.arguments?.[0],
      def.messages,
      def.messages?.[0],
    ]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
  });

  it('copies a __proto__ key in data as a plain property, polluting nothing', () => {
    const input = JSON.parse(
      '{"name":"p","_meta":{"__proto__":{"polluted":true}},"messages":[{"role":"user","content":"x"}]}',
    ) as unknown;
    const def = parsePromptDefinition(input);
    expect(Object.getPrototypeOf(def._meta)).toBe(Object.prototype);
    expect(Object.keys(def._meta ?? {})).toEqual(['__proto__']);
    expect((def._meta as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reports a cycle in data instead of looping', () => {
    const meta: Record<string, unknown> = { a: {} };
    (meta['a'] as Record<string, unknown>)['back'] = meta;
    const error = parseError({ ...review, _meta: meta });
    expect(problemsOf(error)).toEqual([
      { path: '/_meta/a/back', message: 'must not contain a cycle (definitions are JSON data)' },
    ]);
  });

  it('ignores inherited properties', () => {
    const input = Object.create({ render: 'inherited', extra: 1 }) as Record<string, unknown>;
    Object.assign(input, review);
    expect(parsePromptDefinition(input).name).toBe('review-code');
  });
});

describe('parsePromptDefinition with programmatic definitions', () => {
  const render = (): string => 'hello';

  it('accepts a render function instead of messages and keeps it', () => {
    const def = parsePromptDefinition({ name: 'p', render });
    expect(def.render).toBe(render);
    expect(def.messages).toBeUndefined();
  });

  it('rejects both messages and render, and neither', () => {
    expect(problemsOf(parseError({ ...review, render }))).toEqual([
      { path: '', message: "a definition has either 'messages' or a 'render' function, not both" },
    ]);
    expect(problemsOf(parseError({ name: 'p' }))[0]?.path).toBe('/messages');
  });

  it('keeps an argument complete function and rejects a non-function complete', () => {
    const complete = (): string[] => ['ts'];
    const def = parsePromptDefinition({ name: 'p', arguments: [{ name: 'language', complete }], render });
    expect(def.arguments?.[0]?.complete).toBe(complete);
    const error = parseError({ name: 'p', arguments: [{ name: 'language', complete: ['ts'] }], render });
    expect(problemsOf(error)).toEqual([
      { path: '/arguments/0/complete', message: 'complete must be a function (programmatic definitions only)' },
    ]);
  });

  it('rejects reserved argument names in an inputSchema, which ajv would otherwise skip unvalidated', () => {
    const input = JSON.parse(
      '{"name":"p","inputSchema":{"type":"object","properties":{"__proto__":{"type":"integer"},"ok":{"type":"string"}},"required":["constructor"]},"messages":[{"role":"user","content":"x"}]}',
    );
    expect(problemsOf(parseError(input))).toEqual([
      { path: '/inputSchema/properties/__proto__', message: "argument name '__proto__' is reserved" },
      {
        path: '/inputSchema/required/0',
        message: expect.stringMatching(
          /^'constructor' is required but not declared: declare 'constructor' under properties/,
        ),
      },
    ]);
  });

  it('treats properties set to undefined as absent', () => {
    const def: PromptDefinition = parsePromptDefinition({ name: 'p', title: undefined, messages: undefined, render });
    expect(Object.keys(def)).toEqual(['name', 'render']);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe('parsePromptDefinition: keywords must apply to the argument type', () => {
  it.each([
    [
      { name: 'n', minimum: 3 },
      '/arguments/0/minimum',
      "minimum applies to numbers, but an argument without a type is a string: declare type 'number' or 'integer'",
    ],
    [
      { name: 'n', type: 'integer', pattern: '^\\\\d+$' },
      '/arguments/0/pattern',
      "pattern applies to strings, but type 'integer'",
    ],
    [
      { name: 'n', type: 'boolean', maxLength: 4 },
      '/arguments/0/maxLength',
      "maxLength applies to strings, but type 'boolean'",
    ],
    [
      { name: 'l', items: { type: 'string' } },
      '/arguments/0/items',
      "items applies to arrays, but an argument without a type is a string: declare type 'array'",
    ],
    [
      { name: 'n', enum: [1, 2], minLength: 1 },
      '/arguments/0/minLength',
      'minLength applies to strings, but an argument without a type is a number',
    ],
  ])('rejects %j instead of ignoring the keyword', (argument, path, message) => {
    const error = parseError({ name: 'p', arguments: [argument], messages: [{ role: 'user', content: 'x' }] });
    expect(problemsOf(error)).toEqual([{ path, message }]);
  });

  it('accepts keywords that apply: numeric bounds on numbers, string rules on strings and enums of strings', () => {
    const def = parsePromptDefinition({
      name: 'p',
      arguments: [
        { name: 'n', type: 'integer', minimum: 1, maximum: 5 },
        { name: 's', pattern: '^[a-z]+$', maxLength: 10 },
        { name: 'e', enum: [1, 2], minimum: 1 },
        { name: 'a', type: 'array', items: { type: 'string' } },
      ],
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(def.arguments).toHaveLength(4);
  });
});

describe('parsePromptDefinition: definitions are JSON data', () => {
  it.each([
    [
      { inputSchema: { type: 'object', properties: { n: { const: Number.NaN } } } },
      '/inputSchema/properties/n/const',
      'must be JSON data: NaN is not a JSON number',
    ],
    [
      { inputSchema: { type: 'object', properties: { n: { maximum: Infinity } } } },
      '/inputSchema/properties/n/maximum',
      'must be JSON data: Infinity is not a JSON number',
    ],
    [
      { arguments: [{ name: 'n', type: 'number', default: -Infinity }] },
      '/arguments/0/default',
      "default must match type 'number' (got -Infinity)",
    ],
  ])('rejects non-finite numbers, which JSON cannot carry (%#)', (extra, path, message) => {
    expect(problemsOf(parseError({ name: 'p', render: () => 'x', ...extra }))).toEqual([{ path, message }]);
  });
});

describe('parsePromptDefinition: the size of definition data is bounded', () => {
  it('reports data nested 20,000 levels deep at the level where it goes too deep, not a stack overflow', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) node = { not: node };
    const [problem] = problemsOf(
      parseError({ name: 'p', render: () => 'x', inputSchema: { type: 'object', properties: { a: node } } }),
    );
    expect(problem?.path).toBe(`/inputSchema/properties/a${'/not'.repeat(254)}`);
    expect(problem?.message).toBe('nests deeper than 256 levels');
  });

  it('counts an object shared 2^40 times in programmatic data each time, and stops at the limit', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) node = { allOf: [node, node] };
    const [problem] = problemsOf(parseError({ name: 'p', render: () => 'x', _meta: { shared: node } }));
    expect(problem?.path).toMatch(/^\/_meta\/shared\/allOf\/0\//);
    expect(problem?.message).toBe(
      'is too large: more than 100000 objects and arrays (a shared object counts each time it appears)',
    );
  });

  it('accepts the same object shared a few times (copied each time)', () => {
    const shared = { type: 'string' };
    const def = parsePromptDefinition({
      name: 'p',
      render: () => 'x',
      inputSchema: { type: 'object', properties: { a: shared, b: shared } },
    });
    expect(def.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } });
  });
});

describe('parsePromptDefinition: unknown properties', () => {
  it('reports 6,000 unknown 5,000-character keys of an argument: the first 100 without a hint, then their count', () => {
    const argument: Record<string, unknown> = { name: 'a' };
    for (let i = 0; i < 6_000; i++) argument[`${'x'.repeat(4_995)}${String(i).padStart(5, '0')}`] = 1;
    const problems = problemsOf(parseError({ name: 'p', render: () => 'x', arguments: [argument] }));
    expect(problems).toHaveLength(101);
    expect(problems[0]?.message).toBe(`unknown property '${'x'.repeat(57)}...'`);
    expect(problems[100]).toEqual({ path: '', message: '5900 more problems not shown' });
  });

  it('still hints at a near miss', () => {
    const problems = problemsOf(
      parseError({ name: 'p', render: () => 'x', arguments: [{ name: 'a', requird: true }] }),
    );
    expect(problems).toEqual([
      { path: '/arguments/0/requird', message: "unknown property 'requird' (did you mean 'required'?)" },
    ]);
  });
});
