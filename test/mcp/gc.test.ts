/**
 * A registry outlives the servers attached to it (a server per request over stateless HTTP): its change listener
 * must not keep a dropped server alive. Run in a child process with --expose-gc.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tsNodeArgs } from '../support/processes.js';

const PROBE = fileURLToPath(new URL('./fixtures/gc-probe.ts', import.meta.url));
const run = promisify(execFile);

describe('attachPrompts: memory', () => {
  for (const sdk of ['v1', 'v2']) {
    it(`lets SDK ${sdk} servers that were never detached be garbage-collected, and shares one registry listener that forgets them`, async () => {
      const { stdout } = await run(process.execPath, ['--expose-gc', ...tsNodeArgs(PROBE), sdk], {
        timeout: 120_000,
      });
      // One listener for every attachment; once their servers are collected it follows none of them, and 1,000 more
      // dropped servers leave it holding no more than its sweep threshold.
      expect(JSON.parse(stdout)).toEqual({ alive: 0, listeners: 1, subscribed: 1, followers: 0, swept: true });
    });
  }
});
