import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compiledModule } from '../../scripts/wasm.mjs';
import { byteText } from '../../src/fs/yaml-lines.js';
import { parseYamlSource } from '../../src/fs/yaml-source.js';
import { STARTS_CHILD_PROCESSES, tsNodeArgs } from '../support/processes.js';

/** Texts whose scalars have many short lines, in every style the loops read. */
function shortLineTexts(): string[] {
  const lines = Array.from({ length: 80 }, (_, i) => ['a', 'bb', 'c c', '', 'é'][i % 5]!);
  const at = (indent: number) => lines.map((l) => (l === '' ? '' : `${' '.repeat(indent)}${l}`)).join('\n');
  return [
    `k:\n${at(2)}\nz: 1\n`,
    `k: "${at(4).replaceAll('bb', 'b\\tb')}"\nz: 1\n`,
    `k: '${at(4).replaceAll('bb', "b''b")}'\nz: 1\n`,
    ...['|', '>', '|-', '>+', '|2'].map((h) => `k: ${h}\n${at(2)}\n\n${'   x\n'.repeat(3)}z: 1\n`),
    `- k: >\n${lines.map((l, i) => (l === '' ? '' : `${' '.repeat(4 + (i % 3 === 1 ? 2 : 0))}${l}`)).join('\n')}\n- z\n`,
  ];
}

describe('YAML byte loops', () => {
  it('runs what src/fs/yaml-lines.wat compiles to', async () => {
    const module = await compiledModule();
    expect(readFileSync(new URL('../../src/fs/yaml-lines-wasm.ts', import.meta.url), 'utf8')).toBe(module);
  });

  it.runIf(STARTS_CHILD_PROCESSES)(
    'reads the same values and positions without WebAssembly (node --jitless), through the general reading',
    () => {
      expect(byteText('a\nb')).toBeDefined();
      const texts = shortLineTexts();
      const here = texts.map((text) => {
        const source = parseYamlSource(text);
        return 'value' in source ? { value: source.value, at: source.locate('/k') } : source;
      });
      expect(here.filter((r) => 'value' in r).length).toBe(texts.length);
      const child = spawnSync(process.execPath, ['--jitless', ...tsNodeArgs('test/fs/read-yaml-child.ts')], {
        input: JSON.stringify(texts),
        encoding: 'utf8',
      });
      expect(child.status, child.stderr).toBe(0);
      expect(JSON.parse(child.stdout)).toEqual({ webAssembly: 'undefined', read: here });
    },
  );
});
