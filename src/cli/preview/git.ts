/** A prompt file as git HEAD has it: `git show HEAD:./<rel>` in the prompt directory, no shell, bounded in time and size. */
import { execFile } from 'node:child_process';

/** How long one `git show` may take. */
export const GIT_TIMEOUT_MS = 5_000;

/** The text of `rel` (relative to `dir`, POSIX) at HEAD; `undefined` outside a repository, or when HEAD lacks it. */
export function readAtHead(dir: string, rel: string, maxBytes: number): Promise<string | undefined> {
  // `./` makes the path relative to `dir`; a rel that is an option or a revision range cannot be formed here.
  if (rel.startsWith('-') || rel.includes('\0')) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', dir, 'show', `HEAD:./${rel}`],
      {
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: maxBytes + 1,
        encoding: 'utf8',
        windowsHide: true,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      },
      (error, stdout) => resolve(error === null ? stdout : undefined),
    );
  });
}
