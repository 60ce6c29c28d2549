import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import type { ResourceContents, ResourceReadContext, ResourceResolver } from '../../src/resources.js';
import {
  DEFAULT_RENDER_LIMITS,
  assertRenderedSize,
  compileTemplate,
  createMemoryResourceResolver,
  matchResourcePattern,
  resolveEmbeddedResource,
  resolveResourceDirectives,
  utf8ByteLength,
} from '../../src/render/index.js';
import { toView } from './helpers.js';
import { rejectionOf } from '../support/errors.js';

const ctx: ResourceReadContext = { promptName: 'test' };
const limits = DEFAULT_RENDER_LIMITS;

const rejection = rejectionOf;

/** A resolver recording calls, answering after `delay` ms. */
function recordingResolver(
  docs: Record<string, string>,
  delay = 0,
): ResourceResolver & {
  reads: string[];
  signals: AbortSignal[];
  maxInFlight: number;
} {
  let inFlight = 0;
  const memory = createMemoryResourceResolver(docs);
  const resolver = {
    reads: [] as string[],
    signals: [] as AbortSignal[],
    maxInFlight: 0,
    async read(uri: string, context: ResourceReadContext) {
      resolver.reads.push(uri);
      if (context.signal) resolver.signals.push(context.signal);
      inFlight++;
      resolver.maxInFlight = Math.max(resolver.maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, delay));
      inFlight--;
      return memory.read(uri);
    },
    async list(pattern: string, context: ResourceReadContext) {
      resolver.reads.push(pattern);
      if (context.signal) resolver.signals.push(context.signal);
      inFlight++;
      resolver.maxInFlight = Math.max(resolver.maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, delay));
      inFlight--;
      return memory.list(pattern);
    },
  };
  return resolver;
}

describe('resolveResourceDirectives', () => {
  it('resolves exact URIs and globs in parallel', async () => {
    const resolver = recordingResolver({ 'a://1': 'one', 'a://2': 'two', 'p://x': 'X', 'p://y': 'Y' }, 20);
    const texts = await resolveResourceDirectives(['a://1', 'p://*', 'a://2'], resolver, ctx, {
      limits,
      onResourceError: 'error',
    });
    expect(resolver.maxInFlight).toBe(3);
    expect(Object.fromEntries(texts)).toEqual({
      'a://1': 'one',
      'a://2': 'two',
      'p://*': '--- p://x ---\nX\n\n--- p://y ---\nY',
    });
  });

  it('reads a directive listed twice only once', async () => {
    const resolver = recordingResolver({ 'a://1': 'one' });
    await resolveResourceDirectives(['a://1', 'a://1'], resolver, ctx);
    expect(resolver.reads).toEqual(['a://1']);
  });

  it('sorts glob matches by URI in code-unit order whatever order the resolver lists them in', async () => {
    const resolver: ResourceResolver = {
      read: () => undefined,
      list: () => [
        { uri: 'd://é', text: '4' },
        { uri: 'd://b', text: '3' },
        { uri: 'd://B', text: '1' },
        { uri: 'd://a', text: '2' },
      ],
    };
    const texts = await resolveResourceDirectives(['d://*'], resolver, ctx);
    expect(texts.get('d://*')).toBe('--- d://B ---\n1\n\n--- d://a ---\n2\n\n--- d://b ---\n3\n\n--- d://é ---\n4');
  });

  it('fails with RESOURCE_NOT_FOUND for an unknown resource', async () => {
    const error = await rejection(resolveResourceDirectives(['a://missing'], createMemoryResourceResolver({}), ctx));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect(error.message).toBe('Resource not found: a://missing');
    expect(error.rpcCode).toBe(-32602);
  });

  it('treats a resolver that throws RESOURCE_NOT_FOUND like one that returns nothing', async () => {
    const resolver: ResourceResolver = {
      read: () => {
        throw new PromptError('RESOURCE_NOT_FOUND', 'nope');
      },
    };
    const error = await rejection(resolveResourceDirectives(['a://x'], resolver, ctx));
    expect(error.message).toBe('Resource not found: a://x');
    const inline = await resolveResourceDirectives(['a://x'], resolver, ctx, { limits, onResourceError: 'inline' });
    expect(inline.get('a://x')).toBe('[resource not found: a://x]');
  });

  it('fails with RESOURCE_NOT_FOUND for a glob without matches', async () => {
    const resolver = createMemoryResourceResolver({ 'a://1': 'x' });
    const error = await rejection(resolveResourceDirectives(['b://*'], resolver, ctx));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect(error.message).toBe('Resource not found: b://*');
  });

  it("renders visible notes instead of failing with onResourceError: 'inline'", async () => {
    const resolver = createMemoryResourceResolver({ 'a://1': 'one' });
    const texts = await resolveResourceDirectives(['a://1', 'a://2', 'b://*'], resolver, ctx, {
      limits,
      onResourceError: 'inline',
    });
    expect(Object.fromEntries(texts)).toEqual({
      'a://1': 'one',
      'a://2': '[resource not found: a://2]',
      'b://*': '[resource not found: b://*]',
    });
  });

  it('passes a RESOURCE_DENIED error through, or notes it inline', async () => {
    const denied = new PromptError('RESOURCE_DENIED', 'Resource access denied: secret://x');
    const resolver: ResourceResolver = {
      read: () => Promise.reject(denied),
      list: () => {
        throw denied;
      },
    };
    expect(await rejection(resolveResourceDirectives(['secret://x'], resolver, ctx))).toBe(denied);
    expect(await rejection(resolveResourceDirectives(['secret://*'], resolver, ctx))).toBe(denied);
    const texts = await resolveResourceDirectives(['secret://x', 'secret://*'], resolver, ctx, {
      limits,
      onResourceError: 'inline',
    });
    expect(texts.get('secret://x')).toBe('[resource denied: secret://x]');
    expect(texts.get('secret://*')).toBe('[resource denied: secret://*]');
  });

  it('turns any other resolver failure into INTERNAL_ERROR keeping the cause, even inline', async () => {
    const boom = new Error('disk on fire');
    const resolver: ResourceResolver = { read: () => Promise.reject(boom) };
    for (const onResourceError of ['error', 'inline'] as const) {
      const error = await rejection(resolveResourceDirectives(['a://1'], resolver, ctx, { limits, onResourceError }));
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.cause).toBe(boom);
      expect(error.message).not.toContain('disk on fire');
      expect(error.clientMessage).toBe('Internal error');
    }
  });

  it('fails with INTERNAL_ERROR for a glob when the resolver cannot list', async () => {
    const resolver: ResourceResolver = { read: () => ({ uri: 'a://1', text: 'x' }) };
    const error = await rejection(resolveResourceDirectives(['a://*'], resolver, ctx));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toContain('cannot list');
  });

  it('fails with INTERNAL_ERROR when directives need a resolver and there is none', async () => {
    expect((await rejection(resolveResourceDirectives(['a://1'], undefined, ctx))).code).toBe('INTERNAL_ERROR');
    expect((await resolveResourceDirectives([], undefined, ctx)).size).toBe(0);
  });

  it('rejects resolver output without text or blob as INTERNAL_ERROR', async () => {
    const resolver = { read: () => ({ uri: 'a://1' }) } as unknown as ResourceResolver;
    expect((await rejection(resolveResourceDirectives(['a://1'], resolver, ctx))).code).toBe('INTERNAL_ERROR');
  });

  it('notes a binary resource with its type and decoded size', async () => {
    const resolver = createMemoryResourceResolver({
      'b://png': { mimeType: 'image/png', blob: 'AAECAwQ=' },
      'b://raw': { blob: 'AAEC' },
    });
    const texts = await resolveResourceDirectives(['b://png', 'b://raw'], resolver, ctx);
    expect(texts.get('b://png')).toBe('[binary resource b://png, image/png, 5 bytes]');
    expect(texts.get('b://raw')).toBe('[binary resource b://raw, application/octet-stream, 3 bytes]');
  });

  describe('limits', () => {
    it('fails with LIMIT_EXCEEDED before reading anything when exact directives exceed maxResources', async () => {
      const resolver = recordingResolver({ 'a://1': '1', 'a://2': '2', 'a://3': '3' });
      const error = await rejection(
        resolveResourceDirectives(['a://1', 'a://2', 'a://3'], resolver, ctx, {
          limits: { ...limits, maxResources: 2 },
          onResourceError: 'error',
        }),
      );
      expect(error.code).toBe('LIMIT_EXCEEDED');
      expect(error.message).toBe('Prompt embeds more than 2 resources');
      expect(error.httpStatus).toBe(413);
      expect(resolver.reads).toEqual([]);
    });

    it('counts every glob match against maxResources', async () => {
      const docs = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p://${i}`, `doc ${i}`]));
      const error = await rejection(resolveResourceDirectives(['p://*'], createMemoryResourceResolver(docs), ctx));
      expect(error.code).toBe('LIMIT_EXCEEDED');
      expect(error.message).toBe('Prompt embeds more than 50 resources');
      const fifty = { ...docs };
      delete fifty['p://50'];
      await expect(
        resolveResourceDirectives(['p://*'], createMemoryResourceResolver(fifty), ctx),
      ).resolves.toBeDefined();
    });

    it('counts documents embedded elsewhere in the same render', async () => {
      const resolver = createMemoryResourceResolver({ 'a://1': '1' });
      const options = { limits: { ...limits, maxResources: 3 }, onResourceError: 'error' as const };
      await expect(
        resolveResourceDirectives(['a://1'], resolver, ctx, { ...options, alreadyEmbedded: 2 }),
      ).resolves.toBeDefined();
      const error = await rejection(
        resolveResourceDirectives(['a://1'], resolver, ctx, { ...options, alreadyEmbedded: 3 }),
      );
      expect(error.code).toBe('LIMIT_EXCEEDED');
    });

    it('stops as soon as directive texts exceed maxRenderedBytes and aborts the reads still running', async () => {
      const big = 'x'.repeat(2000);
      const signals: AbortSignal[] = [];
      const order: string[] = [];
      const resolver: ResourceResolver = {
        read: (uri, context) => {
          if (context.signal) signals.push(context.signal);
          if (uri === 'a://big') return { uri, text: big };
          // Never answers on its own: only the abort ends it, so waiting for it instead of refusing would hang.
          return new Promise<ResourceContents>((resolve) =>
            context.signal?.addEventListener('abort', () => {
              order.push('slow read aborted');
              resolve({ uri, text: 'slow' });
            }),
          );
        },
      };
      const error = await rejection(
        resolveResourceDirectives(['a://slow', 'a://big'], resolver, ctx, {
          limits: { ...DEFAULT_RENDER_LIMITS, maxRenderedBytes: 1000 },
          onResourceError: 'error',
        }),
      );
      order.push('refused');
      expect(error.code).toBe('LIMIT_EXCEEDED');
      expect(error.message).toBe('Rendered prompt exceeds 1000 bytes');
      expect(signals.length).toBe(2);
      expect(signals.every((s) => s.aborted)).toBe(true);
      expect(order).toEqual(['slow read aborted', 'refused']);
    });

    it("forwards the caller's abort signal to the resolver", async () => {
      const controller = new AbortController();
      let seen: AbortSignal | undefined;
      const resolver: ResourceResolver = {
        read: (uri, context) => {
          seen = context.signal;
          controller.abort(new Error('cancelled'));
          return { uri, text: 'x' };
        },
      };
      await resolveResourceDirectives(['a://1'], resolver, { promptName: 'p', signal: controller.signal });
      expect(seen?.aborted).toBe(true);
    });
  });

  it('feeds a compiled template end to end, resolving only the directives the arguments reach', async () => {
    const resolver = recordingResolver({ 'docs://always': 'A', 'docs://optional': 'O' });
    const t = compileTemplate('{{resource:docs://always}}{{#more}}+{{resource:docs://optional}}{{/more}}');
    const view = toView({});
    const texts = await resolveResourceDirectives(t.resourceDirectivesFor(view), resolver, ctx);
    expect(t.render(view, texts)).toBe('A');
    expect(resolver.reads).toEqual(['docs://always']);
  });
});

describe('resolver answers are checked', () => {
  it('fails a listing entry without a string uri or with non-string text as a resolver error', async () => {
    const entries: unknown[] = [{ text: 'no uri' }, { uri: 'docs://a', text: 42 }, { uri: 7, text: 'x' }];
    for (const entry of entries) {
      const resolver = { read: () => undefined, list: () => [entry] } as unknown as ResourceResolver;
      const error = await rejection(resolveResourceDirectives(['docs://*'], resolver, ctx));
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toMatch(/^Resource resolver returned invalid contents for docs:\/\/\* \(/);
    }
  });

  it('fails a blob that is not base64, and sizes wrapped base64 without its line breaks', async () => {
    const bad = { read: (uri: string) => ({ uri, blob: 'not base64!' }) };
    expect((await rejection(resolveEmbeddedResource('x://1', bad, ctx))).code).toBe('INTERNAL_ERROR');
    const good = createMemoryResourceResolver({ 'x://1': { mimeType: 'image/png', blob: 'AAAA' } });
    const texts = await resolveResourceDirectives(['x://1'], good, ctx);
    expect(texts.get('x://1')).toBe('[binary resource x://1, image/png, 3 bytes]');
  });
});

describe('resolver answers are read once', () => {
  /** Contents whose `text` answers 'checked' on the first read and 42 on every later one, counting its reads. */
  function flakyText(uri: string): { contents: ResourceContents; reads: () => number } {
    let n = 0;
    const contents = Object.defineProperty({ uri, blob: 'not base64!' }, 'text', {
      enumerable: true,
      get: () => (n++ === 0 ? 'checked' : 42),
    }) as unknown as ResourceContents;
    return { contents, reads: () => n };
  }

  it('embeds the text it checked, reading each field once', async () => {
    const flaky = flakyText('x://1');
    const resolver = { read: () => flaky.contents };
    expect(await resolveEmbeddedResource('x://1', resolver, ctx)).toEqual({ uri: 'x://1', text: 'checked' });
    expect(flaky.reads()).toBe(1);
  });

  it('renders the text it checked for exact and glob directives, reading each field once', async () => {
    const exact = flakyText('x://1');
    const listed = flakyText('x://2');
    const resolver = { read: () => exact.contents, list: () => [listed.contents] };
    const texts = await resolveResourceDirectives(['x://1', 'x://*'], resolver, ctx);
    expect([texts.get('x://1'), texts.get('x://*')]).toEqual(['checked', '--- x://2 ---\nchecked']);
    expect([exact.reads(), listed.reads()]).toEqual([1, 1]);
  });

  it('turns contents whose getter throws into an internal error naming only the error class', async () => {
    const throwing = Object.defineProperty({ uri: 'x://1' }, 'text', {
      enumerable: true,
      get: () => {
        throw new TypeError('secret');
      },
    }) as unknown as ResourceContents;
    const resolver = { read: () => throwing, list: () => [throwing] };
    for (const pending of [
      resolveEmbeddedResource('x://1', resolver, ctx),
      resolveResourceDirectives(['x://1'], resolver, ctx),
      resolveResourceDirectives(['x://*'], resolver, ctx),
    ]) {
      const error = await rejection(pending);
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toMatch(
        /^Resource resolver returned contents for x:\/\/[1*] whose reading threw TypeError$/,
      );
    }
  });
});

describe('waiting for a resolver', () => {
  const never = { read: () => new Promise<undefined>(() => {}) };

  it('gives up after limits.resourceTimeoutMs with an internal error naming the URI', async () => {
    const error = await rejection(
      resolveResourceDirectives(['docs://slow'], never, ctx, {
        limits: { ...DEFAULT_RENDER_LIMITS, resourceTimeoutMs: 20 },
      }),
    );
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe('Reading docs://slow took longer than the 20 ms resource timeout');
  });

  it('stops waiting as soon as the caller aborts', async () => {
    const controller = new AbortController();
    const pending = rejection(
      resolveEmbeddedResource('docs://slow', never, { promptName: 'p', signal: controller.signal }),
    );
    controller.abort();
    expect((await pending).message).toBe('Request cancelled while reading docs://slow');
  });
});

describe('resolveEmbeddedResource', () => {
  const resolver = createMemoryResourceResolver({
    'docs://guide': { mimeType: 'text/markdown', text: '# Guide {{not rendered}}' },
    'docs://plain': 'plain',
    'img://logo': { mimeType: 'image/png', blob: 'AAEC' },
  });

  it('returns text and blob resources as EmbeddedResource contents', async () => {
    expect(await resolveEmbeddedResource('docs://guide', resolver, ctx)).toEqual({
      uri: 'docs://guide',
      mimeType: 'text/markdown',
      text: '# Guide {{not rendered}}',
    });
    expect(await resolveEmbeddedResource('img://logo', resolver, ctx)).toEqual({
      uri: 'img://logo',
      mimeType: 'image/png',
      blob: 'AAEC',
    });
  });

  it("uses the template's mimeType when the resolver gives none", async () => {
    expect(await resolveEmbeddedResource('docs://plain', resolver, ctx, { mimeType: 'text/plain' })).toEqual({
      uri: 'docs://plain',
      mimeType: 'text/plain',
      text: 'plain',
    });
    expect(await resolveEmbeddedResource('docs://plain', resolver, ctx)).toEqual({
      uri: 'docs://plain',
      text: 'plain',
    });
    for (const none of [null, '']) {
      const blank = { read: (uri: string) => ({ uri, mimeType: none, text: 't' }) } as unknown as ResourceResolver;
      expect(await resolveEmbeddedResource('x://1', blank, ctx, { mimeType: 'text/csv' })).toEqual({
        uri: 'x://1',
        mimeType: 'text/csv',
        text: 't',
      });
      expect(await resolveEmbeddedResource('x://1', blank, ctx)).toEqual({ uri: 'x://1', text: 't' });
    }
  });

  it("lets the template's declared mimeType win over the resolver's, in the form it calls for", async () => {
    const declared = (mimeType: string) => ({ mimeType });
    expect(await resolveEmbeddedResource('docs://guide', resolver, ctx, declared('text/plain'))).toEqual({
      uri: 'docs://guide',
      mimeType: 'text/plain',
      text: '# Guide {{not rendered}}',
    });
    // A blob declared as text is decoded when it is UTF-8; text declared as a binary type is encoded.
    const bytes = createMemoryResourceResolver({
      'x://utf8': { mimeType: 'application/octet-stream', blob: Buffer.from('héllo').toString('base64') },
      'x://binary': { mimeType: 'application/octet-stream', blob: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') },
    });
    expect(await resolveEmbeddedResource('x://utf8', bytes, ctx, declared('text/plain; charset=utf-8'))).toEqual({
      uri: 'x://utf8',
      mimeType: 'text/plain; charset=utf-8',
      text: 'héllo',
    });
    expect(await resolveEmbeddedResource('x://binary', bytes, ctx, declared('text/plain'))).toEqual({
      uri: 'x://binary',
      mimeType: 'text/plain',
      blob: '//4A',
    });
    expect(await resolveEmbeddedResource('docs://guide', resolver, ctx, declared('application/pdf'))).toEqual({
      uri: 'docs://guide',
      mimeType: 'application/pdf',
      blob: Buffer.from('# Guide {{not rendered}}').toString('base64'),
    });
    expect(await resolveEmbeddedResource('img://logo', resolver, ctx, declared('image/x-icon'))).toEqual({
      uri: 'img://logo',
      mimeType: 'image/x-icon',
      blob: 'AAEC',
    });
  });

  it("keeps inline notes text/plain whatever the template's mimeType", async () => {
    const note = await resolveEmbeddedResource('docs://nope', resolver, ctx, {
      onResourceError: 'inline',
      mimeType: 'application/json',
    });
    expect(note).toEqual({ uri: 'docs://nope', mimeType: 'text/plain', text: '[resource not found: docs://nope]' });
  });

  it('rejects a resolver mimeType that is not a string as INTERNAL_ERROR', async () => {
    const odd = { read: (uri: string) => ({ uri, mimeType: 42, text: 't' }) } as unknown as ResourceResolver;
    const error = await rejection(resolveEmbeddedResource('x://1', odd, ctx, { mimeType: 'text/plain' }));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toContain('mimeType is not a string');
  });

  it('fails with RESOURCE_NOT_FOUND, or returns a note inline', async () => {
    const error = await rejection(resolveEmbeddedResource('docs://nope', resolver, ctx));
    expect(error.message).toBe('Resource not found: docs://nope');
    expect(await resolveEmbeddedResource('docs://nope', resolver, ctx, { onResourceError: 'inline' })).toEqual({
      uri: 'docs://nope',
      mimeType: 'text/plain',
      text: '[resource not found: docs://nope]',
    });
  });

  it('passes RESOURCE_DENIED through and wraps other failures as INTERNAL_ERROR', async () => {
    const denied = new PromptError('RESOURCE_DENIED', 'no');
    expect(await rejection(resolveEmbeddedResource('x://1', { read: () => Promise.reject(denied) }, ctx))).toBe(denied);
    const error = await rejection(
      resolveEmbeddedResource('x://1', { read: () => Promise.reject(new Error('io')) }, ctx),
    );
    expect(error.code).toBe('INTERNAL_ERROR');
  });

  it('fails with LIMIT_EXCEEDED for a resource larger than maxRenderedBytes', async () => {
    const error = await rejection(
      resolveEmbeddedResource('docs://guide', resolver, ctx, {
        limits: { ...DEFAULT_RENDER_LIMITS, maxRenderedBytes: 10 },
      }),
    );
    expect(error.code).toBe('LIMIT_EXCEEDED');
  });
});

describe('internal errors keep argument values out of the logs', () => {
  const rendered = 'users://alice-ssn-123-45-6789/notes';
  const uriTemplate = 'users://{{user}}/notes';
  const secret = 'alice-ssn';

  function failing(error: unknown): ResourceResolver {
    return { read: () => Promise.reject(error), list: () => Promise.reject(error) };
  }

  it("names a failing resolver's error by its name, never its message, and keeps it as the cause", async () => {
    const boom = new TypeError(`cannot read ${rendered}`);
    const direct = await rejection(resolveResourceDirectives(['docs://a'], failing(boom), ctx));
    expect(direct.message).toBe('Resource resolver failed for docs://a: TypeError');
    expect(direct.cause).toBe(boom);
    const glob = await rejection(resolveResourceDirectives(['docs://*'], failing(boom), ctx));
    expect(glob.message).toBe('Resource resolver failed for docs://*: TypeError');
    const embedded = await rejection(resolveEmbeddedResource(rendered, failing(boom), ctx, { uriTemplate }));
    expect(embedded.code).toBe('INTERNAL_ERROR');
    expect(embedded.message).toBe('Resource resolver failed for URI template users://{{user}}/notes: TypeError');
    expect(embedded.cause).toBe(boom);
  });

  it('does not quote a thrown value that is not an Error', async () => {
    const error = await rejection(resolveEmbeddedResource(rendered, failing(`no ${rendered}`), ctx, { uriTemplate }));
    expect(error.message).toBe('Resource resolver failed for URI template users://{{user}}/notes: a thrown string');
    expect(error.cause).toBe(`no ${rendered}`);
  });

  it('names the URI template, not the rendered URI, for bad resolver output and a missing resolver', async () => {
    const bad = { read: () => ({ uri: rendered }) } as unknown as ResourceResolver;
    const invalid = await rejection(resolveEmbeddedResource(rendered, bad, ctx, { uriTemplate }));
    expect(invalid.code).toBe('INTERNAL_ERROR');
    expect(invalid.message).toBe(
      'Resource resolver returned invalid contents for URI template users://{{user}}/notes (no text or blob)',
    );
    const none = await rejection(resolveEmbeddedResource(rendered, undefined, ctx, { uriTemplate }));
    expect(none.code).toBe('INTERNAL_ERROR');
    expect(none.message).not.toContain(secret);
    expect(none.message).toContain(uriTemplate);
  });

  it('names the rendered URI in internal errors only when no URI template is given', async () => {
    const error = await rejection(resolveEmbeddedResource(rendered, failing(new Error('x')), ctx));
    expect(error.message).toBe(`Resource resolver failed for ${rendered}: Error`);
  });

  it('keeps the rendered URI in client-facing errors and inline notes', async () => {
    const empty = createMemoryResourceResolver({});
    const missing = await rejection(resolveEmbeddedResource(rendered, empty, ctx, { uriTemplate }));
    expect(missing.code).toBe('RESOURCE_NOT_FOUND');
    expect(missing.message).toBe(`Resource not found: ${rendered}`);
    const note = await resolveEmbeddedResource(rendered, empty, ctx, { uriTemplate, onResourceError: 'inline' });
    expect(note).toEqual({ uri: rendered, mimeType: 'text/plain', text: `[resource not found: ${rendered}]` });
    const denied = new PromptError('RESOURCE_DENIED', `Resource access denied: ${rendered}`);
    expect(await rejection(resolveEmbeddedResource(rendered, failing(denied), ctx, { uriTemplate }))).toBe(denied);
  });
});

describe('createMemoryResourceResolver', () => {
  it('reads copies, so callers cannot change what it holds', () => {
    const r = createMemoryResourceResolver({ 'a://1': 'one' });
    const first = r.read('a://1');
    if (first) first.text = 'changed';
    expect(r.read('a://1')).toEqual({ uri: 'a://1', text: 'one' });
    expect(r.read('a://2')).toBeUndefined();
  });

  it('lists glob matches sorted by URI and follows set and delete', () => {
    const r = createMemoryResourceResolver([
      { uri: 'p://b', text: 'b' },
      { uri: 'p://a', text: 'a', mimeType: 'text/markdown' },
    ]);
    expect(r.list('p://*').map((c) => c.uri)).toEqual(['p://a', 'p://b']);
    r.set('p://0', 'zero');
    expect(r.list('p://*').map((c) => c.uri)).toEqual(['p://0', 'p://a', 'p://b']);
    expect(r.delete('p://a')).toBe(true);
    expect(r.delete('p://a')).toBe(false);
    expect(r.list('p://*').map((c) => c.uri)).toEqual(['p://0', 'p://b']);
    expect(r.size).toBe(2);
  });

  it('rejects a resource with neither or both of text and blob', () => {
    expect(() => createMemoryResourceResolver({ 'a://1': {} })).toThrow(PromptError);
    expect(() => createMemoryResourceResolver({ 'a://1': { text: 'x', blob: 'eA==' } })).toThrow(PromptError);
  });
});

describe('matchResourcePattern', () => {
  it('matches * within one path segment and ** across segments', () => {
    expect(matchResourcePattern('architecture://patterns/*', 'architecture://patterns/cqrs')).toBe(true);
    expect(matchResourcePattern('architecture://patterns/*', 'architecture://patterns/a/b')).toBe(false);
    expect(matchResourcePattern('architecture://patterns/**', 'architecture://patterns/a/b')).toBe(true);
    expect(matchResourcePattern('docs://*.md', 'docs://readme.md')).toBe(true);
    expect(matchResourcePattern('docs://*.md', 'docs://readme.txt')).toBe(false);
  });

  it('matches the whole URI and treats every other character literally', () => {
    expect(matchResourcePattern('a://x', 'a://x')).toBe(true);
    expect(matchResourcePattern('a://*', 'b://a://x')).toBe(false);
    expect(matchResourcePattern('a://v1.?(x)+[y]/*', 'a://v1.?(x)+[y]/z')).toBe(true);
    expect(matchResourcePattern('a://v1.x/*', 'a://v1Xx/z')).toBe(false);
  });
});

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes exactly like TextEncoder', () => {
    const samples = [
      '',
      'ascii',
      'é',
      '€',
      '日本語',
      '😀',
      'a😀b€é',
      '\ud800',
      'x\udc00y',
      '\ud83d\ud83d',
      '\u07ff\u0800',
    ];
    const encoder = new TextEncoder();
    for (const s of samples) expect(utf8ByteLength(s)).toBe(encoder.encode(s).length);
  });
});

describe('assertRenderedSize', () => {
  const tiny = { maxRenderedBytes: 10 };

  it('accepts a rendered size up to the limit and rejects one byte more', () => {
    expect(() => assertRenderedSize(10, tiny)).not.toThrow();
    expect(() => assertRenderedSize(11, tiny)).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', message: 'Rendered prompt exceeds 10 bytes' }),
    );
    expect(() => assertRenderedSize(DEFAULT_RENDER_LIMITS.maxRenderedBytes + 1)).toThrow(/1048576 bytes/);
  });

  it('measures texts in UTF-8 bytes, not characters', () => {
    expect(() => assertRenderedSize('ééééé', tiny)).not.toThrow();
    expect(() => assertRenderedSize('éééééé', tiny)).toThrow(PromptError);
    expect(() => assertRenderedSize(['abcde', 'ééé'], tiny)).toThrow(PromptError);
    expect(() => assertRenderedSize(['abcd', 'ééé'], tiny)).not.toThrow();
  });
});
