/**
 * The conformance suite's prompt, completion and resource checks in the 2026-07-28 protocol era, which the suite
 * (0.1.x) does not speak: the official SDK v2 client negotiates that era (`server/discover`, no `initialize`) and
 * makes the suite's requests with the suite's arguments, and each answer gets the suite's checks. resources/subscribe
 * is not part of that era (`subscriptions/listen` replaces it), so it is not asked. Returns the failed checks.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** [check name, request, what must hold of its result (a list of problems, empty when it passes)] */
const CHECKS = [
  [
    'prompts-list',
    (c) => c.listPrompts(),
    (r) => r.prompts.flatMap((p, i) => (p.name && p.description ? [] : [`prompt ${i}: missing name or description`])),
  ],
  [
    'prompts-get-simple',
    (c) => c.getPrompt({ name: 'test_simple_prompt' }),
    (r) =>
      r.messages.length > 0 && r.messages.every((m) => m.role && m.content)
        ? []
        : ['no messages with role and content'],
  ],
  [
    'prompts-get-with-args',
    (c) => c.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'testValue1', arg2: 'testValue2' } }),
    (r) =>
      ['testValue1', 'testValue2']
        .filter((v) => !JSON.stringify(r.messages).includes(v))
        .map((v) => `${v} not substituted`),
  ],
  [
    'prompts-get-embedded-resource',
    (c) =>
      c.getPrompt({
        name: 'test_prompt_with_embedded_resource',
        arguments: { resourceUri: 'test://example-resource' },
      }),
    (r) =>
      r.messages.some((m) => m.content?.type === 'resource' && m.content.resource?.uri) ? [] : ['no embedded resource'],
  ],
  [
    'prompts-get-with-image',
    (c) => c.getPrompt({ name: 'test_prompt_with_image' }),
    (r) =>
      r.messages.some((m) => m.content?.type === 'image' && m.content.data && m.content.mimeType)
        ? []
        : ['no image content'],
  ],
  [
    'completion-complete',
    (c) =>
      c.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'test' },
      }),
    (r) => (Array.isArray(r.completion?.values) ? [] : ['no completion.values array']),
  ],
  [
    'resources-list',
    (c) => c.listResources(),
    (r) => r.resources.flatMap((x, i) => (x.uri && x.name ? [] : [`resource ${i}: missing uri or name`])),
  ],
  [
    'resources-read-text',
    (c) => c.readResource({ uri: 'test://static-text' }),
    (r) => (r.contents[0]?.uri && r.contents[0].mimeType && r.contents[0].text ? [] : ['no uri, mimeType and text']),
  ],
  [
    'resources-read-binary',
    (c) => c.readResource({ uri: 'test://static-binary' }),
    (r) => (r.contents[0]?.uri && r.contents[0].mimeType && r.contents[0].blob ? [] : ['no uri, mimeType and blob']),
  ],
];

/**
 * Runs every check over `transport` (`{ url }` for streamable HTTP, `{ command, args }` for stdio); resolves with the
 * failures (`'<check>: <problem>'`), empty when all pass.
 */
export async function modernEraChecks(transport) {
  const client = new Client(
    { name: 'mcp-prompt-kit-conformance', version: '1.0.0' },
    {
      versionNegotiation: { mode: 'auto' },
    },
  );
  const failures = [];
  await client.connect(
    transport.url !== undefined
      ? new StreamableHTTPClientTransport(new URL(transport.url))
      : new StdioClientTransport({
          command: transport.command,
          args: transport.args,
          env: { ...process.env },
          stderr: 'ignore',
        }),
  );
  try {
    for (const [name, request, problems] of CHECKS) {
      try {
        const result = await request(client);
        // Every 2026-07-28 result names its server in _meta: proof that this era, not initialize, answered.
        const found = result._meta?.[SERVER_INFO] === undefined ? ['answered outside the 2026-07-28 era'] : [];
        found.push(...problems(result));
        for (const problem of found) failures.push(`${name}: ${problem}`);
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await client.close();
  }
  return failures;
}
