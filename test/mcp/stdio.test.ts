/**
 * The adapter contract over stdio: a real child process (SDK v1 or v2 McpServer with attachPrompts) and a real SDK
 * client. One process per pairing and page size, all started together before the first test and shared by that
 * pairing's tests (the registry-changing test runs last); the registry is changed from the test through a tool the
 * child registers beside the prompts.
 */
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioClientV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport as StdioClientV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll } from 'vitest';
import { describeAdapterContract } from './contract.js';
import type { ContractSession } from './contract.js';
import type { ClientKind } from './fixtures/clients.js';
import { createTestClient } from './fixtures/clients.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

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
    ...childCoverageEnv(),
    PATH: process.env['PATH'] ?? '',
    DEBOUNCE_MS: String(DEBOUNCE_MS),
    ...(pageSize === undefined ? {} : { PAGE_SIZE: String(pageSize) }),
  };
  const params = {
    command: process.execPath,
    args: [...tsNodeArgs(FIXTURE), mode],
    env,
    stderr: 'inherit' as const,
  };
  return clientKind === 'v1' ? new StdioClientV1(params) : new StdioClientV2(params);
}

/** The server process of one pairing and page size, connected (started once, shared by the pairing's tests). */
function openSession(
  mode: ServerMode,
  clientKind: ClientKind,
  modern: boolean,
  pageSize: number | undefined,
): Promise<ContractSession> {
  return (async () => {
    const client = createTestClient(clientKind, { modern });
    await client.connect(transportFor(clientKind, mode, pageSize));
    const s: ContractSession = {
      client,
      debounceMs: DEBOUNCE_MS,
      change: async (kind) => {
        await client.callTool('change_prompts', { kind });
      },
      // The child's timers run in its own process: it waits past its debounce window itself, then answers.
      settle: async () => {
        await client.callTool('settle', { ms: DEBOUNCE_MS + 1 });
      },
      close: () => client.close(),
    };
    running.push(s);
    return s;
  })();
}

/** The page sizes the contract asks for: every process starts at once, before the first test, instead of one by one. */
const PAGE_SIZES = [undefined, 2] as const;
const sessions = new Map<string, Promise<ContractSession>>();
const keyOf = (pairing: number, pageSize: number | undefined): string => `${pairing}:${String(pageSize)}`;
beforeAll(async () => {
  PAIRINGS.forEach(([mode, clientKind, modern], pairing) => {
    for (const pageSize of PAGE_SIZES)
      sessions.set(keyOf(pairing, pageSize), openSession(mode, clientKind, modern, pageSize));
  });
  await Promise.all(sessions.values());
}, 120_000);

PAIRINGS.forEach(([mode, clientKind, modern], pairing) => {
  const era = modern ? ' (2026-07-28 era)' : '';
  describeAdapterContract(`attachPrompts over stdio: ${mode} server process, ${clientKind} client${era}`, (options) => {
    const key = keyOf(pairing, options.pageSize);
    let session = sessions.get(key);
    if (session === undefined) sessions.set(key, (session = openSession(mode, clientKind, modern, options.pageSize)));
    // The contract closes its session after each test; this process lives until afterAll.
    return session.then((s) => ({ ...s, close: async () => {} }));
  });
});
