import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/cli/junit.js';
import { parsePromptCases, runPromptCases } from '../../src/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';

describe('JUnit XML of a case run', () => {
  it('writes a case that could not run as an error, and keeps characters XML cannot hold as visible escapes', async () => {
    const { cases } = parsePromptCases([{ name: 'bell\u0007\ud800', contains: 'x' }]);
    const report = await runPromptCases(new PromptRegistry(), [{ prompt: 'gone', cases }]);
    expect(junitXml(report)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="mcp-prompt-kit test" tests="1" failures="0" errors="1">',
        '  <testsuite name="gone" tests="1" failures="0" errors="1">',
        '    <testcase classname="gone" name="bell\\u0007\\ud800">',
        '      <error message="rendering failed: -32602 PROMPT_NOT_FOUND: Unknown prompt: gone" type="render">rendering failed: -32602 PROMPT_NOT_FOUND: Unknown prompt: gone',
        'actual:',
        'code: PROMPT_NOT_FOUND',
        'message: Unknown prompt: gone</error>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });
});

describe('text expectations', () => {
  it('search the text of embedded resources too', async () => {
    const registry = new PromptRegistry({
      resources: createMemoryResourceResolver({ 'docs://a': 'Prefer pure functions.' }),
    });
    registry.add({
      name: 'p',
      messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://a' } }],
    } as never);
    const { cases } = parsePromptCases([{ name: 'embeds', contains: { text: 'pure functions', message: 0 } }]);
    const report = await runPromptCases(registry, [{ prompt: 'p', cases }]);
    expect(report.results[0]).toMatchObject({ status: 'pass' });
  });
});
