/**
 * Generated arguments against prompts that use every argument feature: whatever a client sends, the answer is a
 * rendered prompt or a -32602 naming the problem, within the per-case CPU and heap bounds, with the caller's object
 * unchanged and `Object.prototype` untouched.
 */
import { describe, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import type { PromptDefinition } from '../../src/definition/types.js';
import {
  amplifyingJsonText,
  checkProperty,
  expectPrototypeUntouched,
  expectSpecResult,
  fc,
  hostileJson,
  hostileKey,
  hostileString,
  PROPERTY_TIMEOUT_MS,
  expectUnchanged,
  snapshot,
  withinBudget,
} from '../support/properties.js';

const PROMPTS: PromptDefinition[] = [
  {
    name: 'plain',
    arguments: [{ name: 'code', required: true }, { name: 'language' }],
    messages: [{ role: 'user', content: 'Review {{language}}: {{code}}' }],
  },
  {
    name: 'typed',
    arguments: [
      { name: 'count', type: 'integer', minimum: 0, maximum: 1000 },
      { name: 'ratio', type: 'number' },
      { name: 'strict', type: 'boolean', default: false },
      { name: 'tone', enum: ['friendly', 'formal'] },
      { name: 'id', pattern: '^[a-z]+(-[a-z0-9]+)*$', maxLength: 200 },
      { name: 'mail', format: 'email' },
      { name: 'items', type: 'array', items: { type: 'string' } },
    ],
    messages: [
      { role: 'user', content: '{{count}} {{ratio}} {{#strict}}strict{{/strict}} {{tone}} {{id}} {{mail}}' },
      { role: 'assistant', content: '{{#items}}- {{.}}\n{{/items}}' },
    ],
  },
  {
    name: 'schema',
    inputSchema: {
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1 },
            age: { type: 'integer' },
            tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          },
          required: ['name'],
        },
        rows: { type: 'array', maxItems: 500, items: { type: 'object', properties: { k: { type: 'string' }, v: {} } } },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['user'],
      additionalProperties: false,
    },
    messages: [
      { role: 'user', content: 'Hello {{user.name}} ({{user.age}}): {{#rows}}{{k}}={{v}};{{/rows}} {{when}}' },
    ],
  },
];

function registry(): PromptRegistry {
  const r = new PromptRegistry();
  for (const prompt of PROMPTS) r.add(prompt);
  return r;
}

const names = fc.constantFrom(...PROMPTS.map((p) => p.name));

/** One get: a spec result, or a PromptError a client is to blame for (-32602), never an exception of another kind. */
async function expectClientOutcome(r: PromptRegistry, name: string, args: unknown): Promise<void> {
  const before = snapshot(args);
  await withinBudget(`getPrompt(${name})`, async () => {
    try {
      expectSpecResult(await r.getPrompt(name, args as Record<string, unknown>));
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      if (error.rpcCode !== -32602)
        throw new Error(`client input answered ${error.rpcCode} ${error.code}: ${error.message}`);
    }
  });
  expectUnchanged(before, args, 'the caller’s arguments object');
  expectPrototypeUntouched();
}

describe('argument validation over generated input', () => {
  const r = registry();

  it(
    'answers any typed arguments object with a result or a -32602, within bounds, mutating nothing',
    async () => {
      const args = fc.oneof(
        { weight: 4, arbitrary: fc.dictionary(hostileKey, hostileJson, { maxKeys: 8 }) },
        { weight: 1, arbitrary: hostileJson },
      );
      await checkProperty('arguments: typed values', fc.tuple(names, args), ([name, a]) =>
        expectClientOutcome(r, name, a),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any wire arguments (strings only) with a result or a -32602',
    async () => {
      const wire = fc.dictionary(
        hostileKey,
        fc.oneof(
          hostileString,
          hostileJson.map((v) => JSON.stringify(v) ?? ''),
        ),
        { maxKeys: 8 },
      );
      await checkProperty('arguments: wire strings', fc.tuple(names, wire), ([name, a]) =>
        expectClientOutcome(r, name, a),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers amplifying argument shapes within a request body’s size with a result or a -32602, within bounds',
    async () => {
      await checkProperty(
        'arguments: amplifying shapes',
        fc.tuple(names, amplifyingJsonText(1024 * 1024)),
        async ([name, text]) => {
          const parsed = JSON.parse(text) as unknown;
          await expectClientOutcome(r, name, {
            code: 'x',
            user: { name: 'n' },
            rows: parsed,
            items: parsed,
            id: text.slice(0, 9_000),
          });
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
