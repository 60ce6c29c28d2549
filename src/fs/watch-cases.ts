/** The example cases files beside served prompt files, fingerprinted per prompt to see which ones a reload changed. */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { casesFilesBeside } from './cases.js';
import type { DirectoryState } from './directory-state.js';
import type { PromptFileContext } from './prompt-file.js';
import { fingerprint } from './scan.js';

/** @internal Per served prompt, the fingerprints of its cases files as last seen. */
export class CasesFiles {
  readonly #dir: string;
  #seen = new Map<string, string>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The served prompts whose cases files were added, changed or removed since the last check. */
  async check(state: DirectoryState, context: PromptFileContext): Promise<string[]> {
    const next = new Map<string, string>();
    await Promise.all(
      [...state.served.keys()].map(async (name) => {
        const rel = state.source(name)?.rel;
        if (rel === undefined) return;
        const prints = await Promise.all(
          casesFilesBeside(join(this.#dir, rel), context.casesNames).map((path) =>
            stat(path).then(fingerprint, () => ''),
          ),
        );
        const print = prints.join('|');
        if (print.replace(/\|/g, '') !== '') next.set(name, print);
      }),
    );
    const changed = [...new Set([...next.keys(), ...this.#seen.keys()])].filter(
      (name) => next.get(name) !== this.#seen.get(name) && state.served.has(name),
    );
    this.#seen = next;
    return changed.sort();
  }
}
