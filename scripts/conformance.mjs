#!/usr/bin/env node
/**
 * `npm run conformance`: starts examples/conformance, then `mcp-prompt-kit serve --http` on the same fixtures as prompt
 * files (streamable HTTP on 127.0.0.1, a free port), and runs the official MCP conformance suite's prompt and
 * completion server scenarios against each. Exits non-zero when any scenario fails (or a server does not start).
 *
 * The suite is pinned to @modelcontextprotocol/conformance 0.1.13 (a dev dependency): 0.1.14 and later import
 * `fs.globSync`, which Node 20 lacks.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIOS = [
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'completion-complete',
];
const START_TIMEOUT_MS = 30_000;
const SCENARIO_TIMEOUT_MS = 60_000;

const require = createRequire(import.meta.url);
const suitePackage = require.resolve('@modelcontextprotocol/conformance/package.json');
const suiteBin = join(dirname(suitePackage), require(suitePackage).bin.conformance);

const FIXTURES = join(ROOT, 'test/cli/fixtures/conformance');
/** The servers under test: each prints its URL as its first line. */
const SERVERS = [
  {
    name: 'examples/conformance (attachPrompts, SDK v1)',
    args: [join(ROOT, 'examples/conformance/server.ts'), '--port', '0'],
  },
  {
    name: 'mcp-prompt-kit serve --http (the fixtures as prompt files)',
    args: [
      join(ROOT, 'src/cli/main.ts'),
      'serve',
      join(FIXTURES, 'prompts'),
      '--http',
      '0',
      '--docs',
      `test=${join(FIXTURES, 'docs')}`,
    ],
  },
];

/** Starts a server; resolves with its URL (the first line it prints). */
function startServer(args) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('exit', (code) => reject(new Error(`server exited early (code ${code})`)));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
  });
  return { child, url };
}

/** Runs one scenario; resolves with its exit code (its report goes to our stdout). */
function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suiteBin, 'server', '--url', url, '--scenario', scenario], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const timer = setTimeout(() => {
      console.error(`conformance: ${scenario} timed out after ${SCENARIO_TIMEOUT_MS} ms`);
      child.kill('SIGKILL');
    }, SCENARIO_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const failed = [];
for (const target of SERVERS) {
  const server = startServer(target.args);
  try {
    const url = await server.url;
    if (!/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(url)) throw new Error(`unexpected server URL line: ${url}`);
    console.log(`conformance: testing ${target.name} at ${url}`);
    for (const scenario of SCENARIOS) {
      const code = await runScenario(url, scenario);
      if (code !== 0) failed.push(`${scenario} (${target.name})`);
    }
  } catch (error) {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    failed.push(`(server: ${target.name})`);
  } finally {
    server.child.kill('SIGTERM');
  }
}

if (failed.length > 0) {
  console.error(`\nconformance: FAILED ${failed.join(', ')}`);
  process.exit(1);
}
console.log(
  `\nconformance: all ${SCENARIOS.length} scenarios passed on ${SERVERS.length} servers (${SCENARIOS.join(', ')})`,
);
