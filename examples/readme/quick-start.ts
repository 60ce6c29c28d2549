import { PromptRegistry, createMemoryResourceResolver, definePrompt } from 'mcp-prompt-kit';

const registry = new PromptRegistry({
  resources: createMemoryResourceResolver({ 'docs://guidelines': '- Prefer pure functions.' }),
});

registry.add(
  definePrompt({
    name: 'review_code',
    description: 'Review a snippet against our guidelines',
    arguments: [
      { name: 'code', required: true, maxLength: 10_000 },
      { name: 'language', enum: ['typescript', 'python', 'go'], default: 'typescript' },
      { name: 'focus' },
    ],
    messages: [
      {
        role: 'user',
        content:
          'Review this {{language}} code:\n{{code}}\n{{#focus}}Focus on: {{focus}}\n{{/focus}}' +
          'Guidelines:\n{{resource:docs://guidelines}}',
      },
    ],
  }),
);

registry.list(); // { prompts: [{ name: 'review_code', description: ..., arguments: [...] }] }
await registry.getPrompt('review_code', { code: 'a < b && c' });
// { description: ..., messages: [{ role: 'user', content: { type: 'text', text: 'Review this typescript code:\na < b && c\n...' } }] }

registry.add(
  definePrompt({
    name: 'summarize',
    arguments: [
      { name: 'text', required: true },
      { name: 'bullets', type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ],
    render: (args) => `Summarize in ${args.bullets} bullet points:\n\n${args.text}`,
  }),
);

// What docs/prompts.md's comments promise (run by test/readme.test.ts):
import assert from 'node:assert/strict';

const listed = registry.list().prompts;
assert.deepEqual(
  listed.map((p) => p.name),
  ['review_code', 'summarize'],
);
const review = await registry.getPrompt('review_code', { code: 'a < b && c' });
const first = review.messages[0]?.content;
assert.equal(first?.type, 'text');
assert.ok(first.type === 'text' && first.text.startsWith('Review this typescript code:\na < b && c\n'));
assert.ok(first.type === 'text' && first.text.includes('- Prefer pure functions.'));
const summary = await registry.getPrompt('summarize', { text: 'Long text' });
assert.deepEqual(summary.messages[0]?.content, { type: 'text', text: 'Summarize in 3 bullet points:\n\nLong text' });
