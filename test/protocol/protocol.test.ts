import { describe, expect, it } from 'vitest';
import { JsonRpcError, PromptError } from '../../src/errors.js';
import { createPromptHandlers, handleJsonRpc, readCompleteParams } from '../../src/protocol.js';
import { PromptRegistry } from '../../src/registry/registry.js';

function registry(): PromptRegistry {
  const r = new PromptRegistry();
  r.add([
    {
      name: 'greet',
      description: 'Say hello',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: 'Hello {{who}}' }],
    },
    { name: 'broken', render: () => ({ messages: 'not an array' }) as never },
  ]);
  return r;
}

async function rpcError(promise: Promise<unknown>): Promise<JsonRpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JsonRpcError) return error;
    throw error;
  }
  throw new Error('expected a JsonRpcError');
}

describe('createPromptHandlers', () => {
  const handlers = createPromptHandlers(registry());

  it.each([
    ['prompts/get', 'a string', 'params must be an object'],
    ['prompts/get', {}, 'params.name must be a string'],
    ['prompts/get', { name: 42 }, 'params.name must be a string'],
    ['prompts/get', { name: 'greet', arguments: ['x'] }, 'params.arguments must be an object'],
    ['prompts/get', { name: 'greet', arguments: 'who=x' }, 'params.arguments must be an object'],
    ['prompts/list', { cursor: 3 }, 'params.cursor must be a string'],
    [
      'completion/complete',
      { ref: { type: 'ref/prompt', name: 'greet' } },
      'params.argument must be {name: string, value: string}',
    ],
    ['completion/complete', { argument: { name: 'who', value: '' } }, 'params.ref must be an object with a type'],
  ] as const)('answers %s with params %j as -32602 "%s"', async (method, params, message) => {
    const error = await rpcError(handlers[method](params));
    expect(error.toJSON()).toEqual({ code: -32602, message });
  });

  it('accepts prompts/get without arguments when the prompt needs none', async () => {
    const r = new PromptRegistry();
    r.add({ name: 'plain', arguments: [{ name: 'x' }], messages: [{ role: 'user', content: 'plain{{x}}' }] });
    const result = await createPromptHandlers(r)['prompts/get']({ name: 'plain' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'plain' });
  });

  it('forwards missing-argument data with a numeric code', async () => {
    const error = await rpcError(handlers['prompts/get']({ name: 'greet', arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ missing_arguments: ['who'], provided_count: 0, required_count: 1 });
  });

  it('hides internal detail behind -32603 "Internal error"', async () => {
    const error = await rpcError(handlers['prompts/get']({ name: 'broken' }));
    expect(error.toJSON()).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('answers completion for a resource reference with no values', async () => {
    const result = await handlers['completion/complete']({
      ref: { type: 'ref/resource', uri: 'file:///x' },
      argument: { name: 'a', value: '' },
    });
    expect(result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });
});

describe('handleJsonRpc', () => {
  const r = registry();

  it('answers a request with a JSON-RPC result', async () => {
    const response = await handleJsonRpc(r, {
      jsonrpc: '2.0',
      id: 7,
      method: 'prompts/get',
      params: { name: 'greet', arguments: { who: 'Ada' } },
    });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { description: 'Say hello', messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }] },
    });
  });

  it('answers unparseable text with -32700 and a null id', async () => {
    expect(await handleJsonRpc(r, '{"jsonrpc":')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });

  it.each([
    [{ id: 1, method: 'prompts/list' }],
    [{ jsonrpc: '1.0', id: 1, method: 'prompts/list' }],
    [{ jsonrpc: '2.0', id: 1, method: 5 }],
    [{ jsonrpc: '2.0', id: { x: 1 }, method: 'prompts/list' }],
    [[{ jsonrpc: '2.0', id: 1, method: 'prompts/list' }]],
    [42],
  ])('answers the malformed request %j with -32600', async (message) => {
    const response = await handleJsonRpc(r, message);
    expect(response && 'error' in response ? response.error.code : undefined).toBe(-32600);
  });

  it('answers an unknown method with -32601', async () => {
    const response = await handleJsonRpc(r, { jsonrpc: '2.0', id: 'a', method: 'tools/list' });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32601, message: 'Method not found: tools/list' },
    });
  });

  it('does not answer a notification', async () => {
    expect(await handleJsonRpc(r, { jsonrpc: '2.0', method: 'prompts/list' })).toBeNull();
  });

  it('answers an unknown prompt with -32602 naming it, never -32603', async () => {
    const response = await handleJsonRpc(r, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'nope' } });
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown prompt: nope' } });
  });
});

describe('handleJsonRpc: numbers in the message text', () => {
  const r = new PromptRegistry();
  r.add({
    name: 'count',
    arguments: [
      { name: 'n', type: 'integer' },
      { name: 'ids', type: 'array', items: { type: 'number' } },
      { name: 'label' },
    ],
    messages: [{ role: 'user', content: 'n={{n}} ids={{ids}} label={{label}}' }],
  });
  const get = (args: string): string =>
    `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"count","arguments":${args}}}`;
  const CHANGED =
    'would become a different integer (a double holds whole numbers exactly only up to ±9007199254740991)';

  it('refuses an argument whose number JSON.parse would change, naming it, never rendering the rounded number', async () => {
    const response = await handleJsonRpc(r, get('{"n":9007199254740993}'));
    const error = (response as { error: { code: number; data: { details: unknown[] } } }).error;
    expect(error.code).toBe(-32602);
    expect(error.data.details).toEqual([{ argument: 'n', keyword: 'exactNumber', message: CHANGED }]);
    expect(JSON.stringify(response)).not.toContain('9007199254740992');
  });

  it('names where a changed number sits inside an array argument', async () => {
    const response = await handleJsonRpc(r, get('{"ids":[1,1e400]}'));
    const error = (response as { error: { code: number; data: { details: unknown[] } } }).error;
    expect(error.code).toBe(-32602);
    expect(error.data.details).toEqual([
      { argument: 'ids', keyword: 'exactNumber', message: '/1: is beyond the range of a double (about ±1.8e308)' },
    ]);
  });

  it('refuses every argument with a changed number even when a changed number outside the arguments comes first', async () => {
    const response = await handleJsonRpc(
      r,
      '{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{"x":1e400},"name":"count","arguments":{"label":"a","n":9007199254740993,"ids":[1e400]}}}',
    );
    const error = (response as { error: { code: number; data: { details: { argument: string; keyword: string }[] } } })
      .error;
    expect(error.code).toBe(-32602);
    expect(error.data.details.map((d) => [d.argument, d.keyword])).toEqual([
      ['n', 'exactNumber'],
      ['ids', 'exactNumber'],
    ]);
  });

  it('reads the arguments JSON.parse keeps when the params or arguments key is repeated', async () => {
    const text = (first: string, second: string): string =>
      `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"count","arguments":${first}},"params":{"name":"count","arguments":${second}}}`;
    const kept = await handleJsonRpc(r, text('{"n":9007199254740993}', '{"n":3}'));
    expect((kept as { result: { messages: { content: { text: string } }[] } }).result.messages[0]?.content.text).toBe(
      'n=3 ids= label=',
    );
    const refused = await handleJsonRpc(r, text('{"n":3}', '{"n":9007199254740993}'));
    expect((refused as { error: { code: number } }).error.code).toBe(-32602);
  });

  it('renders exact numbers, long digit strings and numbers outside the arguments as before', async () => {
    const response = await handleJsonRpc(
      r,
      '{"jsonrpc":"2.0","id":12345678901234567890,"method":"prompts/get","params":{"name":"count","arguments":{"n":9007199254740991,"ids":[1e2,2.50],"label":"12345678901234567890"}}}',
    );
    expect(
      (response as { result: { messages: { content: { text: string } }[] } }).result.messages[0]?.content.text,
    ).toBe('n=9007199254740991 ids=100, 2.5 label=12345678901234567890');
  });
});

describe('handleJsonRpc: client input quoted in errors', () => {
  const huge = 'x'.repeat(1_000_000);
  const cases: [string, Record<string, unknown>][] = [
    ['an unknown prompt name', { method: 'prompts/get', params: { name: huge } }],
    ['an unknown method name', { method: huge }],
    ['an undeclared argument name', { method: 'prompts/get', params: { name: 'strict', arguments: { [huge]: 'v' } } }],
    [
      'a completion of an unknown prompt',
      {
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: huge }, argument: { name: 'a', value: '' } },
      },
    ],
  ];
  for (const [what, request] of cases) {
    it(`answers ${what} of 1 MB with a short message and bounded data`, async () => {
      const r = new PromptRegistry({ extraArguments: 'reject' });
      r.add({ name: 'strict', messages: [{ role: 'user', content: 'hi' }] });
      const response = await handleJsonRpc(r, { jsonrpc: '2.0', id: 1, ...request });
      const error = (response as { error: { code: number; message: string } }).error;
      expect(error.code).toBeGreaterThanOrEqual(-32602);
      expect(error.message.length).toBeLessThan(300);
      expect(JSON.stringify(response).length).toBeLessThan(4_000);
      expect(JSON.stringify(response)).toContain('xxx…');
    });
  }
});

describe('readCompleteParams: bounded client input', () => {
  for (const type of ['ref/prompt', 'ref/resource'] as const) {
    const ref = type === 'ref/prompt' ? { type, name: 'greet' } : { type, uri: 'docs://{id}' };
    it(`refuses an oversized argument.value or context for ${type} with -32602 naming the limit`, () => {
      const read = (params: unknown): PromptError => {
        try {
          readCompleteParams(params);
        } catch (error) {
          if (error instanceof PromptError) return error;
        }
        throw new Error('expected readCompleteParams to throw');
      };
      expect(read({ ref, argument: { name: 'id', value: 'v'.repeat(10_001) } }).toJsonRpcError()).toEqual({
        code: -32602,
        message: 'argument.value exceeds 10000 characters',
      });
      const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']));
      expect(read({ ref, argument: { name: 'id', value: '' }, context: { arguments: wide } }).message).toBe(
        'context.arguments has more than 100 entries',
      );
      expect(
        read({ ref, argument: { name: 'id', value: '' }, context: { arguments: { k: 'v'.repeat(10_001) } } }).message,
      ).toBe('context.arguments entries exceed 10000 characters');
    });
  }
});

describe('createPromptHandlers: null params members', () => {
  it('treats a null cursor like an absent one, as it treats null arguments', async () => {
    const handlers = createPromptHandlers(registry());
    expect((await handlers['prompts/list']({ cursor: null })).prompts.length).toBe(2);
    expect(
      await handlers['prompts/get']({ name: 'greet', arguments: null }).catch((e: JsonRpcError) => e.toJSON()),
    ).toMatchObject({
      code: -32602,
      message: 'Missing required prompt arguments',
    });
  });
});
