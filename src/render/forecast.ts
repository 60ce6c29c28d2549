/**
 * The work a render will certainly do, known before it starts: a render (and every section over an array) first
 * adds up a lower bound of the steps, repetitions and text its body will take, and is refused with LIMIT_EXCEEDED
 * before any of it is done when that bound is over what is left of the budget.
 *
 * The bound multiplies list lengths along nested sections (`{{#xs}}{{#xs}}…` costs |xs|² bodies): a name inside a
 * section is counted with the value it has in the context the forecast starts from, for each item that cannot
 * shadow it (an item owning none of the names that decide the path there), so the bound never exceeds what the
 * render does. Names an item may shadow count nothing; their sections forecast again when they start.
 *
 * @module
 * @internal
 */
import type { RenderBudget } from './limits.js';
import { tooManyBytes, tooManyRepeats, tooManySteps } from './limits.js';
import { DIRECTIVE, INVERTED, SECTION, VARIABLE } from './tag-node.js';
import type { TagNode, TemplateNode } from './tag-node.js';
import { lookupName } from './values.js';

/** The running lower bound of one forecast. */
interface Tally {
  steps: number;
  repeats: number;
  units: number;
}

/** The items of an open section between the forecast's context and a body, and the names deciding the path below it. */
interface Level {
  readonly items: Items;
  readonly below: readonly string[];
}

/** A list a section iterates (or the one value it pushes), with its counts of items owning none of some names. */
interface Items {
  readonly values: readonly unknown[];
  /**
   * For lists items of outer levels own: the items holding each value, innermost first (a name any owns is shadowed).
   */
  readonly holders: readonly (readonly unknown[])[] | undefined;
  /** No item (nor holder) can own a name (numbers, booleans, null): every count is the length. */
  readonly inert: boolean;
  counts: Map<string, number> | undefined;
}

/** Whether `item` has `name` as an own property, as a lookup inside a section over it would find it. */
function owns(item: unknown, name: string): boolean {
  if (typeof item === 'string') return Object.hasOwn(Object(item) as object, name);
  return typeof item === 'object' && item !== null && Object.hasOwn(item, name);
}

function canOwn(value: unknown): boolean {
  return (typeof value === 'object' && value !== null) || typeof value === 'string';
}

function itemsOf(values: readonly unknown[], holders?: readonly (readonly unknown[])[]): Items {
  // A list owned by an item has a holder that can own names: never inert.
  let inert = holders === undefined;
  for (let i = 0; i < values.length && inert; i++) if (canOwn(values[i])) inert = false;
  return { values, holders, inert, counts: undefined };
}

/** Whether item `i` (or the item holding it) owns one of `names`. */
function shadows(items: Items, i: number, names: readonly string[]): boolean {
  for (let j = 0; j < names.length; j++) {
    const name = names[j] as string;
    if (owns(items.values[i], name)) return true;
    const holders = items.holders?.[i];
    if (holders !== undefined) for (let k = 0; k < holders.length; k++) if (owns(holders[k], name)) return true;
  }
  return false;
}

/** How many items own none of `names`. */
function countFree(items: Items, names: readonly string[]): number {
  const values = items.values;
  if (items.inert || names.length === 0) return values.length;
  const memo = names.join('\u0000');
  const known = items.counts?.get(memo);
  if (known !== undefined) return known;
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!shadows(items, i, names)) n++;
  (items.counts ??= new Map()).set(memo, n);
  return n;
}

/**
 * The lists the innermost level's items own under `name` (each item's own list is what its lookup finds first), as
 * one level of their items paired with the item holding them; only items on the path (owning none of its names).
 */
function ownedLists(level: Level, name: string): Items | undefined {
  const { items, below } = level;
  if (items.inert) return undefined;
  let values: unknown[] | undefined;
  let holders: (readonly unknown[])[] | undefined;
  for (let i = 0; i < items.values.length; i++) {
    const item = items.values[i];
    if (!owns(item, name) || (below.length > 0 && shadows(items, i, below))) continue;
    const list = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[name] : undefined;
    if (!Array.isArray(list) || list.length === 0) continue;
    const chain = [item, ...(items.holders?.[i] ?? [])];
    values ??= [];
    holders ??= [];
    for (let j = 0; j < list.length; j++) {
      values.push(list[j]);
      holders.push(chain);
    }
  }
  return values === undefined ? undefined : itemsOf(values, holders);
}

/**
 * How many renders of a node inside `levels` certainly look `name` up in the forecast's context (1 outside sections).
 */
function freeRuns(levels: readonly Level[], name: string): number {
  let runs = 1;
  for (let i = 0; i < levels.length && runs > 0; i++) {
    const level = levels[i] as Level;
    runs *= countFree(level.items, level.below.length === 0 ? [name] : [...level.below, name]);
  }
  return runs;
}

/** Levels for a body below a section over `name`: that name now decides the path below every open level. */
function deeper(levels: readonly Level[], name: string, items: Items | undefined): Level[] {
  const next = levels.map((l) => ({ items: l.items, below: [...l.below, name] }));
  if (items !== undefined) next.push({ items, below: [] });
  return next;
}

/**
 * The least text a placeholder writes for `value` (see valueText): strings' length, a joined list's separators, JSON's
 * punctuation.
 */
function leastText(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return 1;
  if (typeof value !== 'object' || value === null || value instanceof Date) return 0;
  if (Array.isArray(value)) return Math.max(0, 2 * value.length - 2);
  let n = 0;
  for (const key of Object.keys(value)) {
    const item: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
    if (item !== undefined && typeof item !== 'function' && typeof item !== 'symbol') n += key.length + 4;
  }
  return n;
}

/** The containers (one step each) a placeholder writes `value` through: a list's items, an object's keys. */
function leastPieces(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

class Forecast {
  readonly tally: Tally = { steps: 0, repeats: 0, units: 0 };

  constructor(
    private readonly stack: readonly unknown[],
    /** The innermost context the forecast starts from: lookups read `stack[0..base]`. */
    private readonly base: number,
    private readonly resources: ReadonlyMap<string, string> | undefined,
    private readonly budget: RenderBudget,
  ) {}

  /** Throws LIMIT_EXCEEDED when the bound so far is over what is left of the budget. */
  check(): void {
    const { tally, budget } = this;
    if (tally.units > budget.units) throw tooManyBytes(budget.maxBytes);
    if (tally.repeats > budget.repeats) throw tooManyRepeats(budget.maxBytes);
    if (tally.steps > budget.steps) throw tooManySteps(budget.maxSteps);
  }

  /** Adds `runs` renders of `nodes` at `depth` (below `levels`) to the bound. */
  body(nodes: readonly TemplateNode[], depth: number, levels: readonly Level[], runs: number): void {
    const tally = this.tally;
    tally.steps += runs * nodes.length * (depth + 1);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as TemplateNode;
      if (typeof node === 'string') {
        tally.units += runs * node.length;
      } else if (node.kind === DIRECTIVE) {
        tally.units += runs * (this.resources?.get(node.key)?.length ?? 0);
      } else if (node.key !== '.') {
        this.tag(node, depth, levels);
      }
    }
    this.check();
  }

  /** A section over the lists the innermost level's items own: each pairs with the rest of the levels as they are. */
  private owned(node: TagNode, depth: number, levels: readonly Level[]): void {
    const lists = ownedLists(levels[levels.length - 1] as Level, node.key);
    if (lists === undefined) return;
    const outer = levels.slice(0, -1);
    const runs = freeRunsOf(outer) * lists.values.length;
    if (runs === 0) return;
    this.tally.repeats += runs;
    this.tally.steps += runs;
    this.body(node.children as readonly TemplateNode[], depth + 1, [...outer, { items: lists, below: [] }], runs);
  }

  private tag(node: TagNode, depth: number, levels: readonly Level[]): void {
    if (node.kind === SECTION && node.rest === null && levels.length > 0) this.owned(node, depth, levels);
    const runs = freeRuns(levels, node.key);
    if (runs === 0) return;
    const value = lookupName(this.stack, this.base, node.key, node.rest);
    if (node.kind === VARIABLE) {
      this.tally.units += runs * leastText(value);
      this.tally.steps += runs * leastPieces(value);
      return;
    }
    const children = node.children as readonly TemplateNode[];
    if (node.kind === INVERTED) {
      if (!value || (Array.isArray(value) && value.length === 0))
        this.body(children, depth, deeper(levels, node.key, undefined), runs);
      return;
    }
    if (node.kind !== SECTION || !value) return;
    if (Array.isArray(value)) {
      if (value.length === 0) return;
      this.tally.repeats += runs * value.length;
      this.tally.steps += runs * value.length;
      this.body(children, depth + 1, deeper(levels, node.key, itemsOf(value)), runs * value.length);
    } else if (typeof value === 'object' || typeof value === 'string' || typeof value === 'number') {
      this.body(children, depth + 1, deeper(levels, node.key, itemsOf([value])), runs);
    } else if (typeof value !== 'function') {
      this.body(children, depth, deeper(levels, node.key, undefined), runs);
    }
  }
}

/** How many tuples of the levels' items are on the path (each owning none of the names below it). */
function freeRunsOf(levels: readonly Level[]): number {
  let runs = 1;
  for (let i = 0; i < levels.length && runs > 0; i++)
    runs *= countFree((levels[i] as Level).items, (levels[i] as Level).below);
  return runs;
}

/**
 * Refuses (LIMIT_EXCEEDED) a render of `nodes` at `depth` whose certain work is over what is left of `budget`,
 * before any of it is done.
 */
export function forecastRender(
  nodes: readonly TemplateNode[],
  stack: readonly unknown[],
  depth: number,
  resources: ReadonlyMap<string, string> | undefined,
  budget: RenderBudget,
): void {
  new Forecast(stack, depth, resources, budget).body(nodes, depth, [], 1);
}

/**
 * Refuses (LIMIT_EXCEEDED) a section over `items` starting at `depth` whose repetitions certainly take more than
 * what is left of `budget` (its body, times every nested section over a list known now), before the first one.
 */
export function forecastSection(
  children: readonly TemplateNode[],
  items: readonly unknown[],
  stack: readonly unknown[],
  depth: number,
  resources: ReadonlyMap<string, string> | undefined,
  budget: RenderBudget,
): void {
  const forecast = new Forecast(stack, depth, resources, budget);
  forecast.tally.repeats += items.length;
  forecast.tally.steps += items.length;
  forecast.body(children, depth + 1, [{ items: itemsOf(items), below: [] }], items.length);
}
