import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachPrompts } from '../../src/mcp/index.js';
import { sharedCases } from '../support/shared-cases.js';
import type { SharedCase, WireOutcome } from '../support/shared-cases.js';
import { createTestClient, linkedPair, wireError } from './fixtures/clients.js';
import type { ClientKind, TestClient } from './fixtures/clients.js';
import { createTestServer } from './fixtures/servers.js';
import type { ServerKind, TestServer } from './fixtures/servers.js';

// The shared case tables, end to end through a real SDK server and client of each major version. Only rows the
// MCP wire can carry (argument values as strings) are sent; typed-JSON rows run through handleJsonRpc elsewhere.
const pairs: [ServerKind, ClientKind][] = [
  ['v1-server', 'v1'],
  ['v2-mcp', 'v2'],
];

async function outcome(client: TestClient, c: SharedCase): Promise<WireOutcome> {
  try {
    const result = await client.getPrompt(c.name, c.arguments as Record<string, string> | undefined);
    const content = result.messages[0]?.content;
    return { text: content?.type === 'text' ? content.text : `<${content?.type}>` };
  } catch (error) {
    return { error: await wireError(Promise.reject(error)) };
  }
}

for (const [serverKind, clientKind] of pairs) {
  describe(`shared case tables over SDK ${serverKind} <-> ${clientKind} client`, () => {
    const rows = sharedCases().filter((c) => c.wire);
    const connections: { server: TestServer; client: TestClient }[] = [];

    beforeAll(async () => {
      for (const c of rows) {
        const server = createTestServer(serverKind);
        attachPrompts(server.attachable, c.registry);
        const client = createTestClient(clientKind);
        const [clientSide, serverSide] = linkedPair(clientKind);
        await server.connect(serverSide);
        await client.connect(clientSide);
        connections.push({ server, client });
      }
    });

    afterAll(async () => {
      for (const { client, server } of connections) {
        await client.close();
        await server.close();
      }
    });

    rows.forEach((c, i) => {
      it(c.title, async () => {
        expect(await outcome(connections[i]!.client, c)).toEqual(c.expected);
      });
    });
  });
}
