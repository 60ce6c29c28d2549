import { describe, expect, it } from 'vitest';
import { handleJsonRpc } from '../../src/protocol.js';
import { sharedCases } from '../support/shared-cases.js';
import type { WireOutcome } from '../support/shared-cases.js';

describe('shared case tables through handleJsonRpc (typed JSON, as HTTP callers send it)', () => {
  for (const c of sharedCases()) {
    it(c.title, async () => {
      const params = c.arguments === undefined ? { name: c.name } : { name: c.name, arguments: c.arguments };
      const response = await handleJsonRpc(c.registry, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params });
      if (response === null) throw new Error('no response');
      let outcome: WireOutcome;
      if ('error' in response) outcome = { error: response.error };
      else {
        const content = (response.result as { messages: { content: { type: string; text?: string } }[] }).messages[0]
          ?.content;
        outcome = { text: content?.text ?? `<${content?.type}>` };
      }
      expect(outcome).toEqual(c.expected);
    });
  }
});
