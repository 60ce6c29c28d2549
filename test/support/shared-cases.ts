/**
 * The shared case tables (argument validation and render rules) turned into end-to-end checks that every adapter
 * runs through its own transport: each row becomes a registry with one prompt, a prompts/get call, and the exact
 * outcome a client must see (the rendered text, or the JSON-RPC error object).
 */
import { PromptRegistry } from '../../src/registry/registry.js';
import { createMemoryResourceResolver } from '../../src/render/index.js';
import type { ArgumentType, PromptArgumentDefinition } from '../../src/definition/types.js';
import { argumentCases } from '../arguments/cases.js';
import type { ArgumentCase } from '../arguments/cases.js';
import { renderCases } from '../render/cases.js';

/** What a client saw for one prompts/get: the first message's text, or the error object. */
export type WireOutcome = { text: string } | { error: { code: number; message: string; data?: unknown } };

/** One end-to-end row: a registry, the prompts/get params, and the outcome a client must see. */
export interface SharedCase {
  title: string;
  registry: PromptRegistry;
  name: string;
  /** The arguments object as sent (typed JSON); `wire` rows hold only strings. */
  arguments: Record<string, unknown> | undefined;
  /** True when `arguments` is what the MCP wire can carry (strings only). */
  wire: boolean;
  expected: WireOutcome;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

function argumentRow(c: ArgumentCase): SharedCase {
  const registry = new PromptRegistry({
    ...(c.options?.maxLength === undefined ? {} : { maxArgumentLength: c.options.maxLength }),
    ...(c.options?.extraArguments === undefined ? {} : { extraArguments: c.options.extraArguments }),
  });
  registry.add({
    name: 'case',
    ...(c.arguments === undefined ? {} : { arguments: c.arguments }),
    ...(c.inputSchema === undefined ? {} : { inputSchema: c.inputSchema }),
    render: (args) => sortedJson(args),
  });
  return {
    title: `arguments: ${c.title}`,
    registry,
    name: 'case',
    arguments: c.provided as Record<string, unknown> | undefined,
    wire: c.wire,
    expected: c.expected.ok ? { text: sortedJson(c.expected.arguments) } : { error: c.expected.error },
  };
}

function typeOf(value: unknown): ArgumentType | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return undefined;
}

/** The wire form of a typed value: strings as they are, everything else as JSON text (coerced back by type). */
function toWire(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function renderRow(c: (typeof renderCases)[number]): SharedCase {
  const registry = new PromptRegistry({
    undeclaredPlaceholders: 'warn',
    ...(c.resources === undefined ? {} : { resources: createMemoryResourceResolver(c.resources) }),
    ...(c.partials === undefined ? {} : { partials: c.partials }),
  });
  const declared: PromptArgumentDefinition[] = [];
  const sent: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(c.args)) {
    if (value === null || value === undefined) continue;
    const type = typeOf(value);
    declared.push(type === undefined ? { name } : { name, type });
    sent[name] = toWire(value);
  }
  registry.add({ name: 'case', arguments: declared, messages: [{ role: 'user', content: c.template }] });
  return {
    title: `render: ${c.name}`,
    registry,
    name: 'case',
    arguments: sent,
    wire: true,
    expected: { text: c.expected },
  };
}

/** Every shared row, built fresh (each with its own registry). */
export function sharedCases(): SharedCase[] {
  return [...argumentCases.map(argumentRow), ...renderCases.map(renderRow)];
}
