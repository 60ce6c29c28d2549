/**
 * Generated templates and arguments: a definition is refused at registration with a located definition error, or
 * every get answers a spec result or a -32602 (limits included), within the per-case CPU and heap bounds.
 */
import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';
import {
  checkProperty,
  expectPrototypeUntouched,
  expectSpecResult,
  fc,
  hostileJson,
  hostileString,
  PROPERTY_TIMEOUT_MS,
  runsFor,
  withinBudget,
} from '../support/properties.js';

const NAMES = ['a', 'b', 'xs', 'ys', 'obj'] as const;

/** Template pieces: text, placeholders, sections (balanced or not), partials, resource directives, comments. */
const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(...NAMES, 'obj.k', '.', 'missing', '__proto__', 'constructor').map((n) => `{{${n}}}`),
  },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES).map((n) => `{{#${n}}}`) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES).map((n) => `{{/${n}}}`) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES).map((n) => `{{^${n}}}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{{> footer}}',
      '{{> nope}}',
      '{{! note }}',
      '{{{a}}}',
      '{{&b}}',
      '{{=<% %>=}}',
      '{{',
      '}}',
      '{{resource:docs://one}}',
      '{{resource:docs://*}}',
      '{{resource:docs://missing}}',
    ),
  },
);

/** Well-nested templates (most cases) and token soup (the rest, mostly definition errors). */
const nestedTemplate: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 8 }),
    fc.constantFrom(...NAMES, 'obj.k', 'missing', '__proto__').map((n) => `{{${n}}}`),
    fc
      .tuple(fc.constantFrom('#', '^'), fc.constantFrom(...NAMES), fc.array(tie('node'), { maxLength: 3 }))
      .map(([kind, n, inner]) => `{{${kind}${n}}}${inner.join('')}{{/${n}}}`),
    fc.constantFrom(
      '{{> footer}}',
      '{{! note }}',
      '{{{a}}}',
      '{{resource:docs://one}}',
      '{{resource:docs://*}}',
      '{{#xs}}{{.}}{{/xs}}',
    ),
  ),
})).node;
const template = fc.oneof(
  { weight: 3, arbitrary: fc.array(nestedTemplate, { maxLength: 4 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')) },
);

/** Arguments for the declared names: scalars, lists (sometimes long) and objects. */
const args = fc.record(
  {
    a: hostileString,
    b: fc.oneof(hostileString, fc.integer(), fc.boolean()),
    xs: fc.oneof(
      fc.array(hostileJson, { maxLength: 6 }),
      fc.integer({ min: 0, max: 5_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
    ),
    ys: fc.array(fc.oneof(hostileString, fc.dictionary(fc.constantFrom('a', 'b', 'k'), hostileJson, { maxKeys: 3 })), {
      maxLength: 6,
    }),
    obj: fc.dictionary(fc.constantFrom('k', 'a', '__proto__'), hostileJson, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

const resources = createMemoryResourceResolver({ 'docs://one': 'Doc {{a}} one', 'docs://two': 'x'.repeat(10_000) });

/** One registry for every case: each case replaces the one prompt (a registry per case would measure ajv set-up). */
const registry = new PromptRegistry({ partials: { footer: '-- {{a}} --' }, resources, undeclaredPlaceholders: 'warn' });

function register(text: string, role: 'user' | 'assistant'): PromptRegistry | undefined {
  try {
    registry.set({
      name: 'generated',
      arguments: [
        { name: 'a' },
        { name: 'b' },
        { name: 'xs', type: 'array' },
        { name: 'ys', type: 'array' },
        { name: 'obj', type: 'object' },
      ],
      messages: [{ role, content: text }],
    });
    return registry;
  } catch (error) {
    if (error instanceof PromptError && error.code === 'INVALID_PROMPT_DEFINITION') return undefined;
    throw error;
  }
}

describe('rendering generated templates', () => {
  it(
    'refuses a template at registration or renders every request to a spec result or a -32602, within bounds',
    async () => {
      let rendered = 0;
      await checkProperty(
        'render: generated templates',
        fc.tuple(template, fc.constantFrom('user' as const, 'assistant' as const), args),
        async ([text, role, values]) => {
          const r = register(text, role);
          if (r === undefined) return;
          await withinBudget('render', async () => {
            try {
              expectSpecResult(await r.getPrompt('generated', values));
              rendered++;
            } catch (error) {
              if (!(error instanceof PromptError) || error.rpcCode !== -32602) throw error;
            }
          });
          expectPrototypeUntouched();
        },
      );
      // The generator is only useful while most templates it makes are valid ones.
      expect(rendered).toBeGreaterThan(runsFor('render: generated templates') / 4);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'stops amplifying templates (nested sections over long lists) within bounds, with a result or LIMIT_EXCEEDED',
    async () => {
      const nested = fc
        .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('{{a}}', '', '{{.}}', 'x', '{{resource:docs://two}}'))
        .map(([depth, body]) => `${'{{#xs}}'.repeat(depth)}${body}${'{{/xs}}'.repeat(depth)}`);
      const long = fc.integer({ min: 1, max: 10_000 }).map((n) => Array.from({ length: n }, (_, i) => i % 2));
      await checkProperty(
        'render: amplifying templates',
        fc.tuple(nested, long, fc.string({ maxLength: 2_000 })),
        async ([text, xs, a]) => {
          const r = register(text, 'user');
          if (r === undefined) return;
          await withinBudget('amplifying render', async () => {
            try {
              expectSpecResult(await r.getPrompt('generated', { xs, a }));
            } catch (error) {
              if (!(error instanceof PromptError) || error.rpcCode !== -32602) throw error;
            }
          });
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
