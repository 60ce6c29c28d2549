import { describe, expect, it } from 'vitest';
import { PromptRegistry } from '../../src/registry/registry.js';
import type { RegistryChangeEvent } from '../../src/registry/change-events.js';
import type { PromptDefinition } from '../../src/definition/types.js';
import { PromptError } from '../../src/errors.js';
import type { JsonSchema } from '../../src/types.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';
import { rejectionOf, thrownBy } from '../support/errors.js';

function simple(name: string, text = `Prompt ${name}`): PromptDefinition {
  return { name, description: `about ${name}`, messages: [{ role: 'user', content: text }] };
}

const rejection = rejectionOf;
const syncError = thrownBy;

const reviewCode: PromptDefinition = {
  name: 'review_code',
  description: 'Review code',
  arguments: [
    { name: 'code', required: true, maxLength: 10_000 },
    { name: 'language', enum: ['typescript', 'python', 'go'] },
    { name: 'focus' },
  ],
  messages: [
    { role: 'user', content: 'Review this {{language}} code:\n{{code}}{{#focus}}\nFocus: {{focus}}{{/focus}}' },
    { role: 'assistant', content: 'I will review it.' },
  ],
};

describe('PromptRegistry listing', () => {
  it('lists prompts sorted by name in code-unit order', () => {
    const registry = new PromptRegistry();
    registry.add([simple('b'), simple('B'), simple('a_1'), simple('a-1')]);
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['B', 'a-1', 'a_1', 'b']);
  });

  it('keeps the listing sorted through small and large additions, replacements and removals', () => {
    const registry = new PromptRegistry();
    let x = 7;
    const next = (n: number): number => (x = (x * 1103515245 + 12345) % 2147483648) % n;
    const initial = Array.from({ length: 3000 }, (_, i) => `p${i * 2}`); // thousands: several internal blocks
    registry.add(initial.map((n) => simple(n)));
    const live = new Set<string>(initial);
    for (let step = 0; step < 80; step++) {
      const size = step % 5 === 0 ? 40 + next(2000) : 1 + next(3); // batches above and below the in-place threshold
      const names = [...new Set(Array.from({ length: size }, () => `p${next(6000)}`))];
      if (next(3) === 0) {
        registry.remove(names);
        for (const n of names) live.delete(n);
      } else {
        registry.set(names.map((n) => simple(n)));
        for (const n of names) live.add(n);
      }
      const expected = [...live].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(registry.list().prompts.map((p) => p.name)).toEqual(expected);
      const firstPage = registry.list({ pageSize: 700 });
      expect(firstPage.prompts.map((p) => p.name)).toEqual(expected.slice(0, 700));
      const secondPage = registry.list({ pageSize: 700, cursor: firstPage.nextCursor! });
      expect(secondPage.prompts.map((p) => p.name)).toEqual(expected.slice(700, 1400));
    }
  });

  it('quotes at most 128 characters of an unknown prompt name', async () => {
    const registry = new PromptRegistry();
    const error = await rejection(registry.getPrompt('x'.repeat(1_000_000)));
    expect(error.code).toBe('PROMPT_NOT_FOUND');
    expect(error.message).toBe(`Unknown prompt: ${'x'.repeat(128)}…`);
  });

  it('returns every prompt in one page by default, without nextCursor', () => {
    const registry = new PromptRegistry();
    registry.add(Array.from({ length: 250 }, (_, i) => simple(`p${String(i).padStart(3, '0')}`)));
    const page = registry.list();
    expect(page.prompts).toHaveLength(250);
    expect(page.nextCursor).toBeUndefined();
  });

  it('lists arguments with their required flag and omits arguments for a prompt without any', () => {
    const registry = new PromptRegistry();
    registry.add([reviewCode, simple('plain')]);
    const [plain, review] = [registry.get('plain'), registry.get('review_code')];
    expect(plain).toEqual({ name: 'plain', description: 'about plain' });
    expect(review?.arguments).toEqual([
      { name: 'code', required: true },
      { name: 'language', required: false },
      { name: 'focus', required: false },
    ]);
  });

  it('pages through all prompts with opaque cursors', () => {
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const registry = new PromptRegistry({ pageSize: 3 });
    registry.add(names.map((n) => simple(n)));
    const seen: string[] = [];
    let page = registry.list();
    seen.push(...page.prompts.map((p) => p.name));
    while (page.nextCursor !== undefined) {
      expect(page.nextCursor).not.toContain(seen.at(-1));
      page = registry.list({ cursor: page.nextCursor });
      seen.push(...page.prompts.map((p) => p.name));
    }
    expect(seen).toEqual(names);
  });

  it('never skips or repeats a surviving prompt when prompts are added and removed between pages', () => {
    const registry = new PromptRegistry({ pageSize: 2 });
    registry.add(['b', 'd', 'f', 'h'].map((n) => simple(n)));
    const first = registry.list();
    expect(first.prompts.map((p) => p.name)).toEqual(['b', 'd']);
    registry.remove('d');
    registry.add([simple('a'), simple('e')]);
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = registry.list({ cursor });
      rest.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    }
    expect(rest).toEqual(['e', 'f', 'h']);
  });

  it('rejects a tampered cursor and one issued by another registry with INVALID_CURSOR', () => {
    const registry = new PromptRegistry({ pageSize: 1 });
    registry.add([simple('a'), simple('b')]);
    const other = new PromptRegistry({ pageSize: 1 });
    other.add([simple('a'), simple('b')]);
    const cursor = registry.list().nextCursor!;
    const tampered = `${cursor.slice(0, -1)}${cursor.endsWith('0') ? '1' : '0'}`;
    for (const bad of [tampered, other.list().nextCursor!, 'garbage', '']) {
      const error = syncError(() => registry.list({ cursor: bad }));
      expect(error.code).toBe('INVALID_CURSOR');
      expect(error.toJsonRpcError()).toEqual({ code: -32602, message: 'Invalid cursor' });
    }
  });

  it('honours a per-call page size over the registry default', () => {
    const registry = new PromptRegistry({ pageSize: 10 });
    registry.add(['a', 'b', 'c'].map((n) => simple(n)));
    expect(registry.list({ pageSize: 2 }).prompts).toHaveLength(2);
    expect(() => registry.list({ pageSize: 0 })).toThrow(
      new RangeError('PromptRegistry.list: pageSize must be a positive integer, got 0'),
    );
  });
});

describe('PromptRegistry changes', () => {
  it('emits one change event for a batch of 1,000 prompts', () => {
    const registry = new PromptRegistry();
    const events: RegistryChangeEvent[] = [];
    registry.onChange((e) => events.push(e));
    registry.add(Array.from({ length: 1000 }, (_, i) => simple(`p${i}`)));
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('add');
    expect(events[0]?.names).toHaveLength(1000);
  });

  it('adds nothing from a batch that contains an invalid definition', () => {
    const registry = new PromptRegistry();
    const events: RegistryChangeEvent[] = [];
    registry.onChange((e) => events.push(e));
    const bad = { name: 'bad', messages: [{ role: 'system', content: 'x' }] } as unknown as PromptDefinition;
    const error = syncError(() => registry.add([simple('ok'), bad]));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toContain("invalid role 'system': must be 'user' or 'assistant'");
    expect(registry.size).toBe(0);
    expect(events).toHaveLength(0);
  });

  it('refuses to add a name that is already registered, and set() replaces it', async () => {
    const registry = new PromptRegistry();
    registry.add(simple('greet', 'Hello'));
    expect(syncError(() => registry.add(simple('greet', 'Hi'))).message).toMatch(/already registered/);
    registry.set(simple('greet', 'Hi'));
    const result = await registry.getPrompt('greet');
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Hi' });
  });

  it('removes prompts, reports whether anything was removed, and stops listing them', () => {
    const registry = new PromptRegistry();
    const events: RegistryChangeEvent[] = [];
    registry.add([simple('a'), simple('b')]);
    registry.onChange((e) => events.push(e));
    expect(registry.remove('a')).toBe(true);
    expect(registry.remove('a')).toBe(false);
    expect(registry.has('a')).toBe(false);
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['b']);
    expect(events).toEqual([{ type: 'remove', names: ['a'] }]);
  });

  it('stops notifying a listener after it unsubscribes, and survives a throwing listener', () => {
    const logs: unknown[] = [];
    const registry = new PromptRegistry({ logger: { error: (fields) => logs.push(fields) } });
    let calls = 0;
    registry.onChange(() => {
      throw new Error('listener bug');
    });
    const off = registry.onChange(() => calls++);
    registry.add(simple('a'));
    off();
    registry.add(simple('b'));
    expect(calls).toBe(1);
    expect(logs).toHaveLength(2);
  });

  it('keeps a render in flight on the snapshot it started with when the prompt is replaced', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const resources = createMemoryResourceResolver({ 'doc://a': 'DOC' });
    const slow = {
      read: async (uri: string) => {
        await gate;
        return resources.read(uri);
      },
    };
    const registry = new PromptRegistry({ resources: slow });
    registry.add({ name: 'p', messages: [{ role: 'user', content: 'old {{resource:doc://a}}' }] });
    const inFlight = registry.getPrompt('p');
    registry.set({ name: 'p', messages: [{ role: 'user', content: 'new' }] });
    release();
    expect((await inFlight).messages[0]?.content).toEqual({ type: 'text', text: 'old DOC' });
    expect((await registry.getPrompt('p')).messages[0]?.content).toEqual({ type: 'text', text: 'new' });
  });
});

describe('PromptRegistry.getPrompt', () => {
  it('renders messages with validated arguments and the prompt description', async () => {
    const registry = new PromptRegistry();
    registry.add(reviewCode);
    const result = await registry.getPrompt('review_code', { code: 'x = 1', language: 'python' });
    expect(result).toEqual({
      description: 'Review code',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this python code:\nx = 1' } },
        { role: 'assistant', content: { type: 'text', text: 'I will review it.' } },
      ],
    });
  });

  it('fails an unknown prompt with PROMPT_NOT_FOUND naming it', async () => {
    const error = await rejection(new PromptRegistry().getPrompt('review-code'));
    expect(error.code).toBe('PROMPT_NOT_FOUND');
    expect(error.toJsonRpcError()).toEqual({ code: -32602, message: 'Unknown prompt: review-code' });
  });

  it('fails missing required arguments with -32602 and the missing_arguments data', async () => {
    const registry = new PromptRegistry();
    registry.add(reviewCode);
    const error = await rejection(registry.getPrompt('review_code', { focus: 'naming' }));
    expect(error.code).toBe('PROMPT_ARGUMENT_MISSING');
    expect(error.toJsonRpcError()).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing_arguments: ['code'], provided_count: 1, required_count: 1 },
    });
  });

  it('fails a value outside the enum as a schema error', async () => {
    const registry = new PromptRegistry();
    registry.add(reviewCode);
    const error = await rejection(registry.getPrompt('review_code', { code: 'x', language: 'cobol' }));
    expect(error.code).toBe('PROMPT_ARGUMENT_INVALID');
    expect(error.rpcCode).toBe(-32602);
  });

  it('coerces string arguments from the wire to their declared types before rendering', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'count',
      arguments: [{ name: 'n', type: 'integer', required: true }],
      render: (args) => `${typeof args['n']}:${String(args['n'])}`,
    });
    const result = await registry.getPrompt('count', { n: '41' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'number:41' });
  });

  it('turns a programmatic result with role "system" into an internal error and logs it', async () => {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({ logger: { error: (fields) => logs.push(fields) } });
    registry.add({
      name: 'legacy',
      arguments: [{ name: 'secret', required: true }],
      render: () => [{ role: 'system', content: { type: 'text', text: 'x' } }] as never,
    });
    const error = await rejection(registry.getPrompt('legacy', { secret: 'hunter2-value' }));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ prompt: 'legacy', code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(logs)).not.toContain('hunter2-value');
  });

  it('turns a render function that throws into PROMPT_RENDER_FAILED with a generic client message', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'boom',
      render: () => {
        throw new Error('database password is wrong');
      },
    });
    const error = await rejection(registry.getPrompt('boom'));
    expect(error.code).toBe('PROMPT_RENDER_FAILED');
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('accepts a string, a message array or a whole result from a render function', async () => {
    const registry = new PromptRegistry();
    registry.add([
      { name: 's', description: 'd', render: () => 'hello' },
      { name: 'm', render: () => [{ role: 'assistant', content: { type: 'text', text: 'hi' } }] },
      {
        name: 'r',
        render: () => ({ description: 'mine', messages: [{ role: 'user', content: { type: 'text', text: 'r' } }] }),
      },
    ]);
    expect(await registry.getPrompt('s')).toEqual({
      description: 'd',
      messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
    });
    expect((await registry.getPrompt('m')).messages[0]?.role).toBe('assistant');
    expect((await registry.getPrompt('r')).description).toBe('mine');
  });

  it('embeds resources through the resolver and reports an unknown one as RESOURCE_NOT_FOUND', async () => {
    const resources = createMemoryResourceResolver({ 'architecture://adr/001': 'Use events.' });
    const registry = new PromptRegistry({ resources });
    registry.add([
      { name: 'adr', messages: [{ role: 'user', content: 'ADR:\n{{resource:architecture://adr/001}}' }] },
      { name: 'missing', messages: [{ role: 'user', content: '{{resource:architecture://adr/999}}' }] },
      { name: 'embedded', messages: [{ role: 'user', content: { type: 'resource', uri: 'architecture://adr/001' } }] },
    ]);
    expect((await registry.getPrompt('adr')).messages[0]?.content).toEqual({ type: 'text', text: 'ADR:\nUse events.' });
    const error = await rejection(registry.getPrompt('missing'));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect(error.message).toBe('Resource not found: architecture://adr/999');
    expect((await registry.getPrompt('embedded')).messages[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'architecture://adr/001', text: 'Use events.' },
    });
  });

  it('fails a prompt whose rendered text exceeds the byte limit with LIMIT_EXCEEDED', async () => {
    const registry = new PromptRegistry({ limits: { maxRenderedBytes: 100 } });
    registry.add({
      name: 'big',
      arguments: [{ name: 't', required: true }],
      messages: [{ role: 'user', content: '{{t}}' }],
    });
    expect((await registry.getPrompt('big', { t: 'é'.repeat(50) })).messages).toHaveLength(1);
    const error = await rejection(registry.getPrompt('big', { t: 'é'.repeat(51) }));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.httpStatus).toBe(413);
    expect(error.message).toBe('Rendered prompt exceeds 100 bytes');
  });

  it('renders partials registered on the registry', async () => {
    const registry = new PromptRegistry({ partials: { footer: '-- {{who}}' } });
    registry.add({
      name: 'p',
      arguments: [{ name: 'who' }],
      messages: [{ role: 'user', content: 'Hi\n{{> footer}}' }],
    });
    expect((await registry.getPrompt('p', { who: 'me' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Hi\n-- me',
    });
  });

  it('loads image paths through the assets loader as base64', async () => {
    const registry = new PromptRegistry({ assets: { read: () => new Uint8Array([1, 2, 3, 255]) } });
    registry.add({
      name: 'img',
      messages: [{ role: 'user', content: { type: 'image', path: 'a.png', mimeType: 'image/png' } }],
    });
    expect((await registry.getPrompt('img')).messages[0]?.content).toEqual({
      type: 'image',
      data: 'AQID/w==',
      mimeType: 'image/png',
    });
  });

  it('rejects an image path at registration when the registry has no assets loader', () => {
    const registry = new PromptRegistry();
    const error = syncError(() =>
      registry.add({
        name: 'img',
        messages: [{ role: 'user', content: { type: 'image', path: 'a.png', mimeType: 'image/png' } }],
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toMatch(/assets/);
  });
});

describe('PromptRegistry: withheld prompts and served versions', () => {
  it('withholds a prompt: not listed, its get is a generic -32603 with the reason logged, until registered again', async () => {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({ logger: { error: (fields) => logs.push(fields) } });
    registry.add([simple('a'), simple('b')]);
    registry.withhold('a', 'stored row has role "system"');
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['b']);
    const error = await rejection(registry.getPrompt('a'));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(logs)).toContain('stored row has role');
    registry.set(simple('a'));
    expect((await registry.getPrompt('a')).messages).toHaveLength(1);
    registry.withhold('a', 'broken again');
    registry.remove('a');
    expect((await rejection(registry.getPrompt('a'))).code).toBe('PROMPT_NOT_FOUND');
  });

  it('logs each served get with the registered version at debug level', async () => {
    const served: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({ logger: { debug: (fields) => served.push(fields) } });
    registry.set([simple('a'), simple('b')], { version: (name) => (name === 'a' ? 7 : undefined) });
    await registry.getPrompt('a');
    await registry.getPrompt('b');
    expect(served).toEqual([
      { event: 'prompt_served', prompt: 'a', version: 7 },
      { event: 'prompt_served', prompt: 'b' },
    ]);
  });
});

describe('PromptRegistry.complete', () => {
  it('completes from the enum with a case-insensitive prefix match', async () => {
    const registry = new PromptRegistry();
    registry.add(reviewCode);
    expect(await registry.complete('review_code', 'language', 'Py')).toEqual({
      values: ['python'],
      total: 1,
      hasMore: false,
    });
    expect(await registry.complete('review_code', 'code', 'x')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('replaces lone surrogates in completion values with U+FFFD, from complete() and from the enum', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'odd',
      arguments: [
        { name: 'a', complete: () => ['ok', 'bad\uD800'] },
        { name: 'e', enum: ['e\uDC00', 'f'] },
      ],
      messages: [{ role: 'user', content: '{{a}}' }],
    });
    expect((await registry.complete('odd', 'a', '')).values).toEqual(['ok', 'bad\uFFFD']);
    expect((await registry.complete('odd', 'e', '')).values).toEqual(['e\uFFFD', 'f']);
  });

  it('returns at most 100 values and says there are more', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'many',
      arguments: [{ name: 'n', complete: () => Array.from({ length: 150 }, (_, i) => `v${i}`) }],
      messages: [{ role: 'user', content: '{{n}}' }],
    });
    const result = await registry.complete('many', 'n', '');
    expect(result.values).toHaveLength(100);
    expect(result).toMatchObject({ total: 150, hasMore: true });
  });

  it('passes the other arguments already given to a complete function', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'repo',
      arguments: [
        { name: 'owner' },
        { name: 'repo', complete: (value, ctx) => [`${ctx.arguments['owner']}/${value}x`] },
      ],
      messages: [{ role: 'user', content: '{{owner}}/{{repo}}' }],
    });
    expect((await registry.complete('repo', 'repo', 'a', { arguments: { owner: 'acme' } })).values).toEqual([
      'acme/ax',
    ]);
  });

  it('fails completion for an unknown prompt with PROMPT_NOT_FOUND', async () => {
    expect((await rejection(new PromptRegistry().complete('nope', 'a', ''))).code).toBe('PROMPT_NOT_FOUND');
  });

  function completing(complete: NonNullable<PromptDefinition['arguments']>[number]['complete'], options = {}) {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry({ ...options, logger: { error: (fields) => logs.push(fields) } });
    registry.add({ name: 'p', arguments: [{ name: 'a', complete }], messages: [{ role: 'user', content: '{{a}}' }] });
    return { registry, logs };
  }

  it('gives up on a complete() that never settles after completionTimeoutMs, with -32603 and a log', async () => {
    let seen: AbortSignal | undefined;
    const { registry, logs } = completing(
      (_value, ctx) => {
        seen = ctx.signal;
        return new Promise<string[]>(() => {});
      },
      { completionTimeoutMs: 30 },
    );
    const error = await rejection(registry.complete('p', 'a', 'x'));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.toJsonRpcError().code).toBe(-32603);
    expect(seen?.aborted).toBe(true);
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs)).toContain('took longer than 30 ms');
  });

  it('stops waiting for complete() when the request is cancelled, and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const { registry, logs } = completing((_value, ctx) => {
      seen = ctx.signal;
      return new Promise<string[]>(() => {});
    });
    const controller = new AbortController();
    const pending = registry.complete('p', 'a', 'x', { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).message).toContain('request cancelled');
    expect(seen?.aborted).toBe(true);
    expect(logs).toEqual([]);
  });

  it('refuses an oversized argument.value or context with -32602 naming the limit', async () => {
    const { registry } = completing(() => ['never']);
    const long = await rejection(registry.complete('p', 'a', 'x'.repeat(10_001)));
    expect(long.toJsonRpcError()).toMatchObject({ code: -32602, message: 'argument.value exceeds 10000 characters' });
    const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']));
    expect((await rejection(registry.complete('p', 'a', '', { arguments: wide }))).message).toBe(
      'context.arguments has more than 100 entries',
    );
    const big = await rejection(registry.complete('p', 'a', '', { arguments: { k: 'v'.repeat(10_001) } }));
    expect(big.message).toBe('context.arguments entries exceed 10000 characters');
  });

  it('never puts null on the wire for a sparse or mixed completion array', async () => {
    const sparse = completing(() => ['a', , 'b'] as string[]);
    expect((await rejection(sparse.registry.complete('p', 'a', ''))).code).toBe('INTERNAL_ERROR');
    const mixed = completing(() => ['a', 5] as unknown as string[]);
    expect((await rejection(mixed.registry.complete('p', 'a', ''))).code).toBe('INTERNAL_ERROR');
    expect(sparse.logs).toHaveLength(1);
  });

  it('caps completion values in UTF-8 bytes as well as in count', async () => {
    const { registry } = completing(() => Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(2000, '.')));
    const result = await registry.complete('p', 'a', '');
    expect(result.values.length).toBe(32); // 32 x 2,000 bytes fit in 64 KiB, 33 do not
    expect(result).toMatchObject({ total: 100, hasMore: true });
  });

  it('suggests only scalar enum values, stringified, never [object Object]', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'e',
      inputSchema: { type: 'object', properties: { level: { enum: ['Low', 2, true, { deep: 1 }, null, ['x']] } } },
      messages: [{ role: 'user', content: '{{level}}' }],
    });
    expect(await registry.complete('e', 'level', '')).toEqual({
      values: ['Low', '2', 'true'],
      total: 3,
      hasMore: false,
    });
    expect((await registry.complete('e', 'level', 'l')).values).toEqual(['Low']);
  });

  it('counts every enum match in total while returning the first 100', async () => {
    const registry = new PromptRegistry();
    const values = Array.from({ length: 100_000 }, (_, i) => `V${i}`);
    registry.add({
      name: 'big',
      arguments: [{ name: 'v', enum: values }],
      messages: [{ role: 'user', content: '{{v}}' }],
    });
    const first = await registry.complete('big', 'v', 'v9');
    expect(first).toMatchObject({ total: 11_111, hasMore: true });
    expect(first.values.slice(0, 3)).toEqual(['V9', 'V90', 'V91']);
    expect((await registry.complete('big', 'v', 'V99999')).values).toEqual(['V99999']);
  });
});

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
    [
      'a resource block',
      { role: 'user' as const, content: { type: 'resource' as const, uri: 'doc://a' } },
      '/messages/0/content/uri',
    ],
  ])('rejects %s at registration when the registry has no resource resolver', (_what, message, path) => {
    const error = thrownBy(() => new PromptRegistry().add({ name: 'p', messages: [message] }));
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((error.data as { problems: { path: string }[] }).problems[0]?.path).toBe(path);
    expect(error.message).toMatch(/resources/);
  });

  it("lets the template's declared mimeType win over the resolver's, in the form it calls for", async () => {
    const resources = createMemoryResourceResolver({
      'img://logo': { mimeType: 'image/png', blob: 'AQID' },
      'doc://a': 'A',
    });
    const registry = new PromptRegistry({ resources });
    registry.add([
      {
        name: 'logo',
        messages: [{ role: 'user', content: { type: 'resource', uri: 'img://logo', mimeType: 'text/plain' } }],
      },
      {
        name: 'doc',
        messages: [{ role: 'user', content: { type: 'resource', uri: 'doc://a', mimeType: 'text/markdown' } }],
      },
    ]);
    // A blob declared as a text type is sent as text (its bytes are UTF-8).
    expect((await registry.getPrompt('logo')).messages[0]?.content).toEqual({
      type: 'resource',
      resource: { uri: 'img://logo', mimeType: 'text/plain', text: '\u0001\u0002\u0003' },
    });
    expect((await registry.getPrompt('doc')).messages[0]?.content).toMatchObject({
      resource: { mimeType: 'text/markdown', text: 'A' },
    });
  });

  it.each([
    [
      { limits: { maxResources: Number.NaN } },
      'PromptRegistry: limits.maxResources must be a non-negative integer, got NaN',
    ],
    [
      { limits: { maxRenderedBytes: -1 } },
      'PromptRegistry: limits.maxRenderedBytes must be a positive integer, got -1',
    ],
    [{ limits: { maxRenderSteps: 0 } }, 'PromptRegistry: limits.maxRenderSteps must be a positive integer, got 0'],
    [
      { limits: { renderTimeoutMs: 2 ** 31 } },
      `PromptRegistry: limits.renderTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got 2147483648`,
    ],
    [
      { limits: { resourceTimeoutMs: 0 } },
      `PromptRegistry: limits.resourceTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got 0`,
    ],
    [
      { completionTimeoutMs: '10' as unknown as number },
      `PromptRegistry: completionTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got "10"`,
    ],
    [{ maxArgumentLength: 0 }, 'PromptRegistry: maxArgumentLength must be a positive integer, got 0'],
    [{ pageSize: 2.5 }, 'PromptRegistry: pageSize must be a positive integer, got 2.5'],
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

describe('PromptRegistry: an argument declared required with a default', () => {
  const forms: [string, Pick<PromptDefinition, 'arguments' | 'inputSchema'>, string][] = [
    ['plain string', { arguments: [{ name: 'a', required: true, default: 'x' }] }, '/arguments/0/default'],
    [
      'string enum',
      { arguments: [{ name: 'a', enum: ['x', 'y'], required: true, default: 'x' }] },
      '/arguments/0/default',
    ],
    ['maxLength', { arguments: [{ name: 'a', maxLength: 5, required: true, default: 'x' }] }, '/arguments/0/default'],
    ['typed', { arguments: [{ name: 'a', type: 'integer', required: true, default: 1 }] }, '/arguments/0/default'],
    [
      'inputSchema',
      { inputSchema: { type: 'object', properties: { a: { type: 'string', default: 'x' } }, required: ['a'] } },
      '/inputSchema/properties/a/default',
    ],
  ];
  for (const [form, declaration, path] of forms) {
    it(`rejects it at registration (${form}), and registers nothing`, () => {
      const registry = new PromptRegistry();
      const error = thrownBy(() =>
        registry.add({ name: 'p', ...declaration, messages: [{ role: 'user', content: '{{a}}' }] }),
      );
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect((error.data as { problems: { path: string; message: string }[] }).problems[0]).toMatchObject({
        path,
        message: expect.stringMatching(/required argument cannot have a default/),
      });
      expect(registry.has('p')).toBe(false);
    });
  }
});

describe('PromptRegistry: references a schema cannot resolve', () => {
  it('rejects at registration every reference a get could not resolve, and serves every one it accepts', async () => {
    const refs = [
      '',
      '#',
      '#/',
      '.',
      './',
      '/',
      '%23',
      '#%2F',
      '#/$defs/x',
      '#/%24defs/x',
      'x',
      'root',
      'root#/$defs/x',
      'https://x.test/root',
      'https://x.test/root#',
      'https://schema.invalid/#/$defs/x',
      '#/$defs/x/',
      '#anchor',
    ];
    const served: Record<string, string[]> = {
      none: ['#', '#/$defs/x', '#/%24defs/x', '#anchor'],
      'https://x.test/root': ['#', '#/$defs/x', '#/%24defs/x', 'root#/$defs/x', '#anchor'],
    };
    for (const id of [undefined, 'https://x.test/root']) {
      const accepted: string[] = [];
      for (const ref of refs) {
        const inputSchema: JsonSchema = {
          ...(id === undefined ? {} : { $id: id }),
          type: 'object',
          '': { type: 'integer' },
          $defs: { x: { $anchor: 'anchor', type: 'integer' } },
          properties: { a: { $ref: ref } },
        };
        const registry = new PromptRegistry();
        try {
          registry.add({ name: 'p', inputSchema, messages: [{ role: 'user', content: 'x' }] });
        } catch (error) {
          expect((error as PromptError).code, `${id} ${ref}`).toBe('INVALID_PROMPT_DEFINITION');
          expect(JSON.stringify((error as PromptError).data), `${id} ${ref}`).toContain(
            '/inputSchema/properties/a/$ref',
          );
          continue;
        }
        accepted.push(ref);
        for (const a of ['5', '{}']) {
          const outcome = await registry.getPrompt('p', { a }).catch((error: PromptError) => error);
          expect(outcome instanceof PromptError ? outcome.rpcCode : 0, `${id} ${ref} ${a}`).not.toBe(-32603);
        }
      }
      expect(accepted).toEqual(served[id ?? 'none']);
    }
  });

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

describe('PromptRegistry: listing and validation agree on argument edge cases', () => {
  it('reads a getter on the arguments object given to getPrompt once and renders that value, never reading it again', async () => {
    let calls = 0;
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      arguments: [{ name: 'code' }, { name: 'lang', required: true }],
      messages: [{ role: 'user', content: '[{{code}}] {{code}} {{lang}}' }],
    });
    const args = Object.defineProperty({ lang: 'go' }, 'code', { enumerable: true, get: () => `read ${++calls}` });
    expect((await registry.getPrompt('p', args)).messages[0]?.content).toEqual({
      type: 'text',
      text: '[read 1] read 1 go',
    });
    expect(calls).toBe(1);
  });

  it('rejects a name the inputSchema requires without declaring it, instead of listing an argument no client can type', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', properties: { s: { type: 'string' } }, required: ['s', 'ghost'] },
        render: () => 'x',
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect((error.data as { problems: unknown[] }).problems).toEqual([
      {
        path: '/inputSchema/required/1',
        message: expect.stringMatching(/^'ghost' is required but not declared: declare 'ghost' under properties/),
      },
    ]);
  });

  it('says why an argument declared through a root allOf is not declared, even when a template uses it', () => {
    const error = thrownBy(() =>
      new PromptRegistry().add({
        name: 'p',
        inputSchema: { type: 'object', allOf: [{ properties: { x: { type: 'string' } } }] },
        messages: [{ role: 'user', content: '{{x}}' }],
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toContain(
      "/inputSchema/allOf/0/properties/x: root-level allOf cannot declare listed arguments: declare 'x' under properties",
    );
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
    const registry = new PromptRegistry({
      limits: { maxRenderedBytes: 100 },
      logger: { error: (fields) => logs.push(fields) },
    });
    registry.add({ name: 'big', render: () => 'x'.repeat(101) });
    const error = await rejectionOf(registry.getPrompt('big'));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(logs).toEqual([
      expect.objectContaining({
        prompt: 'big',
        code: 'INTERNAL_ERROR',
        detail: "prompt 'big' render returned a result over the 100-byte limit",
      }),
    ]);
  });
});
