import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tsNodeArgs } from '../support/processes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('examples/agent-tool.ts (npm run example:agent)', () => {
  it('prints the tool definition and the three calls: success, missing argument, unknown integration', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, tsNodeArgs('examples/agent-tool.ts'), {
      cwd: root,
      timeout: 60_000,
    });
    const definition = JSON.parse(stdout.slice(0, stdout.indexOf('\n>'))) as {
      type: string;
      function: { name: string; description: string };
    };
    expect(definition.type).toBe('function');
    expect(definition.function.name).toBe('retrieve_mcp_prompt');
    expect(definition.function.description).toContain("Integration 'local':\n- standup(notes (required))");
    expect(definition.function.description).toContain("Integration 'examples':");
    expect(stdout).toContain('{"prompt":"review_code","description":"Review a snippet of code');
    expect(stdout).toContain('"messages":[{"role":"user","content":"Review this code:\\nlet total = a + b"}]');
    expect(stdout).toContain('Prompt retrieval failed: missing required arguments: code');
    expect(stdout).toContain("Prompt retrieval failed: unknown integration 'crm' (known: local, examples)");
  }, 120_000);
});
