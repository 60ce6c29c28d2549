import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CASES, PromptRegistry, parsePromptCases, parsePromptDefinition } from '../../src/index.js';

describe('parsePromptCases', () => {
  it('reads shorthand expectations into one shape, frozen, without touching the input', () => {
    const input = [
      { name: 'a', arguments: { who: 'x' }, contains: 'Hi', notContains: ['Bye', { text: 'Yo', message: 1 }] },
      { name: 'b', error: -32602 },
      { name: 'c', messages: [{ role: 'assistant', content: 'ok' }] },
    ];
    const before = JSON.stringify(input);
    const { cases, problems } = parsePromptCases(input, { declaredArguments: ['who'] });
    expect(problems).toEqual([]);
    expect(JSON.stringify(input)).toBe(before);
    expect(cases.map((c) => c.expect)).toEqual([
      { contains: [{ text: 'Hi' }], notContains: [{ text: 'Bye' }, { text: 'Yo', message: 1 }] },
      { error: { code: -32602 } },
      { messages: [{ role: 'assistant', content: { type: 'text', text: 'ok' } }] },
    ]);
    expect(Object.isFrozen(cases[0]) && Object.isFrozen(cases[0]!.arguments)).toBe(true);
  });

  it('keeps a __proto__ argument as data, never as a prototype', () => {
    const input = JSON.parse('[{ "name": "a", "arguments": { "__proto__": { "polluted": true } } }]') as unknown;
    const { cases, problems } = parsePromptCases(input);
    expect(problems).toEqual([]);
    expect(Object.hasOwn(cases[0]!.arguments, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('names every problem with its pointer, and hints at close names', () => {
    const { cases, problems } = parsePromptCases(
      [
        { name: '' },
        { name: 'x', error: 'PROMPT_ARGUMENT_MISING' },
        { name: 'y', contains: [{ text: 'a', message: -1 }] },
        { name: 'z', messages: [{ role: 'system', content: 'x' }] },
        { name: 'w', error: { message: 'x' } },
        { name: 'v', error: { code: 'PROMPT_NOT_FOUND', message: 1, missing_arguments: 'a' } },
        { name: 'u', error: true, arguments: 'x' },
      ],
      { path: '/list' },
    );
    expect(cases).toEqual([]);
    expect(problems).toEqual([
      { path: '/list/0/name', message: 'name must not be empty' },
      {
        path: '/list/1/error',
        message: "unknown error code 'PROMPT_ARGUMENT_MISING' (did you mean 'PROMPT_ARGUMENT_MISSING'?)",
      },
      { path: '/list/2/contains/0/message', message: 'message must be a message index (0, 1, ...), got -1' },
      { path: '/list/3/messages/0/role', message: "invalid role 'system': must be 'user' or 'assistant'" },
      {
        path: '/list/4/error/code',
        message: 'code is required (-32602, or an error code such as PROMPT_ARGUMENT_MISSING)',
      },
      { path: '/list/5/error/message', message: 'message must be a string (got a number)' },
      { path: '/list/5/error/missing_arguments', message: 'missing_arguments must be a list of argument names' },
      {
        path: '/list/6/error',
        message: 'an error code is a JSON-RPC code (-32602) or an error code name (got a boolean)',
      },
      { path: '/list/6/arguments', message: 'arguments must be an object of argument values (got a string)' },
    ]);
  });

  it('checks arguments against both the declared arguments and inputSchema properties', () => {
    const definition = parsePromptDefinition({
      name: 'p',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
      messages: [{ role: 'user', content: '{{a}}' }],
      cases: [{ name: 'ok', arguments: { a: 'x' } }],
    });
    expect(Object.keys(definition)).not.toContain('cases');
    expect(() =>
      parsePromptDefinition({
        name: 'p',
        messages: [{ role: 'user', content: 'x' }],
        cases: [{ name: 'c', arguments: { a: 1 } }],
      }),
    ).toThrow("/cases/0/arguments/a: argument 'a' is not declared by the prompt (it declares no arguments)");
  });

  it('checks the cases of a programmatic definition and never serves them', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      messages: [{ role: 'user', content: 'hi' }],
      cases: [{ name: 'c', contains: 'hi' }],
    } as never);
    expect(JSON.stringify(registry.list())).not.toContain('"c"');
    expect(JSON.stringify(await registry.getPrompt('p'))).toBe(
      '{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}',
    );
  });

  it('refuses more cases than the limit with one problem, and carries at most 100 problems', () => {
    const many = parsePromptCases(Array.from({ length: DEFAULT_MAX_CASES + 1 }, (_, i) => ({ name: `c${i}` })));
    expect(many).toEqual({
      cases: [],
      problems: [{ path: '/cases', message: '1001 cases, over the limit of 1000 cases for one prompt' }],
    });
    const bad = parsePromptCases(Array.from({ length: 500 }, () => 1));
    expect(bad.problems).toHaveLength(101);
    expect(bad.problems[100]).toEqual({ path: '/cases', message: 'and 400 more problem(s) in cases' });
  });
});
