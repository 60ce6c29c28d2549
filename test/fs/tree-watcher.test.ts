/**
 * The change signals under the directory watchers: which directories are watched, and what happens when watching
 * fails (a directory that is gone, a parent that cannot be watched, an error from the OS).
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TreeWatcher } from '../../src/fs/tree-watcher.js';
import { tempDir, waitFor } from './temp.js';

const open: TreeWatcher[] = [];
afterEach(() => {
  for (const tree of open.splice(0)) tree.close();
});

/** A TreeWatcher over `root` counting its signals, with the real fs.watch watchers it made (by path). */
function tree(root: string, refused: ReadonlySet<string> = new Set()) {
  let signals = 0;
  const made = new Map<string, FSWatcher>();
  const recordingWatch = ((path: string, listener: (event: string, file: string | null) => void) => {
    // What fs.watch throws when the OS has no inotify watch left for the path.
    if (refused.has(path))
      throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), {
        code: 'ENOSPC',
      });
    const watcher = watch(path, listener);
    made.set(path, watcher);
    return watcher;
  }) as unknown as typeof watch;
  const watcher = new TreeWatcher(root, () => void signals++, recordingWatch);
  open.push(watcher);
  return { watcher, made, signals: () => signals };
}

describe('TreeWatcher', () => {
  it('signals a change in a watched directory and in a directory added by sync(), not in one dropped', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'sub'));
    await mkdir(join(root, 'dropped'));
    const { watcher, signals } = tree(root);
    watcher.sync([root, join(root, 'sub'), join(root, 'dropped')]);
    watcher.sync([root, join(root, 'sub')]);
    await writeFile(join(root, 'sub', 'a.json'), '{}');
    await waitFor(() => signals() >= 1, 30_000, 'the signal for sub/a.json');
  });

  it('skips a directory that does not exist, and a vanished one is dropped and re-added by path and identity', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'sub'));
    const { watcher, made } = tree(root);
    watcher.sync([root, join(root, 'sub'), join(root, 'missing')]);
    expect([...made.keys()].sort()).toEqual([dirname(root), root, join(root, 'sub')].sort());
    const first = made.get(join(root, 'sub'));
    // Replaced by another directory under the same path (made first, so it cannot reuse the inode): a watcher of its
    // own.
    await mkdir(join(root, 'next'));
    await rm(join(root, 'sub'), { recursive: true });
    await rename(join(root, 'next'), join(root, 'sub'));
    watcher.sync([root, join(root, 'sub')]);
    expect(made.get(join(root, 'sub'))).not.toBe(first);
  });

  it('drops a watcher the OS reports an error for and signals, so a rescan re-adds what exists', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'sub'));
    const { watcher, made, signals } = tree(root);
    watcher.sync([root, join(root, 'sub')]);
    const failed = made.get(join(root, 'sub'))!;
    failed.emit('error', Object.assign(new Error('EPERM: operation not permitted, watch'), { code: 'EPERM' }));
    expect(signals()).toBe(1);
    // The rescan's sync re-adds it: a new watcher for the same directory.
    watcher.sync([root, join(root, 'sub')]);
    expect(made.get(join(root, 'sub'))).not.toBe(failed);
    // An error on the root's parent watcher only stops watching for the root's deletion.
    const parent = made.get(dirname(root))!;
    parent.emit('error', new Error('parent watch failed'));
    expect(signals()).toBe(1);
  });

  it('signals when a directory cannot be watched, so the rescan that follows tries again', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'sub'));
    const { watcher, made, signals } = tree(root, new Set([join(root, 'sub')]));
    watcher.sync([root, join(root, 'sub')]);
    expect(signals()).toBe(1);
    expect(made.has(join(root, 'sub'))).toBe(false);
    expect(made.has(root)).toBe(true);
  });

  it('watches a root whose parent cannot be watched, and ignores sync() after close()', () => {
    const root = join('/nonexistent-parent-of-mcp-prompt-kit', 'prompts');
    const { watcher, made } = tree(root);
    expect(made.size).toBe(0);
    watcher.sync([root]);
    expect(made.size).toBe(0);
    watcher.close();
    watcher.sync(['/']);
    expect(made.size).toBe(0);
  });
});
