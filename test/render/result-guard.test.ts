import { describe, expect, it } from 'vitest';
import { GetPromptResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { PromptError } from '../../src/errors.js';
import { guardPromptResult, normalizeRenderOutput } from '../../src/render/result-guard.js';
import { assertRenderedSize } from '../../src/render/limits.js';
import { errorResponseFor } from '../../src/response.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { rejectionOf, thrownBy } from '../support/errors.js';
import { base64DecodedSize, bytesToBase64, isBase64 } from '../../src/encoding.js';

const OPTIONS = { maxRenderedBytes: 1_048_576, promptName: 'review-code' };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function guardError(value: unknown, options = OPTIONS): PromptError {
  return thrownBy(() => guardPromptResult(value, options));
}

function withContent(content: unknown): unknown {
  return { messages: [{ role: 'user', content }] };
}

const EVERY_BLOCK = {
  description: 'All block types',
  _meta: { trace: 'abc' },
  messages: [
    { role: 'user', content: { type: 'text', text: 'Hello', annotations: { audience: ['user'], priority: 0.5 } } },
    { role: 'assistant', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
    { role: 'user', content: { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', _meta: { k: 1 } } },
    {
      role: 'user',
      content: {
        type: 'resource_link',
        uri: 'file:///a.ts',
        name: 'a.ts',
        title: 'A',
        description: 'file a',
        mimeType: 'text/x-typescript',
        size: 12,
        icons: [{ src: 'https://x/icon.png', mimeType: 'image/png', sizes: ['16x16'], theme: 'dark' }],
      },
    },
    {
      role: 'user',
      content: { type: 'resource', resource: { uri: 'architecture://adr/1', mimeType: 'text/markdown', text: '# 1' } },
    },
    { role: 'assistant', content: { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAEC' } } },
  ],
};

describe('guardPromptResult: valid results', () => {
  it('accepts every content block type and returns an equal result the SDK schema accepts', () => {
    const result = guardPromptResult(EVERY_BLOCK, OPTIONS);
    expect(result).toStrictEqual(EVERY_BLOCK);
    expect(GetPromptResultSchema.parse(result)).toStrictEqual(result);
  });

  it('accepts an empty message list', () => {
    expect(guardPromptResult({ messages: [] }, OPTIONS)).toStrictEqual({ messages: [] });
  });

  it('returns a copy that shares no object with the input and never mutates it', () => {
    const input = deepFreeze(structuredClone(EVERY_BLOCK));
    const result = guardPromptResult(input, OPTIONS);
    expect(result).not.toBe(input);
    expect(result.messages).not.toBe(input.messages);
    expect(result._meta).not.toBe(input._meta);
    result.messages.forEach((message, i) => {
      const original = input.messages[i]!;
      expect(message).not.toBe(original);
      expect(message.content).not.toBe(original.content);
    });
    expect(input).toStrictEqual(EVERY_BLOCK);
  });

  it('drops keys the spec does not define, at every level', () => {
    const result = guardPromptResult(
      {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Hi', internal: { secret: 1 } },
            id: 7,
          },
          { role: 'user', content: { type: 'resource', resource: { uri: 'u://1', text: 't', cached: true } } },
        ],
        debug: { sql: 'select 1' },
      },
      OPTIONS,
    );
    expect(result).toStrictEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hi' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'u://1', text: 't' } } },
      ],
    });
  });
});

describe('guardPromptResult: malformed results are internal errors', () => {
  it("rejects a programmatic result with role 'system' as an internal error", () => {
    const error = guardError({
      messages: [
        { role: 'user', content: { type: 'text', text: 'a' } },
        { role: 'system', content: { type: 'text', text: 'b' } },
      ],
    });
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe(
      "prompt 'review-code' render returned messages[1].role 'system': must be 'user' or 'assistant'",
    );
  });

  it('shows clients only "Internal error" while the message keeps the detail for the logs', () => {
    const error = guardError({ messages: [{ role: 'system', content: { type: 'text', text: 'b' } }] });
    expect(errorResponseFor(error)).toStrictEqual({ status: 500, body: { error: 'Internal error' } });
    expect(error.toJsonRpcError()).toStrictEqual({ code: -32603, message: 'Internal error' });
    expect(error.data).toStrictEqual({ prompt: 'review-code', path: 'messages[0].role' });
  });

  it('rejects content given as a bare string', () => {
    const error = guardError(withContent('just text'));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe(
      "prompt 'review-code' render returned messages[0].content as a string: " +
        'must be exactly one content block object, not a bare string',
    );
  });

  it('rejects content given as an array', () => {
    const error = guardError(withContent([{ type: 'text', text: 'a' }]));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe(
      "prompt 'review-code' render returned messages[0].content as an array: " +
        'must be exactly one content block object, not an array',
    );
  });

  it.each<[string, unknown, string]>([
    ['a null result', null, 'null: must be an object with a messages array'],
    ['a result without messages', { description: 'd' }, 'messages as undefined: must be an array'],
    ['messages that are not an array', { messages: {} }, 'messages as an object: must be an array'],
    ['a message that is not an object', { messages: ['hi'] }, 'messages[0] as a string: must be an object'],
    [
      'a missing role',
      { messages: [{ content: { type: 'text', text: 'a' } }] },
      "messages[0].role as undefined: must be 'user' or 'assistant'",
    ],
    [
      'a role in the wrong case',
      { messages: [{ role: 'User', content: { type: 'text', text: 'a' } }] },
      "messages[0].role 'User': must be 'user' or 'assistant'",
    ],
    ['missing content', { messages: [{ role: 'user' }] }, 'messages[0].content as undefined: must be a content block'],
    [
      'an unknown block type',
      withContent({ type: 'video', uri: 'x' }),
      "messages[0].content.type 'video': must be one of text, image, audio, resource_link, resource",
    ],
    ['a block without type', withContent({ text: 'a' }), 'messages[0].content.type as undefined: must be one of'],
    ['text that is not a string', withContent({ type: 'text', text: 42 }), 'messages[0].content.text as a number'],
    [
      'an image without mimeType',
      withContent({ type: 'image', data: 'AAAA' }),
      'messages[0].content.mimeType as undefined: must be a string',
    ],
    [
      'audio without data',
      withContent({ type: 'audio', mimeType: 'audio/wav' }),
      'messages[0].content.data as undefined: must be a string',
    ],
    [
      'a resource link without name',
      withContent({ type: 'resource_link', uri: 'file:///a' }),
      'messages[0].content.name as undefined: must be a string',
    ],
    [
      'a resource link with a negative size',
      withContent({ type: 'resource_link', uri: 'file:///a', name: 'a', size: -1 }),
      'messages[0].content.size as a number: must be a non-negative number',
    ],
    [
      'a resource block without resource',
      withContent({ type: 'resource', uri: 'file:///a' }),
      'messages[0].content.resource as undefined: must be an object',
    ],
    [
      'a resource without uri',
      withContent({ type: 'resource', resource: { text: 't' } }),
      'messages[0].content.resource.uri as undefined: must be a string',
    ],
    [
      'a resource with neither text nor blob',
      withContent({ type: 'resource', resource: { uri: 'u://1' } }),
      'messages[0].content.resource: must have exactly one of text or blob (found neither)',
    ],
    [
      'a resource with both text and blob',
      withContent({ type: 'resource', resource: { uri: 'u://1', text: 't', blob: 'AAAA' } }),
      'messages[0].content.resource: must have exactly one of text or blob (found both)',
    ],
    [
      'a blob that is not a string',
      withContent({ type: 'resource', resource: { uri: 'u://1', blob: 1 } }),
      'messages[0].content.resource.blob as a number: must be a string',
    ],
    ['a description that is not a string', { description: 5, messages: [] }, 'description as a number'],
    ['a null description', { description: null, messages: [] }, 'description as null: must be a string'],
    ['_meta that is not an object', { messages: [], _meta: 'x' }, '_meta as a string: must be an object'],
    [
      'annotations with an invalid audience',
      withContent({ type: 'text', text: 'a', annotations: { audience: ['system'] } }),
      "messages[0].content.annotations.audience[0] as a string: must be 'user' or 'assistant'",
    ],
    [
      'annotations with a priority out of range',
      withContent({ type: 'text', text: 'a', annotations: { priority: 2 } }),
      'messages[0].content.annotations.priority as a number: must be a number from 0 to 1',
    ],
  ])('rejects %s with a precise internal error', (_title, value, detail) => {
    const error = guardError(value);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toContain(`prompt 'review-code' render returned ${detail}`);
  });

  it('reports a malformed result even when it is also over the size limit', () => {
    const error = guardError(withContent('x'.repeat(100)), { maxRenderedBytes: 10, promptName: 'p' });
    expect(error.code).toBe('INTERNAL_ERROR');
  });
});

describe('guardPromptResult: size limit', () => {
  const text = (t: string): unknown => withContent({ type: 'text', text: t });
  const utf8 = (t: string): number => new TextEncoder().encode(t).length;

  it('accepts a result of exactly the limit and rejects one byte more as an internal error', () => {
    expect(() => guardPromptResult(text('x'.repeat(10)), { maxRenderedBytes: 10, promptName: 'p' })).not.toThrow();
    const error = guardError(text('x'.repeat(11)), { maxRenderedBytes: 10, promptName: 'p' });
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe("prompt 'p' render returned a result over the 10-byte limit");
  });

  it("is a generic 500 for clients (the operator's render function broke the limit), unlike a template's 413", () => {
    const error = guardError(text('x'.repeat(11)), { maxRenderedBytes: 10, promptName: 'p' });
    expect(errorResponseFor(error)).toStrictEqual({ status: 500, body: { error: 'Internal error' } });
    let templateError: unknown;
    try {
      assertRenderedSize('x'.repeat(11), { maxRenderedBytes: 10 });
    } catch (e) {
      templateError = e;
    }
    expect(errorResponseFor(templateError).status).toBe(413);
  });

  it.each([
    ['two-byte characters', 'é'.repeat(7)],
    ['three-byte characters', '漢字'.repeat(5)],
    ['surrogate pairs (emoji)', '😀a😀'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate at the end', 'ab\uDC00'],
    ['a high surrogate at the end', 'ab\uD83D'],
    ['mixed text', 'naïve café — 日本 🎉 ok'],
  ])('counts %s in UTF-8 bytes as TextEncoder does', (_title, value) => {
    const bytes = utf8(value);
    expect(() => guardPromptResult(text(value), { maxRenderedBytes: bytes, promptName: 'p' })).not.toThrow();
    expect(guardError(text(value), { maxRenderedBytes: bytes - 1, promptName: 'p' }).code).toBe('INTERNAL_ERROR');
  });

  it('counts texts, resource texts, base64 data, blobs and the description together', () => {
    const value = {
      description: 'dd',
      messages: [
        { role: 'user', content: { type: 'text', text: 'tt' } },
        { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'u://1', text: 'rrr' } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'u://2', blob: 'CCCC' } } },
        { role: 'user', content: { type: 'resource_link', uri: 'u://3', name: 'n' } },
      ],
    };
    const total = 2 + 2 + 4 + 4 + 3 + 4;
    expect(() => guardPromptResult(value, { maxRenderedBytes: total, promptName: 'p' })).not.toThrow();
    expect(guardError(value, { maxRenderedBytes: total - 1, promptName: 'p' }).code).toBe('INTERNAL_ERROR');
  });

  it('accepts any size when the limit is Infinity', () => {
    const huge = text('x'.repeat(100_000));
    expect(() => guardPromptResult(huge, { maxRenderedBytes: Infinity, promptName: 'p' })).not.toThrow();
  });
});

describe('normalizeRenderOutput', () => {
  it('turns a string into one user text message', () => {
    expect(normalizeRenderOutput('Review this')).toStrictEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Review this' } }],
    });
  });

  it('turns an array of messages into {messages}', () => {
    const messages = [{ role: 'assistant' as const, content: { type: 'text' as const, text: 'ok' } }];
    expect(normalizeRenderOutput(messages)).toStrictEqual({ messages });
  });

  it("adds the definition's description when the output has none", () => {
    expect(normalizeRenderOutput('x', 'Reviews code')).toStrictEqual({
      description: 'Reviews code',
      messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
    });
    expect(normalizeRenderOutput({ messages: [] }, 'Reviews code')).toStrictEqual({
      messages: [],
      description: 'Reviews code',
    });
  });

  it("keeps the output's own description over the definition's", () => {
    expect(normalizeRenderOutput({ description: 'own', messages: [] }, 'definition')).toStrictEqual({
      description: 'own',
      messages: [],
    });
  });

  it('never mutates the output it is given', () => {
    const output = deepFreeze({ messages: [] as never[] });
    const normalized = normalizeRenderOutput(output, 'd');
    expect(normalized).not.toBe(output);
    expect(output).toStrictEqual({ messages: [] });
  });

  it('passes anything else through for the guard to reject', () => {
    expect(normalizeRenderOutput(42 as never)).toBe(42);
    expect(guardError(normalizeRenderOutput(null as never)).code).toBe('INTERNAL_ERROR');
  });

  it('produces results the guard accepts', () => {
    expect(guardPromptResult(normalizeRenderOutput('hi', 'd'), OPTIONS)).toStrictEqual({
      description: 'd',
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    });
  });
});

describe('guardPromptResult log messages', () => {
  it('quotes a well-known wrong role but only describes an unknown one, which may be an argument value', () => {
    const message = (role: string): string =>
      thrownBy(() => guardPromptResult({ messages: [{ role, content: { type: 'text', text: 'x' } }] }, OPTIONS))
        .message;
    expect(message('system')).toContain("'system'");
    expect(message('customer-4711-secret')).not.toContain('4711');
    expect(message('customer-4711-secret')).toContain('a string of 20 characters');
  });
});

describe('media data, mimeTypes and _meta', () => {
  it('rejects image and audio data that is not canonical base64, and blobs likewise', () => {
    for (const data of ['not base64!', 'iVBORw0KGgo', 'iVBO\nRw0KGgo=', 'iVBORw0K-_o=']) {
      const error = guardError(withContent({ type: 'image', data, mimeType: 'image/png' }));
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toContain('messages[0].content.data: must be base64');
    }
    const blob = guardError(withContent({ type: 'resource', resource: { uri: 'x://1', blob: '###' } }));
    expect(blob.message).toContain('resource.blob: must be base64');
  });

  it('rejects an empty mimeType', () => {
    const error = guardError(withContent({ type: 'audio', data: 'UklGRg==', mimeType: ' ' }));
    expect(error.message).toContain('messages[0].content.mimeType: must not be empty');
  });

  it('rejects _meta that cannot be serialized (BigInt, cycle) with an internal error', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const meta of [{ n: 1n }, { inner: cyclic }]) {
      const error = guardError({ _meta: meta, messages: [] });
      expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      expect(error.message).toContain('_meta: cannot be serialized as JSON');
    }
  });

  it('replaces lone surrogates in strings with U+FFFD', () => {
    const result = guardPromptResult(withContent({ type: 'text', text: 'a\uD800b' }), OPTIONS);
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'a\uFFFDb' });
  });

  it('replaces lone surrogates in _meta keys and strings, at every depth', () => {
    const result = guardPromptResult({ messages: [], _meta: { 'k\uD800': { deep: ['v\uDC00'] } } }, OPTIONS);
    expect(result._meta).toEqual({ 'k\uFFFD': { deep: ['v\uFFFD'] } });
  });
});

describe('the guarded result is a plain-data snapshot', () => {
  /** An object whose `key` answers `first` on the first read and `then` on every later one, counting its reads. */
  function flaky(key: string, first: unknown, then: unknown): { value: Record<string, unknown>; reads: () => number } {
    let n = 0;
    const value = Object.defineProperty({}, key, { enumerable: true, get: () => (n++ === 0 ? first : then) });
    return { value, reads: () => n };
  }

  const withGetters = (base: object, getters: object): object =>
    Object.defineProperties(base, Object.getOwnPropertyDescriptors(getters));

  it('reads a nested _meta getter once, so a BigInt on a second read never reaches the transport', () => {
    const nested = flaky('x', 1, 2n);
    const result = guardPromptResult({ messages: [], _meta: { f: nested.value } }, OPTIONS);
    expect(JSON.stringify(result)).toBe('{"messages":[],"_meta":{"f":{"x":1}}}');
    expect(nested.reads()).toBe(1);
  });

  it('reads every checked field once: annotations, link sizes and texts keep what was checked', () => {
    const priority = flaky('priority', 0.5, 7);
    const link = flaky('size', 3, 10n);
    const text = flaky('text', 'checked', 42);
    const result = guardPromptResult(
      {
        messages: [
          { role: 'user', content: withGetters({ type: 'text', annotations: priority.value }, text.value) },
          { role: 'user', content: withGetters({ type: 'resource_link', uri: 'x://a', name: 'a' }, link.value) },
        ],
      },
      OPTIONS,
    );
    expect(JSON.parse(JSON.stringify(result))).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'checked', annotations: { priority: 0.5 } } },
        { role: 'user', content: { type: 'resource_link', uri: 'x://a', name: 'a', size: 3 } },
      ],
    });
    expect([priority.reads(), link.reads(), text.reads()]).toEqual([1, 1, 1]);
  });

  it('copies _meta as JSON writes it: toJSON once, functions and undefined left out, non-finite numbers null', () => {
    const result = guardPromptResult(
      {
        messages: [],
        _meta: { at: new Date(0), skip: () => 1, gone: undefined, list: [undefined, NaN], n: Number.POSITIVE_INFINITY },
      },
      OPTIONS,
    );
    expect(result._meta).toStrictEqual({ at: '1970-01-01T00:00:00.000Z', list: [null, null], n: null });
  });

  it('rejects _meta nested too deep or too large as an internal error, not a stack overflow', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const tooDeep = guardError({ messages: [], _meta: deep });
    expect(tooDeep.code).toBe('INTERNAL_ERROR');
    expect(tooDeep.message).toContain('_meta: cannot be serialized as JSON (nests deeper than 100 levels');
    const shared = { s: 'x'.repeat(50) };
    const tooLarge = guardError(
      { messages: [], _meta: { a: [shared, shared, shared] } },
      { maxRenderedBytes: 100, promptName: 'p' },
    );
    expect(tooLarge.message).toContain('_meta: cannot be serialized as JSON (is too large');
  });
});

describe('reading the render output', () => {
  const secret = (): never => {
    throw new TypeError('secret');
  };
  const throwingGetter = (base: object, key: string): object =>
    Object.defineProperty(base, key, { enumerable: true, get: secret });

  it('turns a getter that throws into an internal error that names only the error class', () => {
    const outputs = [
      withContent(throwingGetter({ type: 'text' }, 'text')),
      { messages: [throwingGetter({ role: 'user' }, 'content')] },
      throwingGetter({}, 'messages'),
    ];
    for (const output of outputs) {
      const error = guardError(output);
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toBe("prompt 'review-code': reading the render output threw TypeError");
      expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    }
  });

  it('logs a getter that throws by its class only, never its message, also while adding the description', async () => {
    const logs: Record<string, unknown>[] = [];
    const sink = (fields: Record<string, unknown>): void => {
      logs.push(fields);
    };
    const registry = new PromptRegistry({ logger: { error: sink, warn: sink, info: sink, debug: sink } });
    registry.add([
      { name: 'deep', render: () => withContent(throwingGetter({ type: 'text' }, 'text')) as never },
      { name: 'top', description: 'd', render: () => throwingGetter({}, 'messages') as never },
      { name: 'described', description: 'd', render: () => throwingGetter({ messages: [] }, 'description') as never },
    ]);
    for (const name of ['deep', 'top', 'described']) {
      const error = await rejectionOf(registry.getPrompt(name, {}));
      expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    }
    expect(logs.map((l) => l['detail'])).toEqual([
      "prompt 'deep': reading the render output threw TypeError",
      "prompt 'top': reading the render output threw TypeError",
      "prompt 'described': reading the render output threw TypeError",
    ]);
    expect(JSON.stringify(logs)).not.toContain('secret');
  });
});

describe('base64 helpers', () => {
  it('agree about what base64 is and how many bytes it holds, line breaks included', () => {
    for (const bytes of [[], [1], [1, 2], [1, 2, 3], [255, 254, 253, 252]]) {
      const text = bytesToBase64(new Uint8Array(bytes));
      expect(isBase64(text)).toBe(true);
      expect(base64DecodedSize(text)).toBe(bytes.length);
      const wrapped = `${text.slice(0, 2)}\r\n${text.slice(2)}\n`;
      expect(base64DecodedSize(wrapped)).toBe(bytes.length);
      expect(isBase64(wrapped)).toBe(false);
    }
  });
});
