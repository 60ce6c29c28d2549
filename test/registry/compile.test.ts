import { describe, expect, it } from 'vitest';
import { GetPromptResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import type { PromptRegistryOptions } from '../../src/registry/options.js';
import type { ResourceResolver } from '../../src/resources.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';
import { rejectionOf, thrownBy } from '../support/errors.js';
import { ArgumentValidatorCache } from '../../src/arguments/index.js';
import { parseWithLists } from '../../src/definition/parse.js';
import { ParsedLists } from '../../src/definition/reuse.js';
import type { MediaContentTemplate, PromptDefinition } from '../../src/definition/types.js';
import { compilePrompt } from '../../src/registry/compile.js';
import type { CompileEnvironment, CompiledPrompt } from '../../src/registry/compile.js';
import { TemplateCache } from '../../src/render/template.js';

type LogEntry = Record<string, unknown> & { message: string };

function logged(options: PromptRegistryOptions = {}): { logs: LogEntry[]; registry: PromptRegistry } {
  const logs: LogEntry[] = [];
  const sink = (fields: Record<string, unknown>, message: string): void => {
    logs.push({ ...fields, message });
  };
  return {
    logs,
    registry: new PromptRegistry({ ...options, logger: { error: sink, warn: sink, info: sink, debug: sink } }),
  };
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});
const items = (n: number, f: (i: number) => unknown = (i) => i): unknown[] => Array.from({ length: n }, (_, i) => f(i));

describe('rendering stops at the rendered-size limit while it renders', () => {
  it('ends nested sections over two 5,000-item arrays with LIMIT_EXCEEDED (-32602)', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'grid',
      arguments: [{ name: 'rows', type: 'array' }, { name: 'cols', type: 'array' }, { name: 'cell' }],
      messages: [{ role: 'user', content: '{{#rows}}{{#cols}}{{cell}}{{/cols}}{{/rows}}' }],
    });
    const args = { rows: items(5000), cols: items(5000), cell: 'abcd' };
    const error = await rejectionOf(registry.getPrompt('grid', args));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.toJsonRpcError()).toEqual({
      code: -32602,
      message: 'Rendered prompt exceeds 1048576 bytes',
      data: { limit: 'maxRenderedBytes', max: 1048576 },
    });
  });

  it('bounds sections with empty bodies over huge arrays by counting repetitions', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'empty',
      arguments: [
        { name: 'rows', type: 'array' },
        { name: 'cols', type: 'array' },
      ],
      messages: [{ role: 'user', content: 'x{{#rows}}{{#cols}}{{/cols}}{{/rows}}' }],
    });
    const error = await rejectionOf(registry.getPrompt('empty', { rows: items(5000), cols: items(5000) }));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toBe('Template sections repeat more than 1048576 times in one render');
  });

  it('counts the text of partials against the same budget', async () => {
    const registry = new PromptRegistry({ partials: { row: '{{#cols}}{{cell}}{{/cols}}' } });
    registry.add({
      name: 'partial-grid',
      arguments: [{ name: 'rows', type: 'array' }, { name: 'cols', type: 'array' }, { name: 'cell' }],
      messages: [{ role: 'user', content: '{{#rows}}{{> row}}{{/rows}}' }],
    });
    const error = await rejectionOf(
      registry.getPrompt('partial-grid', { rows: items(5000), cols: items(5000), cell: 'ab' }),
    );
    expect(error.code).toBe('LIMIT_EXCEEDED');
  });

  it('counts resource link fields and embedded resources against the same budget', async () => {
    const big = 'r'.repeat(600_000);
    const registry = new PromptRegistry({ resources: createMemoryResourceResolver({ 'docs://big': big }) });
    registry.add({
      name: 'link',
      arguments: [
        { name: 'rows', type: 'array' },
        { name: 'cols', type: 'array' },
      ],
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource_link',
            uri: 'docs://x',
            name: 'x',
            title: '{{#rows}}{{#cols}}ab{{/cols}}{{/rows}}',
          },
        },
      ],
    });
    registry.add({
      name: 'two-blocks',
      messages: [
        { role: 'user', content: { type: 'resource', uri: 'docs://big' } },
        { role: 'user', content: { type: 'resource', uri: 'docs://big' } },
      ],
    });
    expect((await rejectionOf(registry.getPrompt('link', { rows: items(5000), cols: items(5000) }))).code).toBe(
      'LIMIT_EXCEEDED',
    );
    expect((await rejectionOf(registry.getPrompt('two-blocks'))).code).toBe('LIMIT_EXCEEDED');
  });

  it.each([
    ['600 placeholders of a 1 MB argument', '{{a}}\n'.repeat(600), 1_000_000],
    ['60,000 placeholders of a 10,000-character argument', '{{a}}'.repeat(60_000), 10_000],
  ])('stops %s at one level with LIMIT_EXCEEDED before the text outgrows a string', async (_, content, length) => {
    const registry = new PromptRegistry();
    registry.add({ name: 'p', arguments: [{ name: 'a', maxLength: length }], messages: [{ role: 'user', content }] });
    const error = await rejectionOf(registry.getPrompt('p', { a: 'x'.repeat(length) }));
    expect(error.toJsonRpcError()).toEqual({
      code: -32602,
      message: 'Rendered prompt exceeds 1048576 bytes',
      data: { limit: 'maxRenderedBytes', max: 1048576 },
    });
  });

  it('stops placeholders repeated at one level of a partial with LIMIT_EXCEEDED', async () => {
    const registry = new PromptRegistry({ partials: { many: '{{a}}'.repeat(60_000) } });
    registry.add({
      name: 'p',
      arguments: [{ name: 'a' }],
      messages: [{ role: 'user', content: 'Compare: {{> many}}' }],
    });
    expect((await rejectionOf(registry.getPrompt('p', { a: 'x'.repeat(10_000) }))).code).toBe('LIMIT_EXCEEDED');
  });

  it('stops a resource directive repeated at one level with LIMIT_EXCEEDED', async () => {
    const resources = createMemoryResourceResolver({ 'doc://big': 'd'.repeat(1_000_000) });
    const registry = new PromptRegistry({ resources });
    registry.add({ name: 'p', messages: [{ role: 'user', content: '{{resource:doc://big}}'.repeat(600) }] });
    expect((await rejectionOf(registry.getPrompt('p'))).code).toBe('LIMIT_EXCEEDED');
  });

  it('renders within the limit exactly as before', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'grid',
      arguments: [
        { name: 'rows', type: 'array' },
        { name: 'cols', type: 'array' },
      ],
      messages: [{ role: 'user', content: '{{#rows}}{{#cols}}{{.}}{{/cols}};{{/rows}}' }],
    });
    const result = await registry.getPrompt('grid', { rows: items(2), cols: ['a', 'b'] });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'ab;ab;' });
  });
});

describe('an amplifying request through the registry', () => {
  it('answers nested sections over one list with LIMIT_EXCEEDED (-32602) without reading a document', async () => {
    const reads: string[] = [];
    const registry = new PromptRegistry({
      resources: { read: (uri) => (reads.push(uri), { uri, text: 'doc' }) },
    });
    registry.add({
      name: 'grid',
      arguments: [{ name: 'xs', type: 'array' }, { name: 'y' }],
      messages: [{ role: 'user', content: '{{#xs}}{{#xs}}{{y}}{{resource:docs://a}}{{/xs}}{{/xs}}' }],
    });
    const error = await rejectionOf(registry.getPrompt('grid', { xs: items(4999), y: 'v' }));
    expect(error.toJsonRpcError().code).toBe(-32602);
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(reads).toEqual([]);
    // The same template over a list that fits renders in full.
    const fits = await registry.getPrompt('grid', { xs: items(3), y: 'v' });
    expect(fits.messages[0]?.content).toEqual({ type: 'text', text: 'vdoc'.repeat(9) });
    expect(reads).toEqual(['docs://a']);
  });
});

describe('rendering stops at the step limit however little it writes', () => {
  const nested = `{{#xs}}{{#xs}}${'{{e}}'.repeat(200)}{{/xs}}{{/xs}}`;

  it('ends nested sections over a 1,000-item array that render nothing with LIMIT_EXCEEDED (-32602)', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      arguments: [{ name: 'xs', type: 'array' }, { name: 'e' }],
      messages: [{ role: 'user', content: nested }],
    });
    const error = await rejectionOf(registry.getPrompt('p', { xs: items(1000), e: '' }));
    expect(error.toJsonRpcError()).toEqual({
      code: -32602,
      message: 'Template rendering takes more than 1048576 steps',
      data: { limit: 'maxRenderSteps', max: 1048576 },
    });
  });

  it("takes the step limit from the registry's limits option", async () => {
    const registry = new PromptRegistry({ limits: { maxRenderSteps: 50 } });
    registry.add({
      name: 'p',
      arguments: [{ name: 'xs', type: 'array' }, { name: 'e' }],
      messages: [{ role: 'user', content: '{{#xs}}{{e}}{{e}}{{/xs}}' }],
    });
    // One step for the section, then one per repetition and two per placeholder inside it (the item and the
    // arguments are searched): 1 + 9 × 5 = 46 steps fit, 1 + 10 × 5 = 51 do not.
    await registry.getPrompt('p', { xs: items(9), e: '' });
    const error = await rejectionOf(registry.getPrompt('p', { xs: items(10), e: '' }));
    expect(error.toJsonRpcError().data).toEqual({ limit: 'maxRenderSteps', max: 50 });
  });
});

describe('deeply nested argument values', () => {
  it('answers -32602 for a deep array argument instead of overflowing the stack', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'deep',
      arguments: [{ name: 'arr', type: 'array' }],
      messages: [{ role: 'user', content: '{{arr}}' }],
    });
    const deep = `${'['.repeat(4999)}${']'.repeat(4999)}`;
    const error = await rejectionOf(registry.getPrompt('deep', { arr: deep }));
    expect(error.toJsonRpcError().code).toBe(-32602);
  });
});

describe('waiting for resources and assets', () => {
  const hanging: ResourceResolver = { read: () => never(), list: () => never() };

  it('answers -32603 after the resource timeout and logs the directive URI, not argument values', async () => {
    const { logs, registry } = logged({ resources: hanging, limits: { resourceTimeoutMs: 30 } });
    registry.add({
      name: 'adr',
      arguments: [{ name: 'topic' }],
      messages: [{ role: 'user', content: '{{topic}}: {{resource:architecture://adr/001}}' }],
    });
    const error = await rejectionOf(registry.getPrompt('adr', { topic: 'secret-topic-value' }));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    const entry = logs.find((l) => l['event'] === 'prompt_failed');
    expect(String(entry?.['detail'])).toContain('architecture://adr/001');
    expect(String(entry?.['detail'])).toContain('30 ms resource timeout');
    expect(JSON.stringify(logs)).not.toContain('secret-topic-value');
  });

  it('names the URI template of a resource block whose read never settles, never the rendered URI', async () => {
    const { logs, registry } = logged({ resources: hanging, limits: { resourceTimeoutMs: 30 } });
    registry.add({
      name: 'doc',
      arguments: [{ name: 'id' }],
      messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://{{id}}' } }],
    });
    expect((await rejectionOf(registry.getPrompt('doc', { id: 'private-id' }))).code).toBe('INTERNAL_ERROR');
    const detail = String(logs.find((l) => l['event'] === 'prompt_failed')?.['detail']);
    expect(detail).toContain('docs://{{id}}');
    expect(JSON.stringify(logs)).not.toContain('private-id');
  });

  it('times out a glob listing and an asset loader that never settle', async () => {
    const registry = new PromptRegistry({
      resources: hanging,
      assets: { read: () => never() },
      limits: { resourceTimeoutMs: 30 },
    });
    registry.add([
      { name: 'glob', messages: [{ role: 'user', content: '{{resource:docs://*}}' }] },
      {
        name: 'image',
        messages: [{ role: 'user', content: { type: 'image', path: 'logo.png', mimeType: 'image/png' } }],
      },
    ]);
    expect((await rejectionOf(registry.getPrompt('glob'))).code).toBe('INTERNAL_ERROR');
    const error = await rejectionOf(registry.getPrompt('image'));
    expect(error.message).toContain("the image path template 'logo.png'");
  });

  it('stops waiting when the request is aborted, and aborts the signal the resolver got', async () => {
    let seen: AbortSignal | undefined;
    const registry = new PromptRegistry({
      resources: { read: (_uri, context) => ((seen = context.signal), never()) },
      limits: { resourceTimeoutMs: 60_000 },
    });
    registry.add({ name: 'adr', messages: [{ role: 'user', content: '{{resource:architecture://adr/001}}' }] });
    const controller = new AbortController();
    const pending = rejectionOf(registry.getPrompt('adr', {}, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    const error = await pending;
    expect(error.message).toContain('cancelled');
    expect(seen?.aborted).toBe(true);
  });

  it('rejects a non-positive resource timeout when the registry is built', () => {
    expect(() => new PromptRegistry({ limits: { resourceTimeoutMs: 0 } })).toThrow(/resourceTimeoutMs/);
  });
});

describe('waiting for render functions', () => {
  it('answers -32603 after the render timeout, logs the prompt and the limit, and aborts the signal it gave', async () => {
    let seen: AbortSignal | undefined;
    const { logs, registry } = logged({ limits: { renderTimeoutMs: 30 } });
    registry.add({
      name: 'slow',
      arguments: [{ name: 'q' }],
      render: (_args, context) => ((seen = context.signal), never()),
    });
    const error = await rejectionOf(registry.getPrompt('slow', { q: 'secret-question' }));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(seen?.aborted).toBe(true);
    const entry = logs.find((l) => l['event'] === 'prompt_failed');
    expect(entry?.['detail']).toBe("prompt 'slow' render function took longer than 30 ms");
    expect(JSON.stringify(logs)).not.toContain('secret-question');
  });

  it('stops waiting when the request is aborted, and aborts the signal the render function got', async () => {
    let seen: AbortSignal | undefined;
    const registry = new PromptRegistry();
    registry.add({ name: 'hang', render: (_args, context) => ((seen = context.signal), never()) });
    const controller = new AbortController();
    const pending = rejectionOf(registry.getPrompt('hang', {}, { signal: controller.signal }));
    controller.abort();
    expect((await pending).code).toBe('INTERNAL_ERROR');
    expect(seen?.aborted).toBe(true);
  });

  it('ignores a render function that fails after its time is up (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const registry = new PromptRegistry({ limits: { renderTimeoutMs: 20 } });
      let fail: (error: Error) => void = () => {};
      registry.add({ name: 'late', render: () => new Promise<never>((_, reject) => (fail = reject)) });
      expect((await rejectionOf(registry.getPrompt('late'))).code).toBe('INTERNAL_ERROR');
      fail(new Error('late'));
      // Unhandled rejections are reported once the microtasks of this turn ran: a macrotask later they would be here.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('gives a fast render function a live signal and its result', async () => {
    let seen: AbortSignal | undefined;
    const registry = new PromptRegistry();
    registry.add({ name: 'quick', render: (_args, context) => ((seen = context.signal), 'done') });
    expect((await registry.getPrompt('quick')).messages[0]?.content).toEqual({ type: 'text', text: 'done' });
    expect(seen?.aborted).toBe(false);
  });

  it('refuses a render timeout that is not a positive integer', () => {
    expect(() => new PromptRegistry({ limits: { renderTimeoutMs: 0 } })).toThrow(
      /limits.renderTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got 0/,
    );
  });
});

describe('a template result is never malformed', () => {
  it('answers -32603 and logs when an image data template renders text that is not base64', async () => {
    const { logs, registry } = logged();
    registry.add({
      name: 'img',
      arguments: [{ name: 'data' }],
      messages: [{ role: 'user', content: { type: 'image', data: '{{data}}', mimeType: 'image/png' } }],
    });
    const error = await rejectionOf(registry.getPrompt('img', { data: 'not base64!' }));
    expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(String(logs[0]?.['detail'])).toContain("image data template '{{data}}' did not render valid base64");
    const ok = await registry.getPrompt('img', { data: 'iVBORw0KGgo=' });
    expect(GetPromptResultSchema.parse(ok).messages[0]?.content).toEqual({
      type: 'image',
      data: 'iVBORw0KGgo=',
      mimeType: 'image/png',
    });
  });

  it('answers -32603 for an empty mimeType and for an asset loader returning text that is not base64', async () => {
    const registry = new PromptRegistry({ assets: { read: () => 'data:image/png;base64,xyz' } });
    registry.add([
      {
        name: 'mime',
        arguments: [{ name: 'type' }],
        messages: [{ role: 'user', content: { type: 'audio', data: 'UklGRg==', mimeType: '{{type}}' } }],
      },
      { name: 'asset', messages: [{ role: 'user', content: { type: 'image', path: 'a.png', mimeType: 'image/png' } }] },
    ]);
    expect((await rejectionOf(registry.getPrompt('mime', { type: '' }))).code).toBe('INTERNAL_ERROR');
    expect((await rejectionOf(registry.getPrompt('asset'))).code).toBe('INTERNAL_ERROR');
  });

  it('encodes asset bytes as base64 both SDK clients accept', async () => {
    const registry = new PromptRegistry({ assets: { read: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1]) } });
    registry.add({
      name: 'asset',
      messages: [{ role: 'user', content: { type: 'image', path: 'a.png', mimeType: 'image/png' } }],
    });
    const result = GetPromptResultSchema.parse(await registry.getPrompt('asset'));
    expect(result.messages[0]?.content).toMatchObject({ data: 'iVBORwE=' });
  });

  it('replaces lone surrogates in template text, and arguments holding them are refused before rendering', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'echo',
      arguments: [{ name: 'text' }],
      messages: [{ role: 'user', content: 'odd \uDC00 {{text}}' }],
    });
    expect((await registry.getPrompt('echo', { text: 'ok' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'odd \uFFFD ok',
    });
    expect((await rejectionOf(registry.getPrompt('echo', { text: 'a\uD800b' }))).toJsonRpcError().code).toBe(-32602);
  });

  it('refuses at registration a default holding a lone surrogate, which would reach the rendered text', () => {
    const registry = new PromptRegistry();
    const text = thrownBy(() =>
      registry.add({
        name: 'text',
        arguments: [{ name: 'x', default: 'a\uD800b' }],
        messages: [{ role: 'user', content: 'v={{x}}' }],
      }),
    );
    expect(text.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(text.data).toMatchObject({
      problems: [{ path: '/arguments/0/default', message: expect.stringContaining('lone surrogate') }],
    });
    const items = thrownBy(() =>
      registry.add({
        name: 'items',
        arguments: [{ name: 'xs', type: 'array', default: ['\uD800'] }],
        messages: [{ role: 'user', content: '{{#xs}}{{.}}{{/xs}}' }],
      }),
    );
    expect(items.data).toMatchObject({
      problems: [{ path: '/arguments/0/default', message: expect.stringContaining('lone surrogate') }],
    });
    expect([registry.get('text'), registry.get('items')]).toEqual([undefined, undefined]);
  });

  it('replaces lone surrogates in descriptions, in results and in the listing', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'described',
      description: 'odd \uD800',
      arguments: [{ name: 'a', description: '\uDC00' }],
      messages: [{ role: 'user', content: 'hi {{a}}' }],
    });
    expect((await registry.getPrompt('described', { a: 'x' })).description).toBe('odd \uFFFD');
    expect(registry.get('described')).toMatchObject({
      description: 'odd \uFFFD',
      arguments: [{ name: 'a', description: '\uFFFD' }],
    });
  });

  it('replaces lone surrogates in rendered text and resource texts with U+FFFD', async () => {
    const resources = createMemoryResourceResolver({ 'docs://odd': 'a\uD800b\uDC00c 😀' });
    const registry = new PromptRegistry({ resources });
    registry.add([
      { name: 'directive', messages: [{ role: 'user', content: 'say {{resource:docs://odd}}' }] },
      { name: 'block', messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://odd' } }] },
    ]);
    const directive = await registry.getPrompt('directive');
    expect(directive.messages[0]?.content).toEqual({ type: 'text', text: 'say a\uFFFDb\uFFFDc 😀' });
    const block = await registry.getPrompt('block');
    expect(block.messages[0]?.content).toMatchObject({ resource: { text: 'a\uFFFDb\uFFFDc 😀' } });
  });

  it("replaces lone surrogates in a resolver's uri and mimeType, in partials and in listed icons", async () => {
    const resources: ResourceResolver = { read: () => ({ uri: 'x://\uDC00', mimeType: 'text/\uD800', text: 'ok' }) };
    const registry = new PromptRegistry({ resources, partials: { odd: 'p\uD800' } });
    registry.add([
      { name: 'block', messages: [{ role: 'user', content: { type: 'resource', uri: 'x://a' } }] },
      { name: 'partial', messages: [{ role: 'user', content: 'say {{> odd}}' }] },
      {
        name: 'icon',
        icons: [{ src: 'https://x/\uD800.png', mimeType: 'image/\uDC00', sizes: ['1\uD800'] }],
        messages: [{ role: 'user', content: 'x' }],
      },
    ]);
    const block = await registry.getPrompt('block');
    expect(block.messages[0]?.content).toEqual({
      type: 'resource',
      resource: { uri: 'x://\uFFFD', mimeType: 'text/\uFFFD', text: 'ok' },
    });
    expect((await registry.getPrompt('partial')).messages[0]?.content).toEqual({ type: 'text', text: 'say p\uFFFD' });
    expect(registry.get('icon')?.icons).toEqual([
      { src: 'https://x/\uFFFD.png', mimeType: 'image/\uFFFD', sizes: ['1\uFFFD'] },
    ]);
  });

  it("replaces lone surrogates in a definition's _meta keys and strings, in the listing and in every get", async () => {
    const registry = new PromptRegistry();
    const meta = { 'k\uD800': { v: ['x\uDC00'] } };
    registry.add({
      name: 'meta',
      _meta: meta,
      messages: [{ role: 'user', content: { type: 'text', text: 'x', _meta: meta } }],
    });
    const wellFormed = { 'k\uFFFD': { v: ['x\uFFFD'] } };
    expect(registry.get('meta')?._meta).toEqual(wellFormed);
    expect((await registry.getPrompt('meta')).messages[0]?.content).toEqual({
      type: 'text',
      text: 'x',
      _meta: wellFormed,
    });
  });
});

describe('definitions that can never render', () => {
  it('rejects a static template or description over the rendered-size limit at registration', () => {
    const registry = new PromptRegistry({ limits: { maxRenderedBytes: 100 } });
    const template = thrownBy(() =>
      registry.add({ name: 'big', messages: [{ role: 'user', content: 'x'.repeat(101) }] }),
    );
    expect(template.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(template.message).toContain('/messages/0/content');
    const description = thrownBy(() =>
      registry.add({ name: 'desc', description: 'é'.repeat(51), messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(description.message).toContain('/description');
    registry.add({ name: 'fits', description: 'd'.repeat(50), messages: [{ role: 'user', content: 'x'.repeat(50) }] });
    expect(registry.has('fits')).toBe(true);
  });

  it('rejects a definition whose literal text, partials, media data or link fields alone are over the limit at registration', () => {
    const big = 'x'.repeat(101);
    const cases: [string, PromptDefinition, string][] = [
      [
        'literal text and a placeholder',
        { name: 'p', arguments: [{ name: 'a' }], messages: [{ role: 'user', content: `${big}{{a}}` }] },
        '/messages/0/content/text',
      ],
      [
        'a static partial',
        { name: 'p', messages: [{ role: 'user', content: '{{> big}}' }] },
        '/messages/0/content/text',
      ],
      [
        'static image data',
        {
          name: 'p',
          messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat(104), mimeType: 'image/png' } }],
        },
        '/messages/0/content/data',
      ],
      [
        'a link name',
        { name: 'p', messages: [{ role: 'user', content: { type: 'resource_link', uri: 'x://a', name: big } }] },
        '/messages/0/content/name',
      ],
      [
        'a link description',
        {
          name: 'p',
          messages: [{ role: 'user', content: { type: 'resource_link', uri: 'x://a', name: 'n', description: big } }],
        },
        '/messages/0/content/description',
      ],
      [
        'the description and an image together',
        {
          name: 'p',
          description: 'd'.repeat(60),
          messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat(60), mimeType: 'image/png' } }],
        },
        '/messages',
      ],
    ];
    for (const [label, def, pointer] of cases) {
      const registry = new PromptRegistry({ limits: { maxRenderedBytes: 100 }, partials: { big } });
      const error = thrownBy(() => registry.add(def));
      expect(error.code, label).toBe('INVALID_PROMPT_DEFINITION');
      expect(error.message, label).toContain(`${pointer}: the text`);
    }
  });

  it('accepts a definition whose text over the limit is inside a section, which a render may skip', async () => {
    const registry = new PromptRegistry({ limits: { maxRenderedBytes: 100 } });
    registry.add({
      name: 'p',
      arguments: [{ name: 'a' }],
      messages: [{ role: 'user', content: `short{{#a}}${'x'.repeat(200)}{{/a}}` }],
    });
    expect((await registry.getPrompt('p')).messages[0]?.content).toEqual({ type: 'text', text: 'short' });
  });

  it('rejects static image or audio data that is not base64, and a blank static mimeType, at registration', () => {
    const media = (content: MediaContentTemplate): PromptDefinition => ({
      name: 'm',
      messages: [{ role: 'user', content }],
    });
    const data = thrownBy(() =>
      new PromptRegistry().add(media({ type: 'image', data: 'not base64', mimeType: 'image/png' })),
    );
    expect(data.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(data.message).toContain('/messages/0/content/data: image data must be base64');
    const mimeType = thrownBy(() => new PromptRegistry().add(media({ type: 'audio', data: 'AAAA', mimeType: '  ' })));
    expect(mimeType.message).toContain('/messages/0/content/mimeType: audio mimeType must not be blank');
    const registry = new PromptRegistry();
    registry.add([
      { name: 'ok', messages: [{ role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }] },
      {
        name: 'templated',
        arguments: [{ name: 'd' }],
        messages: [{ role: 'user', content: { type: 'image', data: '{{d}}', mimeType: 'image/png' } }],
      },
    ]);
    expect(registry.has('templated')).toBe(true);
  });

  it('rejects _meta that cannot be serialized at registration', () => {
    const registry = new PromptRegistry();
    const error = thrownBy(() =>
      registry.add({
        name: 'meta',
        messages: [{ role: 'user', content: { type: 'text', text: 'x', _meta: { n: 1n } } }],
      }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it('rejects a top-level {{.}}, which would render undeclared extra arguments', () => {
    const registry = new PromptRegistry();
    const error = thrownBy(() =>
      registry.add({ name: 'dot', arguments: [{ name: 'a' }], messages: [{ role: 'user', content: 'all: {{.}}' }] }),
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toContain('{{.}} outside every section');
    registry.add({
      name: 'items',
      arguments: [{ name: 'files', type: 'array' }],
      messages: [{ role: 'user', content: '{{#files}}{{.}} {{/files}}' }],
    });
    expect(registry.has('items')).toBe(true);
  });
});

describe('prompts sharing templates', () => {
  it('render and release independently when they share every template', async () => {
    const registry = new PromptRegistry();
    const def = (name: string) => ({
      name,
      arguments: [{ name: 'x' }],
      messages: [
        { role: 'user' as const, content: 'one {{x}}' },
        { role: 'assistant' as const, content: 'two {{x}}' },
      ],
    });
    registry.add([
      def('a'),
      def('b'),
      { ...def('c'), messages: [{ role: 'assistant' as const, content: 'one {{x}}' }] },
    ]);
    registry.remove('a');
    expect((await registry.getPrompt('b', { x: '1' })).messages.map((m) => [m.role, m.content])).toEqual([
      ['user', { type: 'text', text: 'one 1' }],
      ['assistant', { type: 'text', text: 'two 1' }],
    ]);
    expect((await registry.getPrompt('c', { x: '2' })).messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'one 2' } },
    ]);
  });
});

describe('definitions of one shape', () => {
  const shape = (name: string, text = 'Review {{code}}'): PromptDefinition => ({
    name,
    description: `about ${name}`,
    arguments: [{ name: 'code', required: true }, { name: 'focus' }],
    messages: [
      { role: 'user', content: `${text}{{#focus}} for {{focus}}{{/focus}}` },
      { role: 'assistant', content: 'Sure.' },
    ],
  });

  function environment(undeclared: 'error' | 'warn' = 'error', warnings: string[] = []): CompileEnvironment {
    return {
      templates: new TemplateCache(),
      validators: new ArgumentValidatorCache(),
      validation: {},
      partials: undefined,
      undeclared,
      onWarning: (message) => warnings.push(message),
      assets: undefined,
      resources: undefined,
    };
  }

  function compileAll(env: CompileEnvironment, defs: PromptDefinition[], lists = new ParsedLists()): CompiledPrompt[] {
    return defs.map((d) => compilePrompt(parseWithLists(d, {}, lists), env));
  }

  it('share the parsed lists and the listed arguments, and each lists its own name and description', () => {
    const registry = new PromptRegistry();
    registry.add([shape('a'), shape('b'), shape('c')]);
    const [a, b] = registry.definitions();
    expect(b?.arguments).toBe(a?.arguments);
    expect(b?.messages).toBe(a?.messages);
    expect(registry.get('b')?.arguments).toBe(registry.get('a')?.arguments);
    expect(registry.get('c')).toEqual({
      name: 'c',
      description: 'about c',
      arguments: [
        { name: 'code', required: true },
        { name: 'focus', required: false },
      ],
    });
  });

  it('hold their shared templates until the last of them is released', () => {
    const env = environment();
    const [a, b, c] = compileAll(env, [shape('a'), shape('b'), shape('c')]);
    expect(env.templates.size).toBe(2);
    a!.release();
    b!.release();
    expect(env.templates.size).toBe(2);
    c!.release();
    expect(env.templates.size).toBe(0);
  });

  it('render each with its own arguments', async () => {
    const registry = new PromptRegistry();
    registry.add([shape('a'), shape('b')]);
    expect((await registry.getPrompt('b', { code: 'x', focus: 'y' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Review x for y',
    });
    expect((await rejectionOf(registry.getPrompt('a', {}))).data).toEqual({
      missing_arguments: ['code'],
      provided_count: 0,
      required_count: 1,
    });
  });

  it('still warn about an undeclared placeholder once per definition that has it', () => {
    const warnings: string[] = [];
    compileAll(environment('warn', warnings), [shape('a', '{{nope}} '), shape('b', '{{nope}} ')]);
    expect(warnings[0]).toMatch(/undeclared argument 'nope'/);
    expect(warnings).toHaveLength(2);
  });

  it('still check each definition against its own argument list', () => {
    const env = environment();
    const lists = new ParsedLists();
    const withoutFocus = { ...shape('b'), arguments: [{ name: 'code', required: true }] };
    compileAll(env, [shape('a')], lists);
    expect(() => compileAll(env, [withoutFocus], lists)).toThrow(/undeclared argument 'focus'/);
  });

  it('still check each description against the rendered-size limit', () => {
    const env = { ...environment(), maxRenderedBytes: 100 };
    const lists = new ParsedLists();
    compileAll(env, [shape('a')], lists);
    expect(() => compileAll(env, [{ ...shape('b'), description: 'd'.repeat(101) }], lists)).toThrow(
      /description is over the 100-byte/,
    );
  });
});
