import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePromptCases } from '../../src/index.js';
import { writeCaseSnapshots } from '../../src/fs/case-snapshots.js';
import type { PromptMessage } from '../../src/index.js';
import { tempDir, writeFiles } from '../fs/temp.js';

const HI: PromptMessage[] = [{ role: 'user', content: { type: 'text', text: 'Hi\nthere' } }];
const IMAGE: PromptMessage[] = [{ role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }];

describe('writing case snapshots', () => {
  it('replaces a multi-line JSON member in place, at its indentation, and adds one after the last member', async () => {
    const dir = await tempDir();
    const text =
      '{\n    "cases": [\n        {\n            "name": "a",\n            "messages": []\n        },\n        {\n            "name": "b"\n        }\n    ]\n}\n';
    await writeFiles(dir, { 'p.json': text });
    const file = join(dir, 'p.json');
    const writes = await writeCaseSnapshots(
      [
        { file, pointer: '/cases/0', messages: HI },
        { file, pointer: '/cases/1', messages: IMAGE },
      ],
      1_048_576,
      10_000,
    );
    expect(writes).toEqual([{ file, updated: 2 }]);
    const after = await readFile(file, 'utf8');
    expect(after).toBe(
      '{\n    "cases": [\n        {\n            "name": "a",\n            "messages": [\n                {\n                    "role": "user",\n                    "content": "Hi\\nthere"\n                }\n            ]\n        },\n        {\n            "name": "b",\n            "messages": [\n                {\n                    "role": "assistant",\n                    "content": {\n                        "type": "image",\n                        "data": "AAAA",\n                        "mimeType": "image/png"\n                    }\n                }\n            ]\n        }\n    ]\n}\n',
    );
    expect(parsePromptCases((JSON.parse(after) as { cases: unknown }).cases).problems).toEqual([]);
  });

  it('edits a bare list of cases in a YAML cases file, keeping its comments', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'p.cases.yaml': '# top\n- name: a # why\n  arguments: {who: x}\n# between\n- name: b\n' });
    const file = join(dir, 'p.cases.yaml');
    expect(await writeCaseSnapshots([{ file, pointer: '/0', messages: HI }], 1_048_576, 10_000)).toEqual([
      { file, updated: 1 },
    ]);
    expect(await readFile(file, 'utf8')).toBe(
      '# top\n- name: a # why\n  arguments: {who: x}\n  messages:\n    - role: user\n      content: |-\n        Hi\n        there\n# between\n- name: b\n',
    );
  });

  it('writes nothing to a file it cannot edit safely, or one over the size limit, and says why', async () => {
    const dir = await tempDir();
    const text = 'cases:\n  - name: a\n';
    await writeFiles(dir, { 'p.yaml': text, 'big.yaml': `cases: []\n#${'x'.repeat(2_000)}\n` });
    const file = join(dir, 'p.yaml');
    const big = join(dir, 'big.yaml');
    const writes = await writeCaseSnapshots(
      [
        { file, pointer: '/cases/5', messages: HI },
        { file: big, pointer: '/cases/0', messages: HI },
      ],
      1_000,
      10_000,
    );
    expect(writes).toEqual([
      { file: big, updated: 0, error: 'file is over the 1000-byte limit' },
      { file, updated: 0, error: 'the file could not be edited safely: nothing written' },
    ]);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await readdir(dir)).sort()).toEqual(['big.yaml', 'p.yaml']);
  });
});
