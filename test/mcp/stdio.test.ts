/**
 * The adapter contract over stdio: a real child process (SDK v1 or v2 McpServer with attachPrompts) and a real SDK
 * client. One process per pairing and page size, shared by that pairing's tests (the registry-changing test runs
 * last); the registry is changed from the test through a tool the child registers beside the prompts.
 */
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioClientV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport as StdioClientV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll } from 'vitest';
import { describeAdapterContract } from './contract.js';
import type { ContractSession } from './contract.js';
import type { ClientKind } from './fixtures/clients.js';
import { createTestClient } from './fixtures/clients.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/stdio-server.ts', import.meta.url));
const DEBOUNCE_MS = 25;

type ServerMode = 'v1' | 'v2' | 'v2-serve';
/** [server process, client, client negotiates the 2026-07-28 era] */
const PAIRINGS: readonly [ServerMode, ClientKind, boolean][] = [
  ['v1', 'v1', false],
  ['v1', 'v2', false],
  ['v2', 'v1', false],
  ['v2-serve', 'v2', false],
  ['v2-serve', 'v2', true],
];

const running: ContractSession[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function transportFor(clientKind: ClientKind, mode: ServerMode, pageSize: number | undefined): unknown {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    DEBOUNCE_MS: String(DEBOUNCE_MS),
    ...(pageSize === undefined ? {} : { PAGE_SIZE: String(pageSize) }),
  };
  const params = { command: process.execPath, args: ['--import', 'tsx', FIXTURE, mode], env, stderr: 'inherit' as const };
  return clientKind === 'v1' ? new StdioClientV1(params) : new StdioClientV2(params);
}

for (const [mode, clientKind, modern] of PAIRINGS) {
  const sessions = new Map<string, Promise<ContractSession>>();
  const era = modern ? ' (2026-07-28 era)' : '';
  describeAdapterContract(`attachPrompts over stdio: ${mode} server process, ${clientKind} client${era}`, (options) => {
    const key = String(options.pageSize);
    let session = sessions.get(key);
    if (session === undefined) {
      session = (async () => {
        const client = createTestClient(clientKind, { modern });
        await client.connect(transportFor(clientKind, mode, options.pageSize));
        const s: ContractSession = {
          client,
          debounceMs: DEBOUNCE_MS,
          change: async (kind) => {
            await client.callTool('change_prompts', { kind });
          },
          close: () => client.close(),
        };
        running.push(s);
        return s;
      })();
      sessions.set(key, session);
    }
    // The contract closes its session after each test; this process lives until afterAll.
    return session.then((s) => ({ ...s, close: async () => {} }));
  });
}
