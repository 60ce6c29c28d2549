/**
 * What differs between a prompt directory and what a label serves: per prompt added, changed (with a short per-field
 * summary) or unchanged, and what the label has that the directory does not. Pure: no I/O.
 */
import type { TemplatePromptDefinition } from '../definition/types.js';
import { isRecord, jsonEqual } from '../json.js';
import type { StoredPrompt } from '../stores/contract.js';
import { CONTENT_COLUMNS } from '../stores/postgres/schema.js';

/** The fields a store keeps, in the order reports and pulled files list them. */
export const STORED_FIELDS: readonly string[] = ['name', ...CONTENT_COLUMNS.map((c) => c.key)];

/** A definition with only the fields a store keeps, in {@link STORED_FIELDS} order. */
export function storedFields(definition: TemplatePromptDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of STORED_FIELDS) {
    if (Object.hasOwn(definition, key) && (definition as unknown as Record<string, unknown>)[key] !== undefined)
      out[key] = (definition as unknown as Record<string, unknown>)[key];
  }
  return out;
}

/** Whether two definitions store the same content. */
export function sameContent(a: TemplatePromptDefinition, b: TemplatePromptDefinition): boolean {
  return jsonEqual(storedFields(a), storedFields(b));
}

/** A prompt of the directory, compared with the label. */
export type PlannedPrompt =
  | { name: string; status: 'unchanged'; version: number }
  | {
      name: string;
      status: 'added' | 'changed';
      /** The version the label points at now (null: none, or an invalid one). */
      from: number | null;
      /** `put`: a new version; `label`: the label moves to an existing version with this content. */
      action: { kind: 'put' } | { kind: 'label'; version: number };
      fields: string[];
      definition: TemplatePromptDefinition;
    };

/** A prompt the label serves that the directory does not define. */
export interface StoreOnlyPrompt {
  name: string;
  /** null: the label points at a version that cannot be served. */
  version: number | null;
  invalid?: string;
}

/** The whole comparison. */
export interface PushPlan {
  prompts: PlannedPrompt[];
  storeOnly: StoreOnlyPrompt[];
}

/** What a label serves, and the newest version of every prompt. */
export interface StoreState {
  labelled: readonly StoredPrompt[];
  /** Prompts whose labelled version cannot be served: name -> reason. */
  invalid: ReadonlyMap<string, string>;
  latest: readonly StoredPrompt[];
}

/** Compares the directory's definitions with the store: what a push writes, and what only the store has. */
export function planPush(definitions: readonly TemplatePromptDefinition[], state: StoreState): PushPlan {
  const labelled = new Map(state.labelled.map((p) => [p.name, p]));
  const latest = new Map(state.latest.map((p) => [p.name, p]));
  const names = new Set<string>();
  const prompts: PlannedPrompt[] = [];
  for (const definition of [...definitions].sort((a, b) => compare(a.name, b.name))) {
    names.add(definition.name);
    const current = labelled.get(definition.name);
    if (current !== undefined && sameContent(current.definition, definition)) {
      prompts.push({ name: definition.name, status: 'unchanged', version: current.version });
      continue;
    }
    const newest = latest.get(definition.name);
    const invalid = state.invalid.get(definition.name);
    const fields =
      current !== undefined
        ? describeChanges(current.definition, definition)
        : invalid !== undefined
          ? [`the version the label points at is invalid (${invalid})`]
          : [];
    prompts.push({
      name: definition.name,
      status: current === undefined && invalid === undefined ? 'added' : 'changed',
      from: current?.version ?? null,
      action:
        newest !== undefined && sameContent(newest.definition, definition)
          ? { kind: 'label', version: newest.version }
          : { kind: 'put' },
      fields,
      definition,
    });
  }
  const storeOnly: StoreOnlyPrompt[] = [];
  for (const p of state.labelled) if (!names.has(p.name)) storeOnly.push({ name: p.name, version: p.version });
  for (const [name, reason] of state.invalid)
    if (!names.has(name)) storeOnly.push({ name, version: null, invalid: reason });
  storeOnly.sort((a, b) => compare(a.name, b.name));
  return { prompts, storeOnly };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** At most this many items are named per field; the rest are counted. */
const MAX_NAMED = 3;

function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

/** A short summary per field that differs: `description changed`, `messages: 2 -> 3`, `arguments: +lang -code`. */
export function describeChanges(before: TemplatePromptDefinition, after: TemplatePromptDefinition): string[] {
  const a = storedFields(before);
  const b = storedFields(after);
  const out: string[] = [];
  for (const key of STORED_FIELDS) {
    const x = a[key];
    const y = b[key];
    if (jsonEqual(x, y)) continue;
    if (x === undefined) out.push(`${key} added`);
    else if (y === undefined) out.push(`${key} removed`);
    else if (key === 'messages' && Array.isArray(x) && Array.isArray(y)) out.push(describeMessages(x, y));
    else if (key === 'arguments' && Array.isArray(x) && Array.isArray(y)) out.push(describeArguments(x, y));
    else out.push(`${key} changed`);
  }
  return out;
}

function describeMessages(x: readonly unknown[], y: readonly unknown[]): string {
  const changed: string[] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (!jsonEqual(x[i], y[i])) changed.push(`#${i + 1}`);
  const parts: string[] = [];
  if (x.length !== y.length) parts.push(`${x.length} -> ${y.length}`);
  if (changed.length > 0) parts.push(`${named(changed)} changed`);
  return `messages: ${parts.join(', ')}`;
}

function argumentName(arg: unknown, i: number): string {
  return isRecord(arg) && typeof arg['name'] === 'string' ? arg['name'] : `#${i + 1}`;
}

function describeArguments(x: readonly unknown[], y: readonly unknown[]): string {
  const before = new Map(x.map((arg, i) => [argumentName(arg, i), arg]));
  const after = new Map(y.map((arg, i) => [argumentName(arg, i), arg]));
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && !jsonEqual(before.get(k), after.get(k)));
  const parts = [
    ...(added.length > 0 ? [`+${named(added)}`] : []),
    ...(removed.length > 0 ? [`-${named(removed)}`] : []),
    ...(changed.length > 0 ? [`~${named(changed)}`] : []),
  ];
  // Same arguments, other order.
  return `arguments: ${parts.length > 0 ? parts.join(' ') : 'reordered'}`;
}
