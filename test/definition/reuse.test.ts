import { describe, expect, it } from 'vitest';
import { checkPromptDefinition } from '../../src/definition/parse.js';
import type { DefinitionCheck } from '../../src/definition/parse.js';
import { ParsedLists } from '../../src/definition/reuse.js';
import type { SystemRolePolicy } from '../../src/definition/types.js';
import { invalidCases, validCases } from './cases.js';

type Raw = Record<string, unknown>;

const definition = (args: unknown, messages: unknown = [{ role: 'user', content: 'Hi {{a}}' }]): Raw => ({
  name: 'p',
  arguments: args,
  messages,
});

/** Parses `first` and then `then` with one memory of parsed lists; `then` must read exactly as a fresh parse of it. */
function afterEachOther(
  first: unknown,
  then: unknown,
  systemRole: SystemRolePolicy = 'reject',
): { reused: DefinitionCheck; fresh: DefinitionCheck } {
  const lists = new ParsedLists();
  checkPromptDefinition(first, systemRole, lists);
  return { reused: checkPromptDefinition(then, systemRole, lists), fresh: checkPromptDefinition(then, systemRole) };
}

function nonEnumerable(target: Raw, key: string, value: unknown): Raw {
  Object.defineProperty(target, key, { value, enumerable: false });
  return target;
}

describe('equal argument and message lists parsed once', () => {
  it('gives a definition equal to one parsed before the same frozen lists', () => {
    const lists = new ParsedLists();
    const make = (): Raw =>
      definition([
        { name: 'a', required: true, enum: ['x', 'y'] },
        { name: 'b', maxLength: 5 },
      ]);
    const one = checkPromptDefinition(make(), 'reject', lists).definition;
    const two = checkPromptDefinition(make(), 'reject', lists).definition;
    expect(two).toEqual(checkPromptDefinition(make()).definition);
    expect(two?.arguments).toBe(one?.arguments);
    expect(two?.messages).toBe(one?.messages);
  });

  it('reuses a message list given as strings for one given as text blocks, which parse the same', () => {
    const lists = new ParsedLists();
    const one = checkPromptDefinition(
      definition(undefined, [{ role: 'user', content: 'Hi' }]),
      'reject',
      lists,
    ).definition;
    const two = checkPromptDefinition(
      definition(undefined, [{ role: 'user', content: { type: 'text', text: 'Hi' } }]),
      'reject',
      lists,
    );
    expect(two.definition?.messages).toBe(one?.messages);
  });

  it('does not keep message lists of more than 64 Ki characters for later definitions', () => {
    const lists = new ParsedLists();
    const big = (): Raw => definition(undefined, [{ role: 'user', content: 'x'.repeat(65_537) }]);
    const one = checkPromptDefinition(big(), 'reject', lists).definition;
    expect(checkPromptDefinition(big(), 'reject', lists).definition?.messages).not.toBe(one?.messages);
  });

  const base = [{ name: 'a', description: 'd', enum: [0, 1], type: 'number' }];
  const near: [string, unknown][] = [
    ['another description', [{ name: 'a', description: 'e', enum: [0, 1], type: 'number' }]],
    ['one more key', [{ name: 'a', description: 'd', enum: [0, 1], type: 'number', required: true }]],
    ['an unknown key', [{ name: 'a', description: 'd', enum: [0, 1], type: 'number', requried: true }]],
    ['a key set to undefined', [{ name: 'a', description: 'd', enum: [0, 1], type: 'number', title: undefined }]],
    [
      'a non-enumerable own key',
      [nonEnumerable({ name: 'a', description: 'd', enum: [0, 1], type: 'number' }, 'required', true)],
    ],
    [
      'an inherited key',
      [
        Object.assign(Object.create({ required: true }) as Raw, {
          name: 'a',
          description: 'd',
          enum: [0, 1],
          type: 'number',
        }),
      ],
    ],
    ['enum values in another order', [{ name: 'a', description: 'd', enum: [1, 0], type: 'number' }]],
    ['-0 for 0 in the enum', [{ name: 'a', description: 'd', enum: [-0, 1], type: 'number' }]],
    ['an enum with a hole', [{ name: 'a', description: 'd', enum: [, 1], type: 'number' }]], // eslint-disable-line no-sparse-arrays
    ['a hole for the argument', [,]], // eslint-disable-line no-sparse-arrays
    ['one argument more', [...base, { name: 'b' }]],
    ['a string for the argument list', 'a'],
  ];
  for (const [what, args] of near) {
    it(`reads an argument list with ${what} afresh`, () => {
      const { reused, fresh } = afterEachOther(definition(base), definition(args));
      expect(reused).toEqual(fresh);
      const enumOf = (check: DefinitionCheck): unknown => check.definition?.arguments?.[0]?.enum?.[0];
      expect(Object.is(enumOf(reused), enumOf(fresh))).toBe(true);
    });
  }

  const messages = [{ role: 'user', content: 'Hi' }];
  const nearMessages: [string, unknown, SystemRolePolicy?][] = [
    ['another role', [{ role: 'assistant', content: 'Hi' }]],
    ['a system role made user', [{ role: 'system', content: 'Hi' }], 'user'],
    ['a system role refused', [{ role: 'system', content: 'Hi' }]],
    ['_meta on the content', [{ role: 'user', content: { type: 'text', text: 'Hi', _meta: { a: 1 } } }]],
    ['an unknown message key', [{ role: 'user', content: 'Hi', name: 'x' }]],
    ['a non-enumerable content', [nonEnumerable({ role: 'user' }, 'content', 'Hi')]],
    ['an image block', [{ role: 'user', content: { type: 'image', data: 'AQID', mimeType: 'image/png' } }]],
  ];
  for (const [what, list, policy] of nearMessages) {
    it(`reads a message list with ${what} afresh`, () => {
      const { reused, fresh } = afterEachOther(definition(undefined, messages), definition(undefined, list), policy);
      expect(reused).toEqual(fresh);
    });
  }

  it('reads every case of the shared definition table as a fresh parse does, whatever was parsed before it', () => {
    const lists = new ParsedLists();
    const all = [...validCases, ...invalidCases, ...validCases].map((c) => c.definition);
    for (const input of all)
      expect(checkPromptDefinition(input, 'reject', lists)).toEqual(checkPromptDefinition(input));
  });
});
