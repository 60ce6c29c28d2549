/**
 * The prompts/list entry of a definition, and the one reading of its `inputSchema.properties`.
 *
 * @module
 * @internal
 */
import type { PromptDefinition } from './definition/types.js';
import { isRecord } from './json.js';
import type { Prompt, PromptArgument } from './types.js';

const NO_PROPERTIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** The `properties` of a definition's inputSchema (empty when there is none). */
export function schemaProperties(def: PromptDefinition): Readonly<Record<string, unknown>> {
  const props = def.inputSchema?.['properties'];
  return isRecord(props) ? props : NO_PROPERTIES;
}

/** The frozen prompts/list entry of a definition. */
export function promptListing(def: PromptDefinition): Prompt {
  const listing: Prompt = { name: def.name };
  if (def.title !== undefined) listing.title = def.title;
  if (def.description !== undefined) listing.description = def.description;
  const args = listArguments(def);
  if (args.length > 0) listing.arguments = args;
  if (def.icons !== undefined) listing.icons = def.icons.map((icon) => Object.freeze({ ...icon }));
  if (def._meta !== undefined) listing._meta = def._meta;
  if (listing.arguments) for (const a of listing.arguments) Object.freeze(a);
  Object.freeze(listing.arguments);
  Object.freeze(listing.icons);
  return Object.freeze(listing);
}

/** The listed arguments: an inputSchema's properties (then names it requires), then `arguments`-only ones as optional. */
function listArguments(def: PromptDefinition): PromptArgument[] {
  const declared = def.arguments ?? [];
  const schema = def.inputSchema;
  if (schema === undefined) {
    return declared.map((a) => listed(a.name, a.title, a.description, a.required === true));
  }
  const properties = schemaProperties(def);
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  const names = Object.keys(properties);
  for (const name of required) if (typeof name === 'string' && !names.includes(name)) names.push(name);
  const out = names.map((name) => {
    const a = declared.find((d) => d.name === name);
    const p = properties[name];
    const meta = isRecord(p) ? p : {};
    const title = a?.title ?? (typeof meta['title'] === 'string' ? meta['title'] : undefined);
    const description = a?.description ?? (typeof meta['description'] === 'string' ? meta['description'] : undefined);
    return listed(name, title, description, required.includes(name));
  });
  for (const a of declared) {
    if (!Object.hasOwn(properties, a.name)) out.push(listed(a.name, a.title, a.description, false));
  }
  return out;
}

function listed(name: string, title: string | undefined, description: string | undefined, required: boolean): PromptArgument {
  const out: PromptArgument = { name };
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  out.required = required;
  return out;
}
