/**
 * Generated JSON-RPC messages, as objects and as text: `handleJsonRpc` answers each with a JSON-RPC response (or
 * nothing for a notification), a client mistake never with -32603, within the per-case CPU and heap bounds.
 */
import { describe, it } from 'vitest';
import { handleJsonRpc } from '../../src/protocol.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import type { JsonRpcResponse } from '../../src/types.js';
import {
  amplifyingJsonText,
  checkProperty,
  CLIENT_ERROR_CODES,
  expectPrototypeUntouched,
  expectSpecResult,
  fc,
  hostileJson,
  hostileKey,
  hostileString,
  hostileText,
  PROPERTY_TIMEOUT_MS,
  expectUnchanged,
  holds,
  snapshot,
  withinBudget,
} from '../support/properties.js';

const registry = new PromptRegistry({ pageSize: 2 });
registry.add([
  {
    name: 'review_code',
    arguments: [
      { name: 'code', required: true },
      { name: 'language', enum: ['ts', 'py'] },
    ],
    messages: [{ role: 'user', content: 'Review {{language}}: {{code}}' }],
  },
  {
    name: 'count',
    arguments: [
      { name: 'n', type: 'integer', maximum: 100 },
      { name: 'xs', type: 'array' },
    ],
    messages: [{ role: 'assistant', content: '{{n}} {{#xs}}{{.}},{{/xs}}' }],
  },
  { name: 'plain', messages: [{ role: 'user', content: 'Hello' }] },
]);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('prompts/get', 'prompts/list', 'completion/complete') },
  { weight: 1, arbitrary: hostileString },
);
const params = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('review_code', 'count', 'plain', 'missing'), hostileJson),
      arguments: fc.oneof(
        fc.dictionary(fc.oneof(fc.constantFrom('code', 'language', 'n', 'xs'), hostileKey), hostileJson, {
          maxKeys: 4,
        }),
        hostileJson,
      ),
      cursor: fc.oneof(hostileString, fc.constantFrom('eyJuIjoicGxhaW4ifQ', '')),
      ref: fc.oneof(
        fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource', 'x'), name: hostileJson, uri: hostileJson }),
        hostileJson,
      ),
      argument: fc.oneof(fc.record({ name: hostileJson, value: hostileJson }), hostileJson),
      context: hostileJson,
      _meta: hostileJson,
    },
    { requiredKeys: [] },
  ),
  hostileJson,
);
const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: hostileJson }),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), hostileJson),
    method,
    params,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

/** The response of one message is well-formed JSON-RPC and blames the client for what the client sent. */
function expectResponse(response: JsonRpcResponse | null): void {
  if (response === null) return;
  holds(response.jsonrpc === '2.0', () => `jsonrpc is ${String(response.jsonrpc)}`);
  if ('error' in response) {
    const { code, message } = response.error;
    holds(CLIENT_ERROR_CODES.includes(code), () => `a client mistake was answered ${code}: ${String(message)}`);
    holds(typeof message === 'string', () => `error.message is a ${typeof message}`);
    holds(typeof JSON.stringify(response) === 'string', () => 'the response does not serialize');
  } else if (response.result !== null && typeof response.result === 'object' && 'messages' in response.result) {
    expectSpecResult(response.result);
  }
}

describe('handleJsonRpc over generated messages', () => {
  it(
    'answers any parsed message with a JSON-RPC response and never -32603, mutating nothing',
    async () => {
      await checkProperty(
        'protocol: JSON-RPC messages',
        fc.oneof({ weight: 5, arbitrary: message }, { weight: 1, arbitrary: hostileJson }),
        async (m) => {
          const before = snapshot(m);
          expectResponse(await withinBudget('handleJsonRpc(object)', () => handleJsonRpc(registry, m)));
          expectUnchanged(before, m, 'the message');
          expectPrototypeUntouched();
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any message text (valid, truncated, with numbers JSON.parse changes, duplicate keys) the same way',
    async () => {
      await checkProperty('protocol: JSON-RPC texts', hostileText(message), async (text) => {
        expectResponse(await withinBudget('handleJsonRpc(text)', () => handleJsonRpc(registry, text)));
        expectPrototypeUntouched();
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers amplifying arguments texts up to a request body’s size within bounds',
    async () => {
      await checkProperty('protocol: amplifying texts', amplifyingJsonText(1024 * 1024 - 200), async (args) => {
        const text = `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"count","arguments":${args}}}`;
        expectResponse(await withinBudget('handleJsonRpc(amplifying text)', () => handleJsonRpc(registry, text)));
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
