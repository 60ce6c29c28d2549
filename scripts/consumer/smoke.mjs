/**
 * Consumer smoke test of the packed tarball (part of `npm run check:package`): installs it into a fresh project, as a
 * user would (`npm install <tarball>` plus the SDK v1, zod and @types/node at the versions our own tests use), then
 * uses it from ESM, from CommonJS, from TypeScript (node16 and bundler resolution, strict, skipLibCheck false for our
 * declarations: see typecheck.mjs) and reads the published JSON Schema. Every step prints one summary line; a failing
 * step is reported as a {@link ConsumerStepFailed} message naming it (after a failed install the other steps are
 * skipped; otherwise every step runs).
 *
 * Only npm's own cache speeds up the install (`--prefer-offline`); nothing is left behind: the project lives in the
 * caller's temporary directory.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheckProject } from './typecheck.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const SECOND = 1000;

/** A consumer step failed; `step` names it. */
export class ConsumerStepFailed extends Error {
  constructor(step, message) {
    super(`consumer ${step}: ${message}`);
    this.step = step;
  }
}

/** Runs a command without a shell; resolves with its exit status, output and duration (never rejects on exit code). */
function run(command, args, { cwd, timeoutMs }) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      resolve({ status, signal, timedOut, stdout, stderr, output: `${stdout}${stderr}`.trim(), ms });
    });
  });
}

const seconds = (ms) => `${(ms / SECOND).toFixed(1)} s`;

function failIfUnsuccessful(step, result, timeoutMs) {
  if (result.timedOut) throw new ConsumerStepFailed(step, `timed out after ${seconds(timeoutMs)}\n${result.output}`);
  if (result.status !== 0) {
    throw new ConsumerStepFailed(step, `exited with ${result.status ?? result.signal}\n${result.output}`);
  }
}

/** The version of a package in OUR node_modules (what our tests run against), else the devDependencies range. */
function ourVersion(root, pkg, name) {
  const manifest = join(root, 'node_modules', ...name.split('/'), 'package.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).version;
  const range = pkg.devDependencies?.[name];
  if (range === undefined)
    throw new ConsumerStepFailed('install', `${name} is neither installed nor in devDependencies`);
  return range;
}

async function install(project, tarball, specs) {
  const timeoutMs = 180 * SECOND;
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'mcp-prompt-kit-consumer', version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  const args = [
    'install',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    '--no-package-lock',
    '--prefer-offline',
    '--loglevel=error',
    tarball,
    ...specs,
  ];
  const result = await run(NPM, args, { cwd: project, timeoutMs });
  failIfUnsuccessful('install', result, timeoutMs);
  const installed = join(project, 'node_modules', 'mcp-prompt-kit', 'package.json');
  if (!existsSync(installed))
    throw new ConsumerStepFailed('install', 'node_modules/mcp-prompt-kit is missing after npm install');
  const packages = countPackages(join(project, 'node_modules'));
  return { ms: result.ms, packages };
}

function countPackages(nodeModules) {
  let count = 0;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) count += readdirSync(join(nodeModules, entry)).length;
    else count += 1;
  }
  return count;
}

async function runScript(step, project, file) {
  const timeoutMs = 30 * SECOND;
  copyFileSync(join(HERE, file), join(project, file));
  const result = await run(process.execPath, [file], { cwd: project, timeoutMs });
  failIfUnsuccessful(step, result, timeoutMs);
  return result;
}

/** The compiler options every TypeScript consumer shares: strict, and our declarations checked (skipLibCheck false). */
const STRICT_OPTIONS = {
  target: 'ES2022',
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  noEmit: true,
};

/**
 * The two TypeScript consumers: a Node.js project (node16, Node's own types, ESM `.ts` plus a CommonJS `.cts` that
 * checks the `require` branch of the exports map) and a bundler project for browsers and edge runtimes (DOM lib, no
 * Node types: our declarations must not need them).
 */
const TS_PROJECTS = [
  {
    name: 'node16',
    compilerOptions: {
      ...STRICT_OPTIONS,
      module: 'node16',
      moduleResolution: 'node16',
      lib: ['ES2022'],
      types: ['node'],
    },
    files: ['consumer.ts', 'consumer.cts'],
  },
  {
    name: 'bundler',
    compilerOptions: {
      ...STRICT_OPTIONS,
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['ES2022', 'DOM'],
      types: [],
    },
    files: ['consumer.ts'],
  },
];

function loadTypeScript(root) {
  const require = createRequire(join(root, 'package.json'));
  return require('typescript');
}

function typecheck(project, ts, config) {
  const step = `types (${config.name})`;
  const tsconfig = `tsconfig.${config.name}.json`;
  writeFileSync(
    join(project, tsconfig),
    `${JSON.stringify({ compilerOptions: config.compilerOptions, files: config.files }, null, 2)}\n`,
  );
  const result = typecheckProject({ ts, project, tsconfig, ownPackage: 'mcp-prompt-kit' });
  const declarations = result.checked.filter((file) => file.includes('node_modules'));
  if (declarations.length === 0) {
    throw new ConsumerStepFailed(
      step,
      `no declaration file of mcp-prompt-kit was reached (checked: ${result.checked.join(', ')})`,
    );
  }
  if (result.diagnostics.length > 0) {
    const lines = result.diagnostics.map((d) => `  ${d.text.replace(/\n/g, '\n  ')}${sourceLine(project, d)}`);
    throw new ConsumerStepFailed(
      step,
      `TypeScript ${ts.version} (${describeOptions(config)}) found ${result.diagnostics.length} problem(s) in our ` +
        `declarations or the consumer:\n${lines.join('\n')}`,
    );
  }
  return { ms: result.ms, checked: result.checked };
}

/** The consumer source lines a diagnostic points at (their comments say what is being checked). */
function sourceLine(project, diagnostic) {
  if (diagnostic.file === undefined || diagnostic.line === undefined || diagnostic.file.includes('node_modules'))
    return '';
  const path = join(project, diagnostic.file);
  if (!existsSync(path)) return '';
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = diagnostic.line - 1;
  return lines
    .slice(Math.max(0, at - 1), at + 1)
    .map((text) => `\n      | ${text}`)
    .join('');
}

function describeOptions(config) {
  const o = config.compilerOptions;
  return `module ${o.module}, moduleResolution ${o.moduleResolution}, lib ${o.lib.join('+')}, types [${o.types.join(', ')}], strict, skipLibCheck false`;
}

/**
 * Runs every consumer step against `tarball`, in `project` (an empty directory the caller removes). Returns the
 * failures (ConsumerStepFailed messages); prints one line per step.
 */
export async function runConsumerSmoke({ root, tarball, project, log = console.log }) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const failures = [];
  const attempt = async (step, body) => {
    try {
      log(`consumer ${step}: ok ${await body()}`);
      return true;
    } catch (error) {
      if (!(error instanceof ConsumerStepFailed)) throw error;
      log(`consumer ${step}: FAILED (see below)`);
      failures.push(error.message);
      return false;
    }
  };

  const specs = ['@modelcontextprotocol/sdk', 'zod', '@types/node'].map(
    (name) => `${name}@${ourVersion(root, pkg, name)}`,
  );
  const installed = await attempt('install', async () => {
    const { ms, packages } = await install(project, tarball, specs);
    return `in ${seconds(ms)} (${basename(tarball)}, ${specs.join(', ')}; ${packages} packages)`;
  });
  if (!installed) return failures;

  await attempt('esm', async () => {
    const { ms } = await runScript('esm', project, 'esm.mjs');
    return `in ${seconds(ms)} (import incl. mcp-prompt-kit/mcp; getPrompt unescaped; -32602 data.missing_arguments; SDK v1 McpServer + Client over InMemoryTransport)`;
  });
  await attempt('cjs', async () => {
    const { ms } = await runScript('cjs', project, 'cjs.cjs');
    return `in ${seconds(ms)} (require incl. mcp-prompt-kit/mcp; isPromptError/toPromptError across the CJS and ESM copies; both adapters on SDK v1)`;
  });

  const ts = loadTypeScript(root);
  for (const file of ['consumer.ts', 'consumer.cts']) copyFileSync(join(HERE, file), join(project, file));
  for (const config of TS_PROJECTS) {
    await attempt(`types (${config.name})`, async () => {
      const { ms, checked } = typecheck(project, ts, config);
      const ours = checked.filter((file) => file.includes('node_modules')).map((file) => basename(file));
      return `in ${seconds(ms)} (TypeScript ${ts.version}: ${config.files.join(' + ')}; ${describeOptions(config)}; checked ${ours.join(', ')})`;
    });
  }

  await attempt('schema', async () => {
    const { ms, stdout } = await runScript('schema', project, 'schema.mjs');
    return `in ${seconds(ms)} (mcp-prompt-kit/schema/prompt-definition.schema.json resolves for import and require, valid JSON, $id ${stdout.trim()})`;
  });
  return failures;
}
