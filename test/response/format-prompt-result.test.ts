import { describe, expect, it } from 'vitest';
import { formatPromptResult } from '../../src/response.js';
import type { ContentBlock, GetPromptResult } from '../../src/types.js';

const base64Of = (byteCount: number): string => Buffer.alloc(byteCount, 7).toString('base64');

function single(content: ContentBlock): GetPromptResult {
  return { messages: [{ role: 'user', content }] };
}

describe('formatPromptResult', () => {
  it('formats a prompt with its description and numbered role labels', () => {
    const result: GetPromptResult = {
      description: 'A friendly greeting template for customer support interactions',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Where is my order 42?' } },
        { role: 'assistant', content: { type: 'text', text: 'Thank you for contacting us!' } },
      ],
    };
    expect(formatPromptResult(result, 'customer_support_greeting')).toBe(
      'Prompt: customer_support_greeting\n' +
        'Description: A friendly greeting template for customer support interactions\n' +
        '\n' +
        'Messages:\n' +
        '1. User: Where is my order 42?\n' +
        '2. Assistant: Thank you for contacting us!\n',
    );
  });

  it('leaves out the Description line when there is no description', () => {
    const result = single({ type: 'text', text: 'Hi' });
    expect(formatPromptResult(result, 'greet')).toBe('Prompt: greet\n\nMessages:\n1. User: Hi\n');
  });

  it('leaves out the Description line when the description is empty', () => {
    const result: GetPromptResult = { description: '', messages: [] };
    expect(formatPromptResult(result, 'greet')).toBe('Prompt: greet\n\nMessages:\n');
  });

  it('keeps multi-line text as it is', () => {
    const result = single({ type: 'text', text: 'line one\nline two' });
    expect(formatPromptResult(result, 'p')).toContain('1. User: line one\nline two\n');
  });

  it('describes an image block with its decoded size', () => {
    const result = single({ type: 'image', data: base64Of(1234), mimeType: 'image/png' });
    expect(formatPromptResult(result, 'p')).toBe('Prompt: p\n\nMessages:\n1. User: [image image/png, 1 KB]\n');
  });

  it.each([0, 1, 2, 3, 4, 5, 1000])('computes the decoded size of %i bytes with and without padding', (n) => {
    const padded = base64Of(n);
    const unpadded = padded.replace(/=+$/, '');
    for (const data of [padded, unpadded]) {
      const text = formatPromptResult(single({ type: 'image', data, mimeType: 'image/gif' }), 'p');
      expect(text).toContain(`[image image/gif, ${n} bytes]`);
    }
  });

  it.each([
    [12 * 1024, '12 KB'],
    [1023, '1023 bytes'],
    [3 * 1024 * 1024 + 512 * 1024, '3.5 MB'],
  ])('gives %i decoded bytes as %s', (n, shown) => {
    expect(formatPromptResult(single({ type: 'image', data: base64Of(n), mimeType: 'image/png' }), 'p')).toContain(
      `[image image/png, ${shown}]`,
    );
  });

  it('describes an audio block with its decoded size', () => {
    const result = single({ type: 'audio', data: base64Of(5), mimeType: 'audio/wav' });
    expect(formatPromptResult(result, 'p')).toContain('1. User: [audio audio/wav, 5 bytes]\n');
  });

  it('includes the text of an embedded text resource after its uri', () => {
    const result = single({
      type: 'resource',
      resource: { uri: 'architecture://adr/1', mimeType: 'text/markdown', text: '# ADR 1\nUse JSON.' },
    });
    expect(formatPromptResult(result, 'p')).toContain('1. User: [resource architecture://adr/1]\n# ADR 1\nUse JSON.\n');
  });

  it('describes an embedded blob resource by uri, mime type and decoded size', () => {
    const withMime = single({
      type: 'resource',
      resource: { uri: 'file:///logo.png', mimeType: 'image/png', blob: base64Of(10) },
    });
    expect(formatPromptResult(withMime, 'p')).toContain('1. User: [resource file:///logo.png, image/png, 10 bytes]\n');
    const withoutMime = single({ type: 'resource', resource: { uri: 'file:///x.bin', blob: base64Of(3) } });
    expect(formatPromptResult(withoutMime, 'p')).toContain('1. User: [resource file:///x.bin, 3 bytes]\n');
  });

  it('describes a resource link by its uri', () => {
    const result = single({ type: 'resource_link', uri: 'file:///src/main.ts', name: 'main.ts' });
    expect(formatPromptResult(result, 'p')).toContain('1. User: [resource link file:///src/main.ts]\n');
  });

  it('numbers every message in order', () => {
    const result: GetPromptResult = {
      messages: ['a', 'b', 'c'].map((text, i) => ({
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: { type: 'text' as const, text },
      })),
    };
    expect(formatPromptResult(result, 'p')).toBe('Prompt: p\n\nMessages:\n1. User: a\n2. Assistant: b\n3. User: c\n');
  });

  it('tolerates what a non-conforming server sends: other roles, string or array content, unknown blocks', () => {
    const result = {
      messages: [
        { role: 'system', content: 'You are helpful.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        { role: 'assistant', content: { type: 'video', uri: 'x' } },
      ],
    } as unknown as GetPromptResult;
    expect(formatPromptResult(result, 'legacy')).toBe(
      'Prompt: legacy\n\nMessages:\n1. System: You are helpful.\n2. User: one\ntwo\n3. Assistant: [video content]\n',
    );
  });
});
