#!/usr/bin/env node
/**
 * Compiles src/fs/yaml-lines.wat into src/fs/yaml-lines-wasm.ts (the module's bytes, base64), with wabt.
 * `node scripts/wasm.mjs` after an edit of the .wat; `--check` exits 1 when the .ts is not what the .wat compiles to
 * (test/fs/yaml-lines.test.ts checks the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WAT = join(ROOT, 'src', 'fs', 'yaml-lines.wat');
const OUT = join(ROOT, 'src', 'fs', 'yaml-lines-wasm.ts');

/** The TypeScript module that holds what `yaml-lines.wat` compiles to. */
export async function compiledModule() {
  const tools = await wabt();
  const parsed = tools.parseWat('yaml-lines.wat', readFileSync(WAT, 'utf8'));
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    const base64 = Buffer.from(buffer).toString('base64');
    return `// Generated from yaml-lines.wat by scripts/wasm.mjs: do not edit.\n\n/** @internal yaml-lines.wat compiled (${buffer.length} bytes), base64. */\nexport const YAML_LINES_WASM =\n  '${base64}';\n`;
  } finally {
    parsed.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const module = await compiledModule();
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== module) {
      console.error(
        'src/fs/yaml-lines-wasm.ts is not what src/fs/yaml-lines.wat compiles to: run node scripts/wasm.mjs',
      );
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, module);
  }
}
