import { describe, expect, it } from 'vitest';
import { previewFields } from '../../../src/cli/preview/fields.js';
import { PromptRegistry } from '../../../src/index.js';
import type { PromptDefinition } from '../../../src/index.js';

function fields(definition: PromptDefinition) {
  const registry = new PromptRegistry();
  registry.add(definition);
  return previewFields(registry.definition(definition.name)!, registry.get(definition.name)!.arguments ?? []);
}

describe('preview form fields', () => {
  it('types the fields of an inputSchema: titled options, numbers, booleans, JSON for lists and objects', () => {
    const got = fields({
      name: 'schema',
      inputSchema: {
        type: 'object',
        required: ['ratio'],
        properties: {
          mode: {
            oneOf: [
              { const: 'a', title: 'Alpha' },
              { const: 'b', title: 'Beta' },
            ],
            default: 'b',
          },
          ratio: { type: 'number', minimum: 0, maximum: 1 },
          verbose: { type: 'boolean', default: true },
          tags: { type: 'array', items: { type: 'string' } },
          options: { type: 'object', default: { deep: true } },
          email: { type: 'string', format: 'email', maxLength: 80 },
        },
      },
      messages: [{ role: 'user', content: '{{mode}}' }],
    });
    const byName = Object.fromEntries(got.map((f) => [f.name, f]));
    expect(byName['mode']).toMatchObject({ control: 'select', options: ['a', 'b'], default: 'b', required: false });
    expect(byName['ratio']).toMatchObject({ control: 'number', minimum: 0, maximum: 1, required: true });
    expect(byName['verbose']).toMatchObject({ control: 'boolean', default: 'true' });
    expect(byName['tags']).toMatchObject({ control: 'json' });
    expect(byName['options']).toMatchObject({ control: 'json', default: '{"deep":true}' });
    expect(byName['email']).toMatchObject({ control: 'text', format: 'email', maxLength: 80 });
  });

  it('marks an argument with a completer, so the page asks for suggestions', () => {
    const got = fields({
      name: 'complete',
      arguments: [{ name: 'lang', complete: () => ['go'] }, { name: 'plain' }],
      messages: [{ role: 'user', content: '{{lang}}' }],
    });
    expect(got.map((f) => [f.name, f.completes])).toEqual([
      ['lang', true],
      ['plain', false],
    ]);
  });
});
