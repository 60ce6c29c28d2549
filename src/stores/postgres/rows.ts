/**
 * Rows <-> definitions: what the store writes for a definition, and whether a row read back can be served.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../../definition/types.js';
import { isPromptError } from '../../errors.js';
import type { StoredPrompt } from '../contract.js';
import { storableDefinition } from '../definition.js';
import { CONTENT_COLUMNS } from './schema.js';

/** The query parameters of a definition's content columns, in {@link CONTENT_COLUMNS} order (jsonb as JSON text). */
export function definitionValues(definition: TemplatePromptDefinition): (string | null)[] {
  const record = definition as unknown as Record<string, unknown>;
  return CONTENT_COLUMNS.map((c) => {
    const value = Object.hasOwn(record, c.key) ? record[c.key] : undefined;
    if (value === undefined) return null;
    return c.type === 'jsonb' ? JSON.stringify(value) : String(value);
  });
}

/** A row read back: a servable prompt, or the reason it cannot be served. */
export type RowReading =
  | { ok: true; entry: StoredPrompt }
  | { ok: false; name: string; version: number | null; reason: string };

/** Checks a row (`name`, `version` and the content columns) against the definition rules. */
export function readRow(row: Record<string, unknown>): RowReading {
  const name = String(row['name']);
  const version = typeof row['version'] === 'number' ? row['version'] : null;
  if (row['messages'] === null || row['messages'] === undefined) {
    return { ok: false, name, version, reason: 'no messages (a legacy row not converted yet: run migrate())' };
  }
  const record: Record<string, unknown> = { name };
  for (const c of CONTENT_COLUMNS) {
    const value = row[c.column];
    if (value !== null && value !== undefined) record[c.key] = value;
  }
  try {
    const definition = storableDefinition(record);
    return { ok: true, entry: { name, version: version ?? 1, definition } };
  } catch (error) {
    if (!isPromptError(error)) throw error;
    return { ok: false, name, version, reason: error.message };
  }
}
