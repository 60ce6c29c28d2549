/**
 * The adapter contract over in-memory transports: every SDK server kind against both SDK clients.
 */
import { attachPrompts } from '../../src/mcp/index.js';
import { describeAdapterContract } from './contract.js';
import { CLIENT_KINDS, createTestClient, linkedPair, settled } from './fixtures/clients.js';
import { changeRegistry, createTestRegistry } from './fixtures/prompts.js';
import { SERVER_KINDS, createTestServer } from './fixtures/servers.js';

const DEBOUNCE_MS = 20;

for (const serverKind of SERVER_KINDS) {
  for (const clientKind of CLIENT_KINDS) {
    describeAdapterContract(`attachPrompts: ${serverKind} server, ${clientKind} client, in memory`, async (options) => {
      const registry = createTestRegistry(options.pageSize === undefined ? {} : { pageSize: options.pageSize });
      const server = createTestServer(serverKind);
      const detach = attachPrompts(server.attachable, registry, { debounceMs: DEBOUNCE_MS });
      const client = createTestClient(clientKind);
      const [clientSide, serverSide] = linkedPair(clientKind);
      await server.connect(serverSide);
      await client.connect(clientSide);
      return {
        client,
        registry,
        detach,
        debounceMs: DEBOUNCE_MS,
        settle: () => settled(client, DEBOUNCE_MS),
        change: async (kind) => changeRegistry(registry, kind),
        close: async () => {
          await client.close();
          await server.close();
        },
      };
    });
  }
}
