#!/usr/bin/env node
/**
 * Packaging check (`npm run check:package`, after `npm run build`): packs the package exactly as `npm publish` would
 * (scripts/packed.mjs: or reuses the tarball an earlier step packed from the same files),
 * holds the tarball to its size budget and to the files a package needs (scripts/package-budget.mjs), then lints the
 * tarball with publint (strict: warnings fail too) and @arethetypeswrong/cli (profile `node16`: the package supports
 * Node 16+ resolution for ESM and CJS, and bundlers; the legacy `node10` resolution, which cannot see subpath exports,
 * is out of scope), then installs it into a fresh consumer project and uses it from ESM, CommonJS and TypeScript
 * (scripts/consumer/smoke.mjs). Exits non-zero with a readable report naming every failed step; always removes its
 * temporary directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { runConsumerSmoke } from './consumer/smoke.mjs';
import { MAX_PACKED_BYTES, tarballProblems } from './package-budget.mjs';
import { packedTarball } from './packed.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

class CheckFailed extends Error {}

/** The `exports` targets a build must produce (JS and declaration files under dist/). */
function builtTargets(pkg) {
  const targets = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/')) targets.add(value);
    } else if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(pkg.exports);
  for (const field of ['main', 'module', 'types']) walk(pkg[field]);
  return [...targets];
}

function assertBuilt(pkg) {
  const missing = builtTargets(pkg).filter((target) => !existsSync(join(ROOT, target)));
  if (missing.length > 0) {
    throw new CheckFailed(
      `the build output is missing (${missing.join(', ')}); run \`npm run build\` before \`npm run check:package\``,
    );
  }
}

function pack() {
  let packed;
  try {
    packed = packedTarball();
  } catch (error) {
    throw new CheckFailed(error.message);
  }
  const { tarball, info, reused } = packed;
  console.log(
    `packed ${info.filename}: ${info.entryCount} files, ${info.size} bytes packed, ${info.unpackedSize} unpacked${reused ? ' (the tarball an earlier step packed from the same files)' : ''}`,
  );
  return { tarball, info };
}

function checkBudget(info) {
  const problems = tarballProblems(info);
  if (problems.length > 0) throw new CheckFailed(problems.join('\n'));
  console.log(
    `size: ok (${info.size} bytes packed, budget ${MAX_PACKED_BYTES}; only dist JS and declarations, the schema, README, LICENSE)`,
  );
}

async function runPublint(tarball) {
  const data = readFileSync(tarball);
  const arrayBuffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: arrayBuffer }, level: 'suggestion', strict: true });
  const format = (message) => `  ${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`;
  const suggestions = messages.filter((m) => m.type === 'suggestion');
  const problems = messages.filter((m) => m.type !== 'suggestion');
  for (const message of suggestions) console.log(format(message));
  if (problems.length > 0) {
    throw new CheckFailed(`publint found ${problems.length} problem(s):\n${problems.map(format).join('\n')}`);
  }
  console.log(`publint: ok${suggestions.length > 0 ? ` (${suggestions.length} suggestion(s) above)` : ''}`);
}

function runAttw(tarball) {
  const manifestPath = require.resolve('@arethetypeswrong/cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = join(dirname(manifestPath), typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.attw);
  const args = [bin, tarball, '--profile', 'node16', '--no-definitely-typed', '--format', 'table', '--no-color'];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`.trim();
  if (result.status !== 0) {
    throw new CheckFailed(`@arethetypeswrong/cli found problems (exit ${result.status}):\n${output}`);
  }
  console.log(output);
  console.log('attw: ok');
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The installed `mcp-prompt-kit` command (package.json "bin"), as npm links it: `--version` prints the package's
 * version, and `check` validates a YAML prompt file (the `yaml` dependency and mcp-prompt-kit/fs inside the bundle).
 */
function runBinSmoke(project) {
  const bin = join(
    project,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'mcp-prompt-kit.cmd' : 'mcp-prompt-kit',
  );
  if (!existsSync(bin))
    return existsSync(join(project, 'node_modules'))
      ? ['consumer bin: node_modules/.bin/mcp-prompt-kit was not linked']
      : [];
  const failures = [];
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const version = spawnSync(bin, ['--version'], { cwd: project, encoding: 'utf8' });
  if (version.status !== 0 || version.stdout.trim() !== pkg.version) {
    failures.push(
      `consumer bin: mcp-prompt-kit --version exited ${version.status} with '${version.stdout.trim()}' (expected ${pkg.version})\n${version.stderr}`,
    );
  }
  const prompts = join(project, 'prompts');
  mkdirSync(prompts, { recursive: true });
  writeFileSync(
    join(prompts, 'greet.yaml'),
    'name: greet\narguments: [{name: who, required: true}]\nmessages: [{role: user, content: "Hello {{who}}"}]\n',
  );
  const check = spawnSync(bin, ['check', prompts], { cwd: project, encoding: 'utf8' });
  if (check.status !== 0 || !check.stdout.includes('1 prompt(s): 0 error(s)')) {
    failures.push(`consumer bin: mcp-prompt-kit check exited ${check.status}\n${check.stdout}${check.stderr}`);
  }
  if (failures.length === 0)
    console.log(`consumer bin: ok (mcp-prompt-kit --version ${pkg.version}; check of a YAML prompt directory)`);
  return failures;
}

async function main() {
  const started = performance.now();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assertBuilt(pkg);
  const temp = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-pack-'));
  try {
    const { tarball, info } = pack();
    const failures = [];
    for (const check of [() => checkBudget(info), () => runPublint(tarball), () => runAttw(tarball)]) {
      try {
        await check();
      } catch (error) {
        if (!(error instanceof CheckFailed)) throw error;
        failures.push(error.message);
      }
    }
    const project = join(temp, 'consumer');
    mkdirSync(project);
    failures.push(...(await runConsumerSmoke({ root: ROOT, tarball, project })));
    failures.push(...runBinSmoke(project));
    if (failures.length > 0) throw new CheckFailed(failures.join('\n\n'));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  console.log(
    `check:package: the packed tarball passes the size budget, publint, attw and the consumer smoke test (${seconds(performance.now() - started)})`,
  );
}

main().catch((error) => {
  if (error instanceof CheckFailed) {
    console.error(`check:package failed: ${error.message}`);
  } else {
    console.error('check:package crashed:', error);
  }
  process.exitCode = 1;
});
