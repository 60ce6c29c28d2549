/**
 * Reading a file whole while a writer may be at work (readStable), and checking what a descriptor has open where
 * /proc/self/fd cannot say (openedInside): real files, with a writer that appends between the read and the stat after.
 */
import { appendFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openedInside, readStable } from '../../src/fs/open-file.js';
import { tempDir } from './temp.js';

const handles: FileHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close().catch(() => undefined)));
});

/** A file holding `text`, open for reading. */
async function opened(text: string): Promise<{ path: string; handle: FileHandle }> {
  const path = join(await tempDir(), 'doc.md');
  writeFileSync(path, text);
  const handle = await open(path, 'r');
  handles.push(handle);
  return { path, handle };
}

/**
 * `handle`, with `afterRead(n, position)` run after its n-th read (n from 1) at `position`: a writer at work while the
 * file is read.
 */
function interrupted(handle: FileHandle, afterRead: (n: number, position: number) => void): FileHandle {
  let reads = 0;
  return {
    stat: () => handle.stat(),
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      const result = await handle.read(buffer, offset, length, position);
      afterRead(++reads, position);
      return result;
    },
  } as unknown as FileHandle;
}

describe('readStable', () => {
  it('reads a file again when it changed during the read, and returns the version two stats agree on', async () => {
    const { path, handle } = await opened('first');
    const writes: number[] = [];
    const read = await readStable(
      interrupted(handle, (n) => {
        if (n === 1) {
          appendFileSync(path, ' and more');
          writes.push(n);
        }
      }),
      1_000,
    );
    expect(writes).toEqual([1]);
    expect(read).toMatchObject({ ok: true });
    expect(read.ok && read.bytes.toString()).toBe('first and more');
  });

  it('gives up as unsettled when the file changes during each of its three reads, rather than return a torn version', async () => {
    const { path, handle } = await opened('start');
    let appended = 0;
    const read = await readStable(
      // At the start of each attempt: its size differs from the stat before, whatever the clock's granularity.
      interrupted(handle, (_, position) => {
        if (position === 0) {
          appendFileSync(path, '+');
          appended++;
        }
      }),
      1_000,
    );
    expect(read).toEqual({ ok: false, reason: 'unsettled' });
    expect(appended).toBe(3);
  });

  it('refuses a file that grows past the limit while it is read, reading no more than one byte past it', async () => {
    const { path, handle } = await opened('0123456789');
    const read = await readStable(
      interrupted(handle, (n) => {
        if (n === 1) appendFileSync(path, 'x'.repeat(500));
      }),
      100,
    );
    expect(read).toEqual({ ok: false, reason: 'too-large', size: 101 });
  });

  it('refuses a file already over the limit by its first stat without reading it', async () => {
    const { handle } = await opened('x'.repeat(50));
    let reads = 0;
    const read = await readStable(
      interrupted(handle, () => reads++),
      10,
    );
    expect(read).toEqual({ ok: false, reason: 'too-large', size: 50 });
    expect(reads).toBe(0);
  });
});

describe('openedInside where /proc/self/fd cannot say what is open', () => {
  // A closed handle's descriptor is -1, which /proc/self/fd has no entry for: the check falls back to the path.
  async function closedHandle(path: string): Promise<{ handle: FileHandle; stats: Stats }> {
    const handle = await open(path, 'r');
    const stats = await handle.stat();
    await handle.close();
    return { handle, stats };
  }

  it('accepts the file when the path still leads, inside the root, to the same file', async () => {
    const root = realpathSync(await tempDir());
    const path = join(root, 'a.md');
    writeFileSync(path, 'a');
    const { handle, stats } = await closedHandle(path);
    expect(handle.fd).toBe(-1);
    expect(await openedInside(handle, stats, root, path)).toBe(true);
  });

  it('refuses it when the path now leads to another file, outside the root, or nowhere', async () => {
    const root = realpathSync(await tempDir());
    const outside = realpathSync(await tempDir());
    const path = join(root, 'a.md');
    writeFileSync(path, 'a');
    writeFileSync(join(outside, 'b.md'), 'b');
    const { handle, stats } = await closedHandle(path);

    writeFileSync(join(root, 'other.md'), 'other');
    expect(await openedInside(handle, stats, root, join(root, 'other.md'))).toBe(false);
    symlinkSync(join(outside, 'b.md'), join(root, 'link.md'));
    expect(await openedInside(handle, stats, root, join(root, 'link.md'))).toBe(false);
    expect(await openedInside(handle, stats, root, join(root, 'gone.md'))).toBe(false);
  });
});
