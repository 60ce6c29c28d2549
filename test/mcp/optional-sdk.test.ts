/**
 * Both SDKs are optional peer dependencies: mcp-prompt-kit/mcp loads without either, and says what to install.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const HIDE_SDK = fileURLToPath(new URL('./fixtures/without-sdk.mjs', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./fixtures/import-without-sdk.ts', import.meta.url));
const run = promisify(execFile);

describe('mcp-prompt-kit/mcp without an MCP SDK installed', () => {
  it('imports, and attachPrompts names both SDK packages to install', async () => {
    const { stdout } = await run(process.execPath, ['--import', HIDE_SDK, '--import', 'tsx', SCRIPT], {
      timeout: 120_000,
    });
    const result = JSON.parse(stdout) as { loaded: boolean; sdkHidden: boolean; error: string };
    expect(result.sdkHidden).toBe(true);
    expect(result.loaded).toBe(true);
    expect(result.error).toMatch(/npm install @modelcontextprotocol\/server/);
    expect(result.error).toMatch(/npm install @modelcontextprotocol\/sdk/);
  });
});
