import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CompleteResult as SdkCompleteResult,
  GetPromptResult as SdkGetPromptResult,
  ListPromptsResult as SdkListPromptsResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  CompleteResultSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CompleteResult as V2CompleteResult,
  GetPromptResult as V2GetPromptResult,
  ListPromptsResult as V2ListPromptsResult,
} from '@modelcontextprotocol/server';
import type { CompleteResult, GetPromptResult, ListPromptsResult } from '../../src/types.js';

const getPromptResult: GetPromptResult = {
  description: 'Every block',
  _meta: { trace: 'abc' },
  messages: [
    { role: 'user', content: { type: 'text', text: 'Hi', annotations: { audience: ['user'], priority: 1 } } },
    { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
    { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
    { role: 'user', content: { type: 'resource_link', uri: 'file:///a', name: 'a', size: 1 } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'u://1', mimeType: 'text/plain', text: 't' } } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'u://2', blob: 'AAAA' } } },
  ],
};

const listPromptsResult: ListPromptsResult = {
  prompts: [
    {
      name: 'review-code',
      title: 'Review code',
      description: 'Reviews code',
      arguments: [{ name: 'code', required: true }, { name: 'focus' }],
      icons: [{ src: 'https://example.com/i.png', sizes: ['16x16'], theme: 'light' }],
    },
  ],
  nextCursor: 'abc',
};

const completeResult: CompleteResult = { completion: { values: ['ts', 'tsx'], total: 2, hasMore: false } };

describe('our wire types and the MCP SDK', () => {
  it('are assignable to the SDK v1 result types', () => {
    expectTypeOf<GetPromptResult>().toExtend<SdkGetPromptResult>();
    expectTypeOf<ListPromptsResult>().toExtend<SdkListPromptsResult>();
    expectTypeOf<CompleteResult>().toExtend<SdkCompleteResult>();
  });

  it('are assignable to the SDK v2 result types', () => {
    expectTypeOf<GetPromptResult>().toExtend<V2GetPromptResult>();
    expectTypeOf<ListPromptsResult>().toExtend<V2ListPromptsResult>();
    expectTypeOf<CompleteResult>().toExtend<V2CompleteResult>();
  });

  it('describe values the SDK v1 schemas accept unchanged', () => {
    expect(GetPromptResultSchema.parse(getPromptResult)).toStrictEqual(getPromptResult);
    expect(ListPromptsResultSchema.parse(listPromptsResult)).toStrictEqual(listPromptsResult);
    expect(CompleteResultSchema.parse(completeResult)).toStrictEqual(completeResult);
  });
});
