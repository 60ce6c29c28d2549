/**
 * `npm run demo`: mcp-prompt-kit at work in one minute, with no server and no network.
 * Defines three prompts, lists them, renders one, and shows what clients see when they get it wrong.
 */
import {
  PromptRegistry,
  buildErrorResponse,
  buildSuccessResponse,
  createMemoryResourceResolver,
  definePrompt,
  errorResponseFor,
  handleJsonRpc,
} from '../src/index.js';

// Bold headings only on a terminal (or FORCE_COLOR), never with NO_COLOR (no-color.org) or when piped.
const color =
  (process.env['NO_COLOR'] ?? '') === '' && (process.stdout.isTTY === true || process.env['FORCE_COLOR'] !== undefined);
const heading = (text: string): void => console.log(color ? `\n\x1b[1m== ${text} ==\x1b[0m` : `\n== ${text} ==`);
const show = (value: unknown): void => console.log(JSON.stringify(value, null, 2));

// 1. Prompts are data (templates) or code (a render function).
const reviewCode = definePrompt({
  name: 'review_code',
  title: 'Review code',
  description: 'Review a snippet against our coding guidelines',
  arguments: [
    { name: 'code', description: 'The code to review', required: true, maxLength: 10_000 },
    { name: 'language', description: 'Its language', enum: ['typescript', 'python', 'go'], default: 'typescript' },
    { name: 'focus', description: 'What to focus on (optional)' },
  ],
  messages: [
    {
      role: 'user',
      content:
        'Review this {{language}} code:\n```{{language}}\n{{code}}\n```\n{{#focus}}Focus on: {{focus}}\n{{/focus}}' +
        'Our guidelines:\n{{resource:docs://guidelines}}',
    },
    { role: 'assistant', content: 'Understood. I will review it against the guidelines.' },
  ],
});

const summarize = definePrompt({
  name: 'summarize',
  description: 'Summarize a text in a number of bullet points',
  arguments: [
    { name: 'text', required: true },
    { name: 'bullets', type: 'integer', minimum: 1, maximum: 10, default: 3 },
  ],
  // args.bullets is typed `number`: the wire sends "5", the validator coerces it.
  render: (args) => `Summarize the following in ${args.bullets} bullet points:\n\n${args.text}`,
});

const greet = definePrompt({
  name: 'greet',
  description: 'A friendly greeting',
  arguments: [{ name: 'name', required: true }],
  messages: [{ role: 'user', content: 'Say hello to {{name}} <they like "quotes" & ampersands>.' }],
});

const registry = new PromptRegistry({
  resources: createMemoryResourceResolver({
    'docs://guidelines': '- Prefer pure functions.\n- Name things for what they mean.',
  }),
});
registry.add([reviewCode, summarize, greet]);

heading('prompts/list');
show(registry.list());

heading('prompts/get review_code (with a resource embedded)');
show(await registry.getPrompt('review_code', { code: 'const x = a < b && c;', focus: 'readability' }));

heading('prompts/get greet (never HTML-escaped)');
show(await registry.getPrompt('greet', { name: 'Ada & <Bob>' }));

heading('prompts/get summarize (programmatic, "5" coerced to 5)');
show(await registry.getPrompt('summarize', { text: 'MCP prompts are templates.', bullets: '5' }));

heading('JSON-RPC: a missing argument is -32602 with data');
show(
  await handleJsonRpc(registry, {
    jsonrpc: '2.0',
    id: 1,
    method: 'prompts/get',
    params: { name: 'review_code', arguments: { focus: 'x' } },
  }),
);

heading('JSON-RPC: a schema error is -32602 with details');
show(
  await handleJsonRpc(registry, {
    jsonrpc: '2.0',
    id: 2,
    method: 'prompts/get',
    params: { name: 'review_code', arguments: { code: 'x', language: 'cobol' } },
  }),
);

heading('JSON-RPC: an unknown prompt');
show(await handleJsonRpc(registry, { jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'review-code' } }));

heading('One response format for HTTP, CGI and tool results');
show(buildSuccessResponse([42]));
show(buildSuccessResponse([10, 20]));
show(buildErrorResponse('Invalid JSON body'));
// Any thrown error, mapped through the one error table (internal details never reach the client):
await registry.getPrompt('nope').catch((error: unknown) => show(errorResponseFor(error)));
