import { describe, expect, it } from 'vitest';
import { parsePromptCases, runPromptCases } from '../../src/index.js';
import type { PromptCaseSuite } from '../../src/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';

function registry(): PromptRegistry {
  const r = new PromptRegistry();
  r.add({
    name: 'greet',
    arguments: [
      { name: 'who', required: true },
      { name: 'tone', enum: ['warm', 'dry'] },
    ],
    messages: [
      { role: 'user', content: 'Hello {{who}}\nBe {{tone}}.' },
      { role: 'assistant', content: 'Sure.' },
    ],
  });
  return r;
}

function suite(cases: unknown[]): PromptCaseSuite[] {
  const parsed = parsePromptCases(cases, { declaredArguments: ['who', 'tone'] });
  expect(parsed.problems).toEqual([]);
  return [{ prompt: 'greet', file: 'greet.yaml', cases: parsed.cases }];
}

describe('runPromptCases', () => {
  it('passes a case whose snapshot equals the rendered messages, whatever the key order written', async () => {
    const report = await runPromptCases(
      registry(),
      suite([
        {
          name: 'snapshot',
          arguments: { who: 'Ada', tone: 'warm' },
          messages: [
            { role: 'user', content: { text: 'Hello Ada\nBe warm.', type: 'text' } },
            { content: 'Sure.', role: 'assistant' },
          ],
        },
      ]),
    );
    expect(report).toMatchObject({ total: 1, passed: 1, failed: 0, errored: 0 });
    expect(report.results[0]).toMatchObject({ prompt: 'greet', case: 'snapshot', status: 'pass', failures: [] });
  });

  it('fails a snapshot with a key more or less than the rendered messages', async () => {
    const report = await runPromptCases(
      registry(),
      suite([
        {
          name: 'extra key',
          arguments: { who: 'Ada', tone: 'warm' },
          messages: [
            { role: 'user', content: { type: 'text', text: 'Hello Ada\nBe warm.', annotations: { priority: 1 } } },
            { role: 'assistant', content: 'Sure.' },
          ],
        },
        {
          name: 'one message short',
          arguments: { who: 'Ada', tone: 'warm' },
          messages: [{ role: 'user', content: 'Hello Ada\nBe warm.' }],
        },
      ]),
    );
    expect(report.results.map((r) => r.status)).toEqual(['fail', 'fail']);
    expect(report.results[0]!.failures[0]!.diff).toContain('-messages[0].content.annotations.priority: 1');
    expect(report.results[1]!.failures[0]!.diff).toContain('+messages[1].role: "assistant"');
  });

  it('fails a changed snapshot with a unified diff pointing at the changed line', async () => {
    const report = await runPromptCases(
      registry(),
      suite([
        {
          name: 'snapshot',
          arguments: { who: 'Ada', tone: 'dry' },
          messages: [
            { role: 'user', content: 'Hello Ada\nBe warm.' },
            { role: 'assistant', content: 'Sure.' },
          ],
        },
      ]),
    );
    const result = report.results[0]!;
    expect(result.status).toBe('fail');
    expect(result.failures[0]!.check).toBe('messages');
    expect(result.failures[0]!.diff).toContain('-  Be warm.\n+  Be dry.');
    expect(result.failures[0]!.diff).toMatch(/^--- expected\n\+\+\+ actual\n@@ -\d+,\d+ \+\d+,\d+ @@/);
  });

  it('checks contains and notContains in any text block or in one message', async () => {
    const report = await runPromptCases(
      registry(),
      suite([
        { name: 'any', arguments: { who: 'Ada' }, contains: ['Hello Ada', 'Sure.'], notContains: 'Grace' },
        { name: 'per message', arguments: { who: 'Ada' }, contains: { text: 'Sure.', message: 0 } },
        { name: 'no such message', arguments: { who: 'Ada' }, contains: { text: 'x', message: 5 } },
        { name: 'must not', arguments: { who: 'Ada' }, notContains: 'Ada' },
      ]),
    );
    expect(report.results.map((r) => r.status)).toEqual(['pass', 'fail', 'fail', 'fail']);
    expect(report.results[1]!.failures[0]!.message).toBe('message 0 do not contain "Sure."');
    expect(report.results[2]!.failures[0]!.message).toContain('message 5 does not exist');
    expect(report.results[3]!.failures[0]!.check).toBe('notContains');
  });

  it('matches an expected -32602 with its missing_arguments, or a string error code', async () => {
    const report = await runPromptCases(
      registry(),
      suite([
        { name: 'missing', arguments: {}, error: { code: -32602, missing_arguments: ['who'] } },
        { name: 'by code', arguments: { tone: 'warm' }, error: 'PROMPT_ARGUMENT_MISSING' },
        { name: 'bad enum', arguments: { who: 'x', tone: 'loud' }, error: 'PROMPT_ARGUMENT_INVALID' },
        { name: 'wrong list', arguments: {}, error: { code: -32602, missing_arguments: ['tone'] } },
        { name: 'renders instead', arguments: { who: 'x' }, error: -32602 },
      ]),
    );
    expect(report.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'fail', 'fail']);
    expect(report.results[3]!.failures[0]!.diff).toContain('-missing_arguments: ["tone"]\n+missing_arguments: ["who"]');
  });

  it('fails a case that expects messages when rendering answers -32602, and shows the error', async () => {
    const report = await runPromptCases(registry(), suite([{ name: 'forgot who', contains: 'Hello' }]));
    expect(report.results[0]).toMatchObject({ status: 'fail', actual: { error: { rpcCode: -32602 } } });
    expect(report.results[0]!.failures[0]!.message).toContain('PROMPT_ARGUMENT_MISSING');
  });

  it('reports a case of a prompt the registry does not serve as an error, not a failure', async () => {
    const parsed = parsePromptCases([{ name: 'a', contains: 'x' }]);
    const report = await runPromptCases(registry(), [{ prompt: 'gone', cases: parsed.cases }]);
    expect(report).toMatchObject({ total: 1, passed: 0, failed: 0, errored: 1 });
  });

  it('runs only the cases whose prompt/case title contains the filter, in file order', async () => {
    const cases = suite([
      { name: 'one', arguments: { who: 'a' } },
      { name: 'two', arguments: { who: 'b' } },
      { name: 'three', arguments: { who: 'c' } },
    ]);
    expect((await runPromptCases(registry(), cases, { filter: '/t' })).results.map((r) => r.case)).toEqual([
      'two',
      'three',
    ]);
    expect((await runPromptCases(registry(), cases, { filter: 'greet/one' })).results.map((r) => r.case)).toEqual([
      'one',
    ]);
  });

  it('gives the same report over repeated runs', async () => {
    const cases = suite([
      { name: 'one', arguments: { who: 'a' }, contains: 'zzz' },
      { name: 'two', arguments: {}, error: 'PROMPT_ARGUMENT_INVALID' },
    ]);
    const first = JSON.stringify(await runPromptCases(registry(), cases));
    const second = JSON.stringify(await runPromptCases(registry(), cases));
    expect(second).toBe(first);
  });
});
