#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance, `server` scenarios)
 * against
 * - examples/conformance (attachPrompts + attachResources, SDK v1) over streamable HTTP: every active scenario, with
 *   the failures listed (and explained) in scripts/conformance/example.yml expected;
 * - `mcp-prompt-kit serve --watch` on the fixtures of test/cli/fixtures/conformance over streamable HTTP: every active
 *   scenario, with scripts/conformance/serve.yml expected;
 * - the same `serve` over stdio: the suite only speaks streamable HTTP, so a relay (stdio-relay.mjs) starts one
 *   `serve` child per suite session and passes its JSON-RPC messages through unchanged; the prompt, completion,
 *   resource and lifecycle scenarios run (the HTTP transport scenarios would test the relay, not serve).
 * The three run side by side. Exits non-zero when a scenario fails unexpectedly, a listed failure starts passing, or a
 * server does not start.
 *
 * The suite speaks the 2025 protocol era only (initialize; spec versions 2025-06-18 and 2025-11-25): modern.mjs asks
 * the same prompt, completion and resource questions of `serve` (HTTP and stdio) in the 2026-07-28 era with the SDK v2
 * client and applies the suite's checks.
 *
 * The suite runs on Node 22 (0.1.14 and later import `fs.globSync`): this Node when it is 22 or later, otherwise the
 * cached binary of scripts/node-binary.sh.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { modernEraChecks } from './modern.mjs';
import { startStdioRelay } from './stdio-relay.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
const FIXTURES = join(ROOT, 'test/cli/fixtures/conformance');
const START_TIMEOUT_MS = 60_000;
const SUITE_TIMEOUT_MS = 180_000;
/** What must pass on stdio: everything the suite asks of prompts, completion and resources, and the lifecycle. */
const STDIO_SCENARIOS = [
  'server-initialize',
  'ping',
  'completion-complete',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-subscribe',
  'resources-unsubscribe',
];
/** How many stdio scenarios run at once (each starts its own `serve`). */
const STDIO_CONCURRENCY = 3;

const require = createRequire(import.meta.url);
const suitePackage = require.resolve('@modelcontextprotocol/conformance/package.json');
const suiteBin = join(dirname(suitePackage), require(suitePackage).bin.conformance);

/** A Node that can run the suite: this one from 22 on, else the cached Node 22 binary. */
async function suiteNode() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const { stdout } = await promisify(execFile)('bash', [join(ROOT, 'scripts/node-binary.sh'), '22'], { cwd: ROOT });
  return join(stdout.trim(), 'node');
}

/** The newest modification time under `dir` (ms). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * How to start the CLI: the built dist/cli.js when it is newer than every source file (`npm test` builds just
 * before), else the source through tsx (slower to start: several seconds per `serve` on a loaded machine).
 */
function cliArgs() {
  const built = join(ROOT, 'dist/cli.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, 'src'))) return [built];
  console.log('conformance: dist/cli.js is missing or older than src/: running the CLI through tsx');
  return ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];
}

/** What each server wrote on stderr (the last 8 KiB), shown when the run fails. */
const serverLogs = new Map();

/** Starts a server that prints its URL as its first line; resolves with the URL. */
function startServer(name, args, children) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  serverLogs.set(name, '');
  child.stderr
    .setEncoding('utf8')
    .on('data', (chunk) => serverLogs.set(name, (serverLogs.get(name) + chunk).slice(-8192)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('exit', (code) => reject(new Error(`${name} exited early (code ${code})\n${serverLogs.get(name)}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const url = line.trim();
      if (/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(url)) resolve(url);
      else reject(new Error(`unexpected server URL line: ${url}`));
    });
  });
}

/** Runs the suite with `args`; resolves with its exit code and everything it printed. */
function runSuite(node, args) {
  return new Promise((resolve) => {
    const child = spawn(node, [suiteBin, 'server', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\nconformance: the suite timed out after ${SUITE_TIMEOUT_MS} ms`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** The suite's closing summary lines (from `=== SUMMARY ===`, or the baseline verdict). */
function summaryOf(output) {
  const at = output.lastIndexOf('=== SUMMARY ===');
  return (at === -1 ? output.split('\n').slice(-15).join('\n') : output.slice(at)).trim();
}

/** Every active scenario against `url`, with `baseline` as the expected failures. */
async function fullSuite(node, name, url, baseline) {
  const { code, output } = await runSuite(node, ['--url', url, '--expected-failures', join(HERE, baseline)]);
  console.log(`\n--- ${name} (${url}), expected failures: scripts/conformance/${baseline}\n${summaryOf(output)}`);
  return code === 0 ? [] : [name];
}

/** The stdio scenarios through the relay, a few at a time; each must pass. */
async function stdioScenarios(node, url) {
  const failed = [];
  const queue = [...STDIO_SCENARIOS];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const { code, output } = await runSuite(node, ['--url', url, '--scenario', scenario]);
      if (code !== 0) {
        failed.push(`${scenario} (serve over stdio)`);
        console.log(`\n--- ${scenario}, serve over stdio: FAILED\n${output.trim()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: STDIO_CONCURRENCY }, worker));
  console.log(
    `\n--- mcp-prompt-kit serve over stdio (through the relay): ${STDIO_SCENARIOS.length - failed.length}/` +
      `${STDIO_SCENARIOS.length} passed (${STDIO_SCENARIOS.join(', ')})`,
  );
  return failed;
}

/** The suite's prompt, completion and resource checks in the 2026-07-28 era (modern.mjs), which the suite lacks. */
async function modernEra(name, transport) {
  const failures = await modernEraChecks(transport);
  console.log(
    `\n--- mcp-prompt-kit ${name}, 2026-07-28 era (SDK v2 client, the suite's checks): ` +
      (failures.length === 0 ? 'all passed' : `FAILED\n${failures.join('\n')}`),
  );
  return failures.length === 0 ? [] : [`2026-07-28 era (${name})`];
}

const children = [];
let relay;
let failed = [];
try {
  const cli = cliArgs();
  const serveArgs = [join(FIXTURES, 'prompts'), '--watch', '--docs', `test=${join(FIXTURES, 'docs')}`];
  const [node, exampleUrl, serveUrl] = await Promise.all([
    suiteNode(),
    startServer(
      'examples/conformance',
      ['--import', 'tsx', join(ROOT, 'examples/conformance/server.ts'), '--port', '0'],
      children,
    ),
    startServer('serve --http', [...cli, 'serve', ...serveArgs, '--http', '0'], children),
  ]);
  relay = await startStdioRelay({ command: process.execPath, args: [...cli, 'serve', ...serveArgs] });
  const { stdout: version } = await promisify(execFile)(node, [suiteBin, '--version']);
  console.log(
    `conformance: suite ${version.trim()} on Node ${(await promisify(execFile)(node, ['--version'])).stdout.trim()}`,
  );
  const results = await Promise.all([
    fullSuite(node, 'examples/conformance (attachPrompts + attachResources, SDK v1)', exampleUrl, 'example.yml'),
    fullSuite(node, 'mcp-prompt-kit serve --http --watch', serveUrl, 'serve.yml'),
    stdioScenarios(node, relay.url),
    modernEra('serve --http', { url: serveUrl }),
    modernEra('serve over stdio', { command: process.execPath, args: [...cli, 'serve', ...serveArgs] }),
  ]);
  failed = results.flat();
} catch (error) {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  failed.push('(a server did not start)');
} finally {
  await relay?.close();
  for (const child of children) child.kill('SIGTERM');
}

if (failed.length > 0) {
  for (const [name, log] of serverLogs)
    if (log.trim() !== '') console.error(`\n--- ${name} stderr (last 8 KiB)\n${log.trimEnd()}`);
  console.error(`\nconformance: FAILED ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nconformance: passed (failures only where the expected-failures files say, and why)');
