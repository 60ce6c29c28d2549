/**
 * The prompts/list entry of a definition, and the one reading of its `inputSchema.properties`.
 *
 * @module
 * @internal
 */
import type { PromptDefinition } from './types.js';
import { isRecord } from '../json.js';
import { wellFormed } from '../encoding.js';
import type { Icon, Prompt, PromptArgument } from '../types.js';

const NO_PROPERTIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** The `properties` of a definition's inputSchema (empty when there is none). */
export function schemaProperties(def: PromptDefinition): Readonly<Record<string, unknown>> {
  const props = def.inputSchema?.['properties'];
  return isRecord(props) ? props : NO_PROPERTIES;
}

/** The frozen listed arguments of a definition (undefined when it lists none); see {@link promptListing}. */
export function listedArguments(def: PromptDefinition): readonly PromptArgument[] | undefined {
  const listed = listArguments(def);
  if (listed.length === 0) return undefined;
  for (const a of listed) Object.freeze(a);
  return Object.freeze(listed);
}

/** The frozen prompts/list entry of a definition, given its {@link listedArguments} and its compiled `_meta`. */
export function promptListing(
  def: PromptDefinition,
  listed: readonly PromptArgument[] | undefined,
  meta: Record<string, unknown> | undefined,
): Prompt {
  // Frozen, though the wire type says mutable.
  const args = listed as PromptArgument[] | undefined;
  const name = def.name;
  const description = def.description === undefined ? undefined : wellFormed(def.description);
  let listing: Prompt;
  if (def.title === undefined && def.icons === undefined && meta === undefined) {
    // One literal per common shape: every property stays in-object (10,000 listings, no property backing stores).
    if (description === undefined) listing = args === undefined ? { name } : { name, arguments: args };
    else listing = args === undefined ? { name, description } : { name, description, arguments: args };
  } else {
    listing = { name };
    if (def.title !== undefined) listing.title = wellFormed(def.title);
    if (description !== undefined) listing.description = description;
    if (args !== undefined) listing.arguments = args;
    if (def.icons !== undefined) listing.icons = def.icons.map(wellFormedIcon);
    if (meta !== undefined) listing._meta = meta;
  }
  Object.freeze(listing.icons);
  return Object.freeze(listing);
}

/** The listed arguments: an inputSchema's properties, then `arguments`-only ones as optional. */
function listArguments(def: PromptDefinition): PromptArgument[] {
  const declared = def.arguments ?? [];
  const schema = def.inputSchema;
  if (schema === undefined) {
    return declared.map((a) => listed(a.name, a.title, a.description, a.required === true));
  }
  const properties = schemaProperties(def);
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  const out = Object.keys(properties).map((name) => {
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

function listed(
  name: string,
  rawTitle: string | undefined,
  rawDescription: string | undefined,
  required: boolean,
): PromptArgument {
  const title = rawTitle === undefined ? undefined : wellFormed(rawTitle);
  const description = rawDescription === undefined ? undefined : wellFormed(rawDescription);
  if (title === undefined) return description === undefined ? { name, required } : { name, description, required };
  return description === undefined ? { name, title, required } : { name, title, description, required };
}

function wellFormedIcon(icon: Icon): Icon {
  const copy: Icon = { ...icon, src: wellFormed(icon.src) };
  if (icon.mimeType !== undefined) copy.mimeType = wellFormed(icon.mimeType);
  if (icon.sizes !== undefined) copy.sizes = icon.sizes.map(wellFormed);
  return Object.freeze(copy);
}
