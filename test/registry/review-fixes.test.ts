import { describe, expect, it } from 'vitest';
import { PromptRegistry } from '../../src/registry.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';
import { rejectionOf, thrownBy } from '../support/errors.js';

describe('PromptRegistry: listing follows the schema that validates', () => {
  it('lists inputSchema properties with their required flags, titles from arguments, extras as optional', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      arguments: [{ name: 'a', required: true, description: 'from arguments' }, { name: 'extra' }],
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'string', description: 'from schema' }, b: { type: 'string', title: 'B' } },
        required: ['b'],
      },
      render: (args) => JSON.stringify(args),
    });
    expect(registry.get('p')?.arguments).toEqual([
      { name: 'a', description: 'from arguments', required: false },
      { name: 'b', title: 'B', required: true },
      { name: 'extra', required: false },
    ]);
    expect((await rejectionOf(registry.getPrompt('p', { a: 'x' }))).data).toMatchObject({ missing_arguments: ['b'] });
  });

  it('completes from an enum declared only in the inputSchema', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      inputSchema: { type: 'object', properties: { lang: { enum: ['go', 'gleam', 'rust'] } } },
      render: () => 'x',
    });
    expect(await registry.complete('p', 'lang', 'G')).toEqual({ values: ['go', 'gleam'], total: 2, hasMore: false });
  });
});

describe('PromptRegistry: resources and limits', () => {
  it('counts resource blocks toward maxResources even without directives', async () => {
    const resources = createMemoryResourceResolver({ 'doc://a': 'A' });
    const registry = new PromptRegistry({ resources, limits: { maxResources: 2 } });
    const block = { role: 'user' as const, content: { type: 'resource' as const, uri: 'doc://a' } };
    registry.add([
      { name: 'two', messages: [block, block] },
      { name: 'three', messages: [block, block, block] },
    ]);
    expect((await registry.getPrompt('two')).messages).toHaveLength(2);
    const error = await rejectionOf(registry.getPrompt('three'));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toBe('Prompt embeds more than 2 resources');
  });

  it.each([
    ['a directive', { role: 'user' as const, content: 'See {{resource:doc://a}}' }, '/messages'],
    ['a resource block', { role: 'user' as const, content: { type: 'resource' as const, uri: 'doc://a' } }, '/messages/0/content/uri'],
  ])('rejects %s at registration when the registry has no resource resolver', (_what, message, path) => {
    const error = thrownBy(() => new PromptRegistry().add({ name: 'p', messages: [message] }));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((error.data as { problems: { path: string }[] }).problems[0]?.path).toBe(path);
    expect(error.message).toMatch(/resources/);
  });

  it("keeps the resolver's mimeType over the template's fallback", async () => {
    const resources = createMemoryResourceResolver({ 'img://logo': { mimeType: 'image/png', blob: 'AQID' }, 'doc://a': 'A' });
    const registry = new PromptRegistry({ resources });
    registry.add([
      { name: 'logo', messages: [{ role: 'user', content: { type: 'resource', uri: 'img://logo', mimeType: 'text/plain' } }] },
      { name: 'doc', messages: [{ role: 'user', content: { type: 'resource', uri: 'doc://a', mimeType: 'text/markdown' } }] },
    ]);
    expect((await registry.getPrompt('logo')).messages[0]?.content).toMatchObject({ resource: { mimeType: 'image/png' } });
    expect((await registry.getPrompt('doc')).messages[0]?.content).toMatchObject({ resource: { mimeType: 'text/markdown', text: 'A' } });
  });

  it.each([
    [{ limits: { maxResources: Number.NaN } }, 'limits.maxResources must be a non-negative integer, got NaN'],
    [{ limits: { maxRenderedBytes: -1 } }, 'limits.maxRenderedBytes must be a positive integer, got -1'],
    [{ maxArgumentLength: 0 }, 'maxArgumentLength must be a positive integer, got 0'],
    [{ pageSize: 2.5 }, 'pageSize must be a positive integer, got 2.5'],
  ])('rejects the invalid option %j with a RangeError naming it', (options, message) => {
    expect(() => new PromptRegistry(options)).toThrow(new RangeError(message));
  });

  it('counts the description toward the rendered size of a template prompt', async () => {
    const registry = new PromptRegistry({ limits: { maxRenderedBytes: 10 } });
    const text = { role: 'user' as const, content: '{{text}}' };
    registry.add([
      { name: 'fits', description: '12345', arguments: [{ name: 'text' }], messages: [text] },
      { name: 'over', description: '123456', arguments: [{ name: 'text' }], messages: [text] },
    ]);
    await registry.getPrompt('fits', { text: '12345' });
    expect((await rejectionOf(registry.getPrompt('over', { text: '12345' }))).code).toBe('LIMIT_EXCEEDED');
  });
});

describe('PromptRegistry: logs', () => {
  function capture(): { logs: Record<string, unknown>[]; registry: PromptRegistry } {
    const logs: Record<string, unknown>[] = [];
    const sink = (fields: Record<string, unknown>, message: string): void => {
      logs.push({ ...fields, message });
    };
    return { logs, registry: new PromptRegistry({ logger: { error: sink, warn: sink, info: sink, debug: sink } }) };
  }

  it('never logs argument values quoted by an error a render function throws', async () => {
    const { logs, registry } = capture();
    registry.add({
      name: 'parse',
      arguments: [{ name: 'payload', required: true }],
      render: (args) => JSON.stringify(JSON.parse(args.payload as string)),
    });
    const error = await rejectionOf(registry.getPrompt('parse', { payload: '{"token": "hunter2-secret"' }));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt: 'parse', code: 'PROMPT_RENDER_FAILED' });
    expect(String(logs[0]?.['detail'])).toContain('SyntaxError');
    expect(JSON.stringify(logs)).not.toContain('hunter2');
  });

  it('never logs argument values that reached an asset path', async () => {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({
      logger: { error: (fields) => logs.push(fields) },
      assets: {
        read: (path) => {
          throw new Error(`ENOENT: no such file ${path}`);
        },
      },
    });
    registry.add({
      name: 'img',
      arguments: [{ name: 'file', required: true }],
      messages: [{ role: 'user', content: { type: 'image', path: 'images/{{file}}', mimeType: 'image/png' } }],
    });
    await rejectionOf(registry.getPrompt('img', { file: 'secret-customer-42.png' }));
    expect(logs).toHaveLength(1);
    expect(String(logs[0]?.['detail'])).toContain('images/{{file}}');
    expect(JSON.stringify(logs)).not.toContain('secret-customer-42');
  });
});

describe('PromptRegistry: snapshots', () => {
  it('finishes a render in flight when its prompt is removed meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const registry = new PromptRegistry();
    registry.add({
      name: 'slow',
      render: async () => {
        await gate;
        return 'done';
      },
    });
    const inFlight = registry.getPrompt('slow');
    registry.remove('slow');
    release();
    expect((await inFlight).messages[0]?.content).toEqual({ type: 'text', text: 'done' });
    expect((await rejectionOf(registry.getPrompt('slow'))).code).toBe('PROMPT_NOT_FOUND');
  });
});

describe('PromptRegistry: broken argument schemas', () => {
  it('rejects an invalid inputSchema at registration with the pointer to the problem', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', properties: { x: { type: 'strin' } } },
        render: () => 'x',
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(JSON.stringify(error.data)).toContain('/inputSchema/properties/x/type');
  });

  it('rejects a default that does not satisfy its own schema at registration', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', properties: { n: { type: 'integer', default: 'many' } } },
        render: () => 'x',
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
  });
});

describe('PromptRegistry: references a schema cannot resolve', () => {
  it('rejects an external $ref at registration, since remote schemas are never loaded', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', properties: { a: { $ref: 'https://schemas.example/never-loaded.json' } } },
        render: () => 'x',
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(JSON.stringify(error.data)).toContain('/inputSchema/properties/a/$ref');
  });
});

describe('PromptRegistry: listing and validation agree (second round)', () => {
  it('lists a name the inputSchema requires without describing it, as required', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      inputSchema: { type: 'object', properties: { s: { type: 'string' } }, required: ['s', 'ghost'] },
      render: () => 'x',
    });
    expect(registry.get('p')?.arguments).toEqual([
      { name: 's', required: true },
      { name: 'ghost', required: true },
    ]);
    expect((await rejectionOf(registry.getPrompt('p', { s: 'x' }))).data).toMatchObject({ missing_arguments: ['ghost'] });
  });

  it('rejects an argument declared beside an inputSchema that forbids it', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        arguments: [{ name: 'a' }, { name: 'extra' }],
        inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        render: () => 'x',
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((error.data as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(['/arguments/1/name']);
  });
});

describe('PromptRegistry: cancellation and event order', () => {
  it('does not render, or log an error, for a request whose signal is already aborted', async () => {
    const logs: unknown[] = [];
    let rendered = 0;
    const registry = new PromptRegistry({ logger: { error: (fields) => logs.push(fields) } });
    registry.add({ name: 'p', render: () => `x${++rendered}` });
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(registry.getPrompt('p', {}, { signal: controller.signal }));
    expect(error.message).toBe("prompt 'p': request cancelled");
    expect(rendered).toBe(0);
    expect(logs).toEqual([]);
  });

  it('logs a failure caused by cancelling a request in flight at debug level, not as an error', async () => {
    const errors: unknown[] = [];
    const debug: Record<string, unknown>[] = [];
    const resolver = {
      read: (_uri: string, ctx: { signal?: AbortSignal }) =>
        new Promise<undefined>((_resolve, reject) => {
          ctx.signal?.addEventListener('abort', () => reject(new Error('aborted read')));
        }),
    };
    const registry = new PromptRegistry({
      resources: resolver,
      logger: { error: (fields) => errors.push(fields), debug: (fields) => debug.push(fields) },
    });
    registry.add({ name: 'p', messages: [{ role: 'user', content: '{{resource:doc://slow}}' }] });
    const controller = new AbortController();
    const pending = registry.getPrompt('p', {}, { signal: controller.signal });
    controller.abort();
    expect((await rejectionOf(pending)).message).toBe("prompt 'p': request cancelled");
    expect(errors).toEqual([]);
    expect(debug).toEqual([{ event: 'prompt_cancelled', prompt: 'p' }]);
  });

  it('delivers a change made by a listener after the current change, to every listener in the same order', () => {
    const registry = new PromptRegistry();
    const seenA: string[] = [];
    const seenB: string[] = [];
    registry.onChange((e) => {
      seenA.push(`${e.type}:${e.names.join()}`);
      if (e.names.includes('q')) registry.set({ name: 'q2', messages: [{ role: 'user', content: 'x' }] });
    });
    registry.onChange((e) => seenB.push(`${e.type}:${e.names.join()}`));
    registry.add({ name: 'q', messages: [{ role: 'user', content: 'x' }] });
    expect(seenA).toEqual(['add:q', 'set:q2']);
    expect(seenB).toEqual(['add:q', 'set:q2']);
  });
});

describe('PromptRegistry: programmatic results over the size limit', () => {
  it('turns a render function result over the limit into an internal error and a log entry', async () => {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({ limits: { maxRenderedBytes: 100 }, logger: { error: (fields) => logs.push(fields) } });
    registry.add({ name: 'big', render: () => 'x'.repeat(101) });
    const error = await rejectionOf(registry.getPrompt('big'));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(logs).toEqual([
      expect.objectContaining({ prompt: 'big', code: 'INTERNAL_ERROR', detail: "prompt 'big' render returned a result over the 100-byte limit" }),
    ]);
  });
});
