/**
 * The store's writes as statements on one client inside a transaction: a store method runs one of them in a
 * transaction of its own, and `store.transaction` runs several in one.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../../definition/types.js';
import { PromptError } from '../../errors.js';
import { definitionValues } from './rows.js';
import { CONTENT_COLUMNS } from './schema.js';
import type { TableNames } from './schema.js';
import type { PgQueryable } from './types.js';

/** How many times `setLabel` reads a label again that other writers keep creating and deleting under it. */
const MAX_LABEL_ATTEMPTS = 10;

const COLUMNS = CONTENT_COLUMNS.map((c) => c.column);
const ACTOR = `coalesce(nullif(current_setting('mcp_prompt_kit.actor', true), ''), current_user)`;

/** @internal Who acts and which labels a new version moves, for the triggers (until the transaction ends). */
export async function setWriteSettings(
  client: PgQueryable,
  settings: { actor?: string | undefined; labels?: string },
): Promise<void> {
  await client.query(
    `SELECT set_config('mcp_prompt_kit.actor', $1, true), set_config('mcp_prompt_kit.labels', $2, true)`,
    [settings.actor ?? '', settings.labels ?? ''],
  );
}

/** @internal The trigger setting for the labels a put moves (`-`: none). */
export function labelSetting(labels: readonly string[]): string {
  return labels.length === 0 ? '-' : labels.join(',');
}

/** @internal Writes a checked definition to the prompt table; returns the version it has (new only if it changed). */
export async function writePrompt(
  client: PgQueryable,
  n: TableNames,
  checked: TemplatePromptDefinition,
): Promise<number> {
  const placeholders = CONTENT_COLUMNS.map((c, i) => `$${i + 2}${c.type === 'jsonb' ? '::jsonb' : ''}`).join(', ');
  const { rows } = await client.query(
    `INSERT INTO ${n.prompts} (name, ${COLUMNS.join(', ')}) VALUES ($1, ${placeholders})
     ON CONFLICT (name) DO UPDATE SET ${COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')} RETURNING version`,
    [checked.name, ...definitionValues(checked)],
  );
  return Number(rows[0]!['version']);
}

/**
 * @internal Points a label at an existing version; returns the version it pointed to just before (null: none). Exact
 * under concurrent moves: either the row exists and is locked before it is read, or this INSERT creates it (no one had
 * it: null); a label another writer creates in between is read again once it has committed.
 */
export async function moveLabel(
  client: PgQueryable,
  n: TableNames,
  name: string,
  label: string,
  version: number,
): Promise<number | null> {
  const exists = await client.query(
    `SELECT 1 FROM ${n.versions} v JOIN ${n.prompts} p ON p.name = v.name WHERE v.name = $1 AND v.version = $2`,
    [name, version],
  );
  if (exists.rows.length === 0)
    throw new PromptError('PROMPT_NOT_FOUND', `Unknown prompt version: ${name} version ${version}`);
  for (let attempt = 1; ; attempt++) {
    const before = await client.query(`SELECT version FROM ${n.labels} WHERE name = $1 AND label = $2 FOR UPDATE`, [
      name,
      label,
    ]);
    const previous = before.rows[0]?.['version'];
    if (previous !== undefined) {
      await client.query(
        `UPDATE ${n.labels} SET version = $3, updated_at = now(), updated_by = ${ACTOR} WHERE name = $1 AND label = $2`,
        [name, label, version],
      );
      return Number(previous);
    }
    const created = await client.query(
      `INSERT INTO ${n.labels} (name, label, version, updated_by) VALUES ($1, $2, $3, ${ACTOR}) ON CONFLICT (name, label) DO NOTHING RETURNING version`,
      [name, label, version],
    );
    if (created.rows.length > 0) return null;
    if (attempt === MAX_LABEL_ATTEMPTS)
      throw new Error(`label ${label} kept changing under concurrent writers (${attempt} attempts)`);
  }
}

/** @internal Removes a label from a prompt (its versions and history stay); returns whether it existed. */
export async function removeLabel(client: PgQueryable, n: TableNames, name: string, label: string): Promise<boolean> {
  const { rowCount } = await client.query(`DELETE FROM ${n.labels} WHERE name = $1 AND label = $2`, [name, label]);
  return (rowCount ?? 0) > 0;
}
