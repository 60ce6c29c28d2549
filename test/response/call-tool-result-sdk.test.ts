import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CallToolResult as SdkCallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as SdkV2CallToolResult } from '@modelcontextprotocol/server';
import { PromptError } from '../../src/errors.js';
import { toCallToolResult } from '../../src/response.js';
import type { CallToolResult } from '../../src/response.js';

describe('CallToolResult and the MCP SDK', () => {
  it('is assignable to the SDK v1 and v2 CallToolResult types', () => {
    expectTypeOf<CallToolResult>().toExtend<SdkCallToolResult>();
    expectTypeOf<CallToolResult>().toExtend<SdkV2CallToolResult>();
    const fromOurs: SdkCallToolResult = toCallToolResult({ result: 1 });
    const fromOursV2: SdkV2CallToolResult = toCallToolResult({ result: 1 });
    expect(fromOurs).toStrictEqual(fromOursV2);
  });

  it('produces success and error results the SDK v1 schema accepts unchanged', () => {
    const outcomes = [
      toCallToolResult({ result: { nested: [1, 2] } }),
      toCallToolResult({ results: [1, 'two'] }),
      toCallToolResult({ error: new PromptError('PROMPT_ARGUMENT_MISSING', 'Missing', { data: { n: 1 } }) }),
      toCallToolResult({ error: new Error('boom') }),
    ];
    for (const outcome of outcomes) {
      expect(CallToolResultSchema.parse(outcome)).toStrictEqual(outcome);
    }
  });
});
