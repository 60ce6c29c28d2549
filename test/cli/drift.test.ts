/** The drift between a prompt directory and a store label: what push plans, and its per-field summary. */
import { describe, expect, it } from 'vitest';
import type { TemplatePromptDefinition } from '../../src/definition/types.js';
import { describeChanges, planPush } from '../../src/cli/drift.js';

const def = (name: string, extra: Partial<TemplatePromptDefinition> = {}): TemplatePromptDefinition => ({
  name,
  messages: [{ role: 'user', content: `text of ${name}` }],
  ...extra,
});

describe('the drift between a directory and a label', () => {
  it('plans nothing for equal content, whatever the key order the store gives back', () => {
    const dir = def('a', { _meta: { x: 1, y: { p: 1, q: 2 } } });
    const stored = { name: 'a', _meta: { y: { q: 2, p: 1 }, x: 1 }, messages: dir.messages };
    const plan = planPush([dir], {
      labelled: [{ name: 'a', version: 3, definition: stored as TemplatePromptDefinition }],
      invalid: new Map(),
      latest: [],
    });
    expect(plan).toEqual({ prompts: [{ name: 'a', status: 'unchanged', version: 3 }], storeOnly: [] });
  });

  it('moves the label to the newest version when it already has the content, else plans a new version', () => {
    const plan = planPush([def('a', { title: 'new' }), def('b', { title: 'new' }), def('c')], {
      labelled: [
        { name: 'a', version: 1, definition: def('a') },
        { name: 'z', version: 4, definition: def('z') },
      ],
      invalid: new Map([
        ['c', 'messages is not an array'],
        ['y', 'bad role'],
      ]),
      latest: [
        { name: 'a', version: 2, definition: def('a', { title: 'new' }) },
        { name: 'b', version: 5, definition: def('b') },
      ],
    });
    expect(plan.prompts.map((p) => (p.status === 'unchanged' ? p : { ...p, definition: undefined }))).toEqual([
      {
        name: 'a',
        status: 'changed',
        from: 1,
        action: { kind: 'label', version: 2 },
        fields: ['title added'],
        definition: undefined,
      },
      { name: 'b', status: 'added', from: null, action: { kind: 'put' }, fields: [], definition: undefined },
      {
        name: 'c',
        status: 'changed',
        from: null,
        action: { kind: 'put' },
        fields: ['the version the label points at is invalid (messages is not an array)'],
        definition: undefined,
      },
    ]);
    expect(plan.storeOnly).toEqual([
      { name: 'y', version: null, invalid: 'bad role' },
      { name: 'z', version: 4 },
    ]);
  });

  it('summarises each field that differs in a few words', () => {
    const before = def('p', {
      description: 'd',
      tags: ['a'],
      arguments: [{ name: 'code' }, { name: 'lang' }, { name: 'style' }],
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ],
    });
    const after = def('p', {
      title: 't',
      tags: ['b'],
      arguments: [{ name: 'code', required: true }, { name: 'language' }, { name: 'style' }],
      messages: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ],
    });
    expect(describeChanges(before, after)).toEqual([
      'title added',
      'description removed',
      'arguments: +language -lang ~code',
      'messages: 2 -> 3, #2 changed',
      'tags changed',
    ]);
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    expect(describeChanges(def('p', { messages: many(6) }), def('p', { messages: many(6).reverse() }))).toEqual([
      'messages: #1, #2, #3 and 3 more changed',
    ]);
    expect(
      describeChanges(
        def('p', { arguments: [{ name: 'a' }, { name: 'b' }] }),
        def('p', { arguments: [{ name: 'b' }, { name: 'a' }] }),
      ),
    ).toEqual(['arguments: reordered']);
  });
});
