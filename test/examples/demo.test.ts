import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run demo (examples/quickstart.ts)', () => {
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/quickstart.ts'], {
      cwd: root,
      timeout: 90_000,
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NO_COLOR' && k !== 'FORCE_COLOR')),
        ...env,
      },
    });

  /** One piped run without colour settings, shared by the tests that read it. */
  let piped: ReturnType<typeof run> | undefined;
  const plain = () => (piped ??= run({}));

  it('runs to the end and shows listing, rendering without escaping, and -32602 errors with data', async () => {
    const { stdout } = await plain();
    expect(stdout).toContain('"name": "review_code"');
    expect(stdout).toContain('Say hello to Ada & <Bob> <they like \\"quotes\\" & ampersands>.');
    expect(stdout).toContain('- Prefer pure functions.');
    expect(stdout).toContain('Summarize the following in 5 bullet points');
    expect(stdout).toMatch(
      /"code": -32602,\s+"message": "Missing required prompt arguments",\s+"data": \{\s+"missing_arguments": \[\s+"code"\s+\]/,
    );
    expect(stdout).toContain('"error_type": "schema_validation_failed"');
    expect(stdout).toContain('"message": "Unknown prompt: review-code"');
    expect(stdout).toMatch(/"status": 404,\s+"body": \{\s+"error": "Unknown prompt: nope"/);
  });

  it('prints no ANSI escapes when piped, or with NO_COLOR even where colour is forced', async () => {
    expect((await plain()).stdout).not.toContain('\x1b[');
    expect((await run({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain('\x1b[');
    expect((await run({ FORCE_COLOR: '1' })).stdout).toContain('\x1b[1m== '); // the check above can fail
  });

  it('treats an empty NO_COLOR as unset, as no-color.org says', async () => {
    expect((await run({ FORCE_COLOR: '1', NO_COLOR: '' })).stdout).toContain('\x1b[1m== ');
  });
});
