import { describe, expect, it } from 'vitest';
import { createMemoryPromptStore } from '../../src/index.js';
import { describeStoreContract, prompt } from './contract.js';

describeStoreContract('in-memory store', async () => ({ store: createMemoryPromptStore(), close: async () => {} }), {
  versions: 'history',
  corruptible: false,
  reconcilable: true,
});

describe('the in-memory store', () => {
  it('starts with the definitions it is given, each at version 1', async () => {
    const store = createMemoryPromptStore([prompt('a'), prompt('b')]);
    expect((await store.list()).map((e) => [e.name, e.version])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('serves its only version under every label', async () => {
    const store = createMemoryPromptStore([prompt('a')]);
    expect((await store.get('a', { label: 'staging' }))?.version).toBe(1);
  });
});
