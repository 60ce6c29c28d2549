/**
 * Generated prompts/get, prompts/list and completion/complete params sent by the real SDK clients (v1 and v2) to
 * real SDK servers with attachPrompts, over in-memory transports: every answer is a spec result or a client error
 * (never -32603), within the per-case CPU and heap bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachPrompts } from '../../src/mcp/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import {
  checkProperty,
  CLIENT_ERROR_CODES,
  expectPrototypeUntouched,
  expectSpecResult,
  fc,
  hostileJson,
  hostileKey,
  hostileString,
  PROPERTY_TIMEOUT_MS,
  withinBudget,
} from '../support/properties.js';
import type { PropertyName } from '../support/properties.js';
import { createTestClient, linkedPair } from './fixtures/clients.js';
import type { ClientKind, TestClient } from './fixtures/clients.js';
import { createTestServer } from './fixtures/servers.js';
import type { ServerKind, TestServer } from './fixtures/servers.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

function registry(): PromptRegistry {
  const r = new PromptRegistry({ pageSize: 2 });
  r.add([
    {
      name: 'review_code',
      arguments: [
        { name: 'code', required: true },
        { name: 'language', enum: ['typescript', 'python'] },
        { name: 'n', type: 'integer', maximum: 9 },
      ],
      messages: [{ role: 'user', content: 'Review {{language}} {{n}}: {{code}}' }],
    },
    { name: 'plain', messages: [{ role: 'assistant', content: 'Hello' }] },
    {
      name: 'items',
      arguments: [{ name: 'xs', type: 'array' }],
      messages: [{ role: 'user', content: '{{#xs}}{{.}};{{/xs}}' }],
    },
  ]);
  return r;
}

const call = fc.oneof(
  fc.record({
    method: fc.constant('prompts/get'),
    params: fc.record(
      {
        name: fc.oneof(fc.constantFrom('review_code', 'plain', 'items', 'nope'), hostileJson),
        arguments: fc.oneof(
          fc.dictionary(
            fc.oneof(fc.constantFrom('code', 'language', 'n', 'xs'), hostileKey),
            fc.oneof(hostileString, hostileJson),
            { maxKeys: 4 },
          ),
          hostileJson,
        ),
        // An object: SDK v2 itself never answers a request whose _meta is not one (any method, with or without us).
        _meta: fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    method: fc.constant('prompts/list'),
    params: fc.record({ cursor: fc.oneof(hostileString, hostileJson) }, { requiredKeys: [] }),
  }),
  fc.record({
    method: fc.constant('completion/complete'),
    params: fc.record(
      {
        ref: fc.oneof(
          fc.record({
            type: fc.constant('ref/prompt'),
            name: fc.oneof(fc.constantFrom('review_code', 'nope'), hostileJson),
          }),
          hostileJson,
        ),
        argument: fc.oneof(
          fc.record({
            name: fc.oneof(fc.constantFrom('language', 'code'), hostileJson),
            value: fc.oneof(hostileString, hostileJson),
          }),
          hostileJson,
        ),
        context: hostileJson,
      },
      { requiredKeys: [] },
    ),
  }),
);

/** Fails a request that is never answered (a hang) instead of waiting for the test's own timeout. */
function answered<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${EVENT_WAIT_MS} ms`)), EVENT_WAIT_MS);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

async function outcome(client: TestClient, method: string, params: Record<string, unknown>): Promise<void> {
  try {
    const result = await answered(client.raw(method, params), method);
    if (method === 'prompts/get') expectSpecResult(result);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'number') throw error; // not a JSON-RPC error: the SDK client's own schema refused a result
    expect(CLIENT_ERROR_CODES, `${method}: ${String((error as Error).message).slice(0, 300)}`).toContain(code);
  }
}

const PAIRS: [ServerKind, ClientKind, PropertyName][] = [
  ['v1-mcp', 'v1', 'mcp: SDK v1 adapter'],
  ['v2-mcp', 'v2', 'mcp: SDK v2 adapter'],
];

for (const [serverKind, clientKind, property] of PAIRS) {
  describe(`attachPrompts on a ${serverKind} server with a ${clientKind} client`, () => {
    let server: TestServer;
    let client: TestClient;
    beforeAll(async () => {
      server = createTestServer(serverKind);
      attachPrompts(server.attachable, registry());
      client = createTestClient(clientKind);
      const [clientSide, serverSide] = linkedPair(clientKind);
      await server.connect(serverSide);
      await client.connect(clientSide);
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    it(
      'answers any generated params with a spec result or a client error, never -32603',
      async () => {
        await checkProperty(property, call, async ({ method, params }) => {
          await withinBudget(`${serverKind} ${method}`, () =>
            outcome(client, method, params as Record<string, unknown>),
          );
          expectPrototypeUntouched();
        });
      },
      PROPERTY_TIMEOUT_MS,
    );
  });
}
