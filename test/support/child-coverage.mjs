/**
 * Loaded into the test run's child processes (NODE_OPTIONS=--import=<this file>) when the run measures coverage: a
 * child that runs TypeScript through tsx records the V8 coverage of this repository's src/**\/*.ts files, with the
 * JavaScript it ran of each (its inline source map leads back to the .ts: copied from test/support/ts-hooks.mjs's
 * cache, else asked of V8), into MCP_PROMPT_KIT_CHILD_COVERAGE when it exits. test/support/coverage-by-folder.ts converts and merges these into the run's coverage map. Plain JavaScript:
 * it runs before any TypeScript loader.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheFile, cacheName } from './ts-cache.mjs';
import { mirroredSource } from './ts-mirror.mjs';

const dir = process.env.MCP_PROMPT_KIT_CHILD_COVERAGE;
// Only processes that load TypeScript (`node --import tsx`, the `tsx` command's own child, or the tests' own
// test/support/ts-register.mjs) or run the mirror of src/ (test/support/ts-mirror.mjs) run src/.
const runsMirror = mirroredSource(pathToFileURL(process.argv[1] ?? '').href) !== undefined;
const runsTsx =
  runsMirror || process.execArgv.some((arg) => /(^|[\\/])(tsx|ts-register\.mjs)([\\/]|$)/.test(arg));
// test/support/ts-register.mjs keeps the JavaScript it ran on disk (test/support/ts-cache.mjs), and the mirror's files
// are copies of it; tsx's is only in V8.
const runsHooks = !process.execArgv.some((arg) => /(^|[\\/])tsx([\\/]|$)/.test(arg));
const SRC = new URL('../../src/', import.meta.url).href;

if (dir !== undefined && dir !== '' && runsTsx) {
  const session = new Session();
  session.connect();
  // An in-process inspector session answers synchronously, so the exit handler below can still ask it.
  const post = (method, params) => {
    let answer;
    let failure;
    session.post(method, params, (error, result) => {
      failure = error;
      answer = result;
    });
    if (failure) throw failure;
    return answer;
  };
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    try {
      mkdirSync(join(dir, 'sources'), { recursive: true });
      const { result } = post('Profiler.takePreciseCoverage');
      let debugging = false;
      const scripts = [];
      for (const recorded of result) {
        // A mirror file counts for the .ts file it was made of.
        const mirrored = runsMirror ? mirroredSource(recorded.url) : undefined;
        const script = mirrored === undefined ? recorded : { ...recorded, url: mirrored, ran: recorded.url };
        if (!script.url.startsWith(SRC) || !script.url.endsWith('.ts')) continue;
        // Every child runs the same JavaScript for a file: each distinct text is stored once, named by a hash.
        const source = runsHooks ? copyCached(script.url, dir, script.ran) : undefined;
        if (source !== undefined) {
          scripts.push({ url: script.url, functions: script.functions, source });
          continue;
        }
        // Enabled only now (it slows the program down while on, and costs ~0.15 s): V8 still has every script's text.
        if (!debugging) post('Debugger.enable');
        debugging = true;
        const { scriptSource } = post('Debugger.getScriptSource', { scriptId: script.scriptId });
        const hash = createHash('sha256').update(scriptSource).digest('hex');
        store(join(dir, 'sources', `${hash}.js`), (file) => writeFileSync(file, scriptSource, { flag: 'wx' }));
        scripts.push({ url: script.url, functions: script.functions, source: hash });
      }
      if (scripts.length > 0) writeFileSync(join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`), JSON.stringify({ scripts }));
    } catch {
      // The run that asked for this may be over (its directory gone); the child's own outcome must not change.
    }
  };
  process.on('exit', write);
  // A signal without a handler of the program's own ends the process before 'exit': record, then end it the same way.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      write();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Runs `write(file)` unless the file is there already (another child stored the same text). */
function store(file, write) {
  try {
    write(file);
  } catch (error) {
    if (error?.code !== 'EEXIST') throw error;
  }
}

/**
 * Stores the JavaScript test/support/ts-hooks.mjs made of the .ts file at `url` (its cache, named by the file's path
 * and text) under that name, which it returns; undefined when the cache has no such file, or when `ran` (the mirror
 * file the child ran instead) is not that text (src/ changed since the mirror was made).
 */
function copyCached(url, dir, ran) {
  const path = fileURLToPath(url);
  const text = readFileSync(path, 'utf8');
  const name = `ts-${cacheName(path, text)}`;
  try {
    if (ran !== undefined && readFileSync(fileURLToPath(ran), 'utf8') !== readFileSync(cacheFile(path, text), 'utf8'))
      return undefined;
    store(join(dir, 'sources', `${name}.js`), (file) => copyFileSync(cacheFile(path, text), file, constants.COPYFILE_EXCL));
  } catch {
    return undefined;
  }
  return name;
}
