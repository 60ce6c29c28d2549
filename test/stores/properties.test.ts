/**
 * Generated stored rows and definitions: a row is read as a servable prompt or withheld with a reason (never a
 * throw), what is servable registers and answers spec results or client errors, and the memory store refuses bad
 * definitions with a definition error.
 */
import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { createMemoryPromptStore } from '../../src/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { readRow } from '../../src/stores/postgres/rows.js';
import { CONTENT_COLUMNS } from '../../src/stores/postgres/schema.js';
import {
  checkProperty,
  expectPrototypeUntouched,
  expectSpecResult,
  fc,
  hostileJson,
  hostileString,
  PROPERTY_TIMEOUT_MS,
  withinBudget,
} from '../support/properties.js';

const messages = fc.oneof(
  fc.array(
    fc.record({
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'system'), hostileJson),
      content: fc.oneof(hostileString, fc.constantFrom('{{code}}', '{{#code}}{{/code}}', '{{'), hostileJson),
    }),
    { maxLength: 3 },
  ),
  hostileJson,
);
const argumentsColumn = fc.oneof(
  fc.array(
    fc.record(
      {
        name: fc.oneof(fc.constant('code'), hostileString),
        required: fc.boolean(),
        type: fc.constantFrom('string', 'integer', 'x'),
      },
      { requiredKeys: ['name'] },
    ),
    { maxLength: 3 },
  ),
  hostileJson,
);

const row = fc.record(
  {
    name: fc.oneof(fc.constantFrom('review_code', 'a-b', 'system'), hostileString),
    version: fc.oneof(fc.integer({ min: 1, max: 1000 }), hostileJson),
    title: fc.oneof(hostileString, fc.constant(null)),
    description: fc.oneof(hostileString, fc.constant(null)),
    arguments: fc.oneof(argumentsColumn, fc.constant(null)),
    input_schema: fc.oneof(hostileJson, fc.constant(null)),
    messages: fc.oneof(messages, fc.constant(null)),
    icons: fc.oneof(hostileJson, fc.constant(null)),
    tags: fc.oneof(hostileJson, fc.constant(null)),
    meta: fc.oneof(hostileJson, fc.constant(null)),
  },
  { requiredKeys: ['name'] },
);

describe('stored rows over generated content', () => {
  it(
    'reads any row as a servable prompt or a withheld one with a reason; servable ones answer spec results',
    async () => {
      expect(CONTENT_COLUMNS.map((c) => c.column).sort()).toEqual([
        'arguments',
        'description',
        'icons',
        'input_schema',
        'messages',
        'meta',
        'tags',
        'title',
      ]);
      await checkProperty(
        'stores: rows',
        fc.tuple(row, fc.dictionary(fc.constantFrom('code', 'x'), hostileJson, { maxKeys: 2 })),
        async ([r, args]) => {
          const reading = readRow(r);
          if (!reading.ok) {
            expect(reading.reason.length).toBeGreaterThan(0);
            return;
          }
          const registry = new PromptRegistry({ undeclaredPlaceholders: 'warn' });
          try {
            registry.add(reading.entry.definition);
          } catch (error) {
            if (!(error instanceof PromptError) || error.code !== 'INVALID_PROMPT_DEFINITION') throw error;
            return;
          }
          await withinBudget('stored prompt get', async () => {
            try {
              expectSpecResult(await registry.getPrompt(reading.entry.name, args));
            } catch (error) {
              if (!(error instanceof PromptError) || error.rpcCode !== -32602) throw error;
            }
          });
          expectPrototypeUntouched();
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'puts a valid definition or refuses it with a definition error, never anything else',
    async () => {
      const store = createMemoryPromptStore();
      const definition = fc.record(
        {
          name: fc.oneof(fc.constantFrom('p', 'q-1'), hostileString),
          messages,
          arguments: argumentsColumn,
          description: hostileString,
          _meta: hostileJson,
        },
        { requiredKeys: ['name', 'messages'] },
      );
      await checkProperty('stores: memory store definitions', definition, async (d) => {
        try {
          await store.put(d as never);
        } catch (error) {
          if (!(error instanceof PromptError) || error.code !== 'INVALID_PROMPT_DEFINITION') throw error;
        }
        expectPrototypeUntouched();
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
