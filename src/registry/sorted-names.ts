/**
 * Prompt names in code-unit order, kept sorted as they change: blocks of a few hundred names, so one insert or
 * removal costs a binary search plus a short splice, and a page costs O(blocks + page) — never a re-sort.
 *
 * @module
 * @internal
 */

const BLOCK = 512;

/** @internal The sorted set of names behind the registry's listing. */
export class SortedNames {
  #blocks: string[][] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds names (none already present): one by one for a few, one rebuild for a batch large against the set. */
  insert(names: readonly string[]): void {
    if (names.length === 0) return;
    if (names.length > 64 && names.length * 4 > this.#size) {
      this.#rebuild(mergeSorted(this.all(), [...names].sort(compare)));
      return;
    }
    for (const name of names) this.#insertOne(name);
  }

  /** Removes names (all present). */
  remove(names: readonly string[]): void {
    if (names.length > 64 && names.length * 4 > this.#size) {
      const gone = new Set(names);
      this.#rebuild(this.all().filter((n) => !gone.has(n)));
      return;
    }
    for (const name of names) this.#removeOne(name);
  }

  /** Every name, in order (a fresh array). */
  all(): string[] {
    const out: string[] = new Array(this.#size);
    let k = 0;
    for (const block of this.#blocks) for (const name of block) out[k++] = name;
    return out;
  }

  /** Up to `count` names after `after` (from the start when undefined), and whether more follow. */
  page(after: string | undefined, count: number): { names: string[]; more: boolean } {
    const names: string[] = [];
    let b = after === undefined ? 0 : this.#blockFor(after);
    let i = after === undefined ? 0 : upperBound(this.#blocks[b] ?? [], after, self);
    for (; b < this.#blocks.length; b++, i = 0) {
      const block = this.#blocks[b]!;
      for (; i < block.length; i++) {
        if (names.length === count) return { names, more: true };
        names.push(block[i]!);
      }
    }
    return { names, more: false };
  }

  /** Index of the block that holds, or would hold, `name`. */
  #blockFor(name: string): number {
    const blocks = this.#blocks;
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = blocks[mid]!;
      if (block[block.length - 1]! < name) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(lo, 0);
  }

  #insertOne(name: string): void {
    this.#size++;
    if (this.#blocks.length === 0) {
      this.#blocks.push([name]);
      return;
    }
    const b = this.#blockFor(name);
    const block = this.#blocks[b]!;
    block.splice(upperBound(block, name, self), 0, name);
    if (block.length > 2 * BLOCK) this.#blocks.splice(b, 1, block.slice(0, BLOCK), block.slice(BLOCK));
  }

  #removeOne(name: string): void {
    if (this.#blocks.length === 0) return;
    const b = this.#blockFor(name);
    const block = this.#blocks[b]!;
    const i = upperBound(block, name, self) - 1;
    if (i < 0 || block[i] !== name) return;
    this.#size--;
    block.splice(i, 1);
    if (block.length === 0) this.#blocks.splice(b, 1);
  }

  #rebuild(sorted: readonly string[]): void {
    const blocks: string[][] = [];
    for (let i = 0; i < sorted.length; i += BLOCK) blocks.push(sorted.slice(i, i + BLOCK));
    this.#blocks = blocks;
    this.#size = sorted.length;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** @internal Index of the first item whose key sorts strictly after `after` (code-unit order). */
export function upperBound<T>(sorted: readonly T[], after: string, key: (item: T) => string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(sorted[mid]!) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const self = (name: string): string => name;
