/**
 * The adapter contract: one suite, run for every pairing of SDK server (v1/v2, Server/McpServer) and SDK client
 * (v1/v2), in memory and over stdio.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PromptRegistry } from '../../src/registry/registry.js';
import type { TestClient } from './fixtures/clients.js';
import { waitFor, wireError } from './fixtures/clients.js';
import { testPrompts } from './fixtures/prompts.js';

export interface ContractSession {
  client: TestClient;
  /** The registry the server serves; undefined when it lives in another process. */
  registry?: PromptRegistry;
  /** Changes the server's registry: in process directly, across processes through a tool. */
  change(kind: 'burst' | 'one'): Promise<void>;
  /** Detaches the prompts from the server; undefined when not reachable from the test. */
  detach?: () => void;
  debounceMs: number;
  /** Resolves once every notification the server scheduled before the call has reached the client. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface ContractOptions {
  pageSize?: number;
}

export type OpenSession = (options: ContractOptions) => Promise<ContractSession>;

const sortedNames = testPrompts.map((p) => p.name).sort();

/** Registers the contract tests for one server/client pairing. */
export function describeAdapterContract(title: string, open: OpenSession): void {
  describe(title, () => {
    let session: ContractSession | undefined;
    const start = async (options: ContractOptions = {}): Promise<ContractSession> => {
      session = await open(options);
      return session;
    };
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });

    it('declares prompts.listChanged and completions capabilities', async () => {
      const { client } = await start();
      const caps = client.serverCapabilities();
      expect(caps?.['prompts']).toEqual({ listChanged: true });
      expect(caps?.['completions']).toEqual({});
    });

    it('lists every prompt in one page by default', async () => {
      const { client } = await start();
      const page = await client.listPage();
      expect(page.prompts.map((p) => p.name)).toEqual(sortedNames);
      expect(page.nextCursor).toBeUndefined();
      expect(page.prompts.find((p) => p.name === 'review_code')).toEqual({
        name: 'review_code',
        description: 'Review a snippet of code',
        arguments: [
          { name: 'code', description: 'The code', required: true },
          { name: 'language', description: 'Its language', required: false },
          { name: 'focus', description: 'What to focus on', required: false },
        ],
      });
    });

    it('pages through the prompts with nextCursor when the registry has a page size', async () => {
      const { client } = await start({ pageSize: 2 });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listPage(cursor);
        expect(page.prompts.length).toBeLessThanOrEqual(2);
        seen.push(...page.prompts.map((p) => p.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual(sortedNames);
      expect(pages).toBe(Math.ceil(sortedNames.length / 2));
    });

    it('rejects a cursor it did not issue with -32602', async () => {
      const { client } = await start({ pageSize: 2 });
      const error = await wireError(client.listPage('not-a-cursor'));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('Invalid cursor');
    });

    it('renders a prompt with its arguments', async () => {
      const { client } = await start();
      const result = await client.getPrompt('review_code', { code: 'let a = <b>&"x"', language: 'typescript' });
      expect(result.description).toBe('Review a snippet of code');
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Review this typescript code:\nlet a = <b>&"x"' } },
      ]);
    });

    it('coerces string arguments to their declared types', async () => {
      const { client } = await start();
      const result = await client.getPrompt('add_numbers', { a: '2', b: '0.5', loud: 'true' });
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'number number boolean: 2.5' });
    });

    it('accepts prompts/get without arguments when every argument is optional', async () => {
      const { client } = await start();
      const result = await client.getPrompt('optional_only');
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Write something.' });
    });

    it('answers an unknown prompt with -32602 "Unknown prompt: <name>"', async () => {
      const { client } = await start();
      const error = await wireError(client.getPrompt('no_such_prompt'));
      expect(error).toEqual({ code: -32602, message: 'Unknown prompt: no_such_prompt' });
    });

    it('answers a missing argument with -32602 and missing_arguments, provided_count, required_count', async () => {
      const { client } = await start();
      const error = await wireError(client.getPrompt('review_code', { language: 'go' }));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('Missing required prompt arguments');
      expect(error.data).toEqual({ missing_arguments: ['code'], provided_count: 1, required_count: 1 });
    });

    it('answers an invalid argument with -32602 and schema details', async () => {
      const { client } = await start();
      const error = await wireError(client.getPrompt('add_numbers', { a: 'two', b: '1' }));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('Prompt arguments do not conform to schema');
      expect(error.data).toMatchObject({ error_type: 'schema_validation_failed' });
    });

    it('answers a render failure with -32603 and a generic message', async () => {
      const { client } = await start();
      const error = await wireError(client.getPrompt('broken'));
      expect(error).toEqual({ code: -32603, message: 'Internal error' });
    });

    it('answers malformed params with -32602, never -32603', async () => {
      const { client } = await start();
      const error = await wireError(client.raw('prompts/get', { name: 42 }));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('params.name must be a string');
    });

    it('completes an enum argument by case-insensitive prefix', async () => {
      const { client } = await start();
      const result = await client.complete('review_code', 'language', 'PY');
      expect(result.completion).toEqual({ values: ['python'], total: 1, hasMore: false });
    });

    it('completes an argument from its complete() function', async () => {
      const { client } = await start();
      const result = await client.complete('plan_trip', 'city', 'par', { days: '3' });
      expect(result.completion).toEqual({ values: ['paris', 'park', 'party'], total: 3, hasMore: false });
    });

    it('answers completion for an unknown prompt with -32602', async () => {
      const { client } = await start();
      const error = await wireError(client.complete('no_such_prompt', 'x', ''));
      expect(error).toEqual({ code: -32602, message: 'Unknown prompt: no_such_prompt' });
    });

    it('sends notifications/prompts/list_changed exactly once for a burst of changes', async () => {
      const s = await start();
      await s.change('burst');
      await waitFor(() => s.client.listChangedCount() >= 1);
      await s.settle();
      expect(s.client.listChangedCount()).toBe(1);
      const names = (await s.client.listPage()).prompts.map((p) => p.name);
      expect(names).toContain('added_b');
      expect(names).not.toContain('added_a');

      await s.change('one');
      await waitFor(() => s.client.listChangedCount() >= 2);
      await s.settle();
      expect(s.client.listChangedCount()).toBe(2);
    });
  });
}
