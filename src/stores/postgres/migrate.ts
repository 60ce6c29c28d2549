/**
 * `migrate()`: creates or upgrades a prompt table in one transaction, converting legacy rows.
 *
 * @module
 */
import { normalizeLegacyPrompt } from '../../definition/legacy.js';
import type { SystemRolePolicy } from '../../definition/types.js';
import { isPromptError } from '../../errors.js';
import type { PgClient } from './types.js';
import type { TableNames } from './schema.js';
import { CONTENT_COLUMNS, DEFAULT_LABEL, companionTables, rolesValidFunction, triggerStatements } from './schema.js';
import { storableDefinition } from '../definition.js';
import { definitionValues } from './rows.js';

/** Options of `migrate()`. */
export interface MigrateOptions {
  /** Legacy `role: "system"` rows: left unconverted and reported (default `'reject'`), or converted to `user`. */
  systemRole?: SystemRolePolicy;
}

/** What `migrate()` changed. An empty report (nothing created, added, converted) means the table was up to date. */
export interface MigrationReport {
  /** The prompt table did not exist and was created. */
  createdTable: boolean;
  /** Columns added to an existing table. */
  addedColumns: string[];
  /** Legacy rows (a `content` string and a `role`) converted to messages. */
  converted: { name: string; messages: number }[];
  /** Rows that could not be converted (left as they are, never served) and why. */
  unconverted: { name: string; reason: string }[];
  /** Existing rows recorded as their first version (and labelled `production`). */
  versionedRows: number;
  /** The role CHECK constraint was added by this run. */
  addedConstraint: boolean;
  /** Whether every existing row satisfies the role constraint (else it only guards new writes: NOT VALID). */
  constraintValidated: boolean;
  /** Legacy columns dropped once every row was converted. */
  droppedColumns: string[];
}

const LEGACY_COLUMNS = ['content', 'role'] as const;

async function columnsOf(client: PgClient, n: TableNames): Promise<Set<string>> {
  const { rows } = await client.query(
    `SELECT a.attname AS name FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`,
    [n.prompts],
  );
  return new Set(rows.map((r) => String(r['name'])));
}

async function hasConstraint(client: PgClient, n: TableNames): Promise<{ exists: boolean; validated: boolean }> {
  const { rows } = await client.query(
    `SELECT convalidated FROM pg_constraint WHERE conrelid = to_regclass($1) AND conname = $2`,
    [n.prompts, n.roleCheckName],
  );
  return rows.length === 0 ? { exists: false, validated: false } : { exists: true, validated: rows[0]!['convalidated'] === true };
}

/** Runs the migration on `client`, inside the transaction the caller opened (and rolls back on any failure). */
export async function runMigration(client: PgClient, n: TableNames, options: MigrateOptions): Promise<MigrationReport> {
  const report: MigrationReport = {
    createdTable: false,
    addedColumns: [],
    converted: [],
    unconverted: [],
    versionedRows: 0,
    addedConstraint: false,
    constraintValidated: false,
    droppedColumns: [],
  };
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [n.lockKey]);
  // CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists: only run it when needed.
  const schema = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [n.schema]);
  if (schema.rows.length === 0) await client.query(`CREATE SCHEMA "${n.schema}"`);
  let columns = await columnsOf(client, n);
  if (columns.size === 0) {
    const content = CONTENT_COLUMNS.map((c) => `${c.column} ${c.type}`).join(', ');
    await client.query(`CREATE TABLE ${n.prompts} (name text PRIMARY KEY, ${content}, version integer NOT NULL DEFAULT 1,
      updated_at timestamptz NOT NULL DEFAULT now(), updated_by text NOT NULL DEFAULT current_user)`);
    report.createdTable = true;
  } else {
    for (const [column, type] of [
      ...CONTENT_COLUMNS.map((c) => [c.column, c.type] as const),
      ['version', 'integer NOT NULL DEFAULT 1'],
      ['updated_at', 'timestamptz NOT NULL DEFAULT now()'],
      ['updated_by', 'text NOT NULL DEFAULT current_user'],
    ] as const) {
      if (columns.has(column)) continue;
      await client.query(`ALTER TABLE ${n.prompts} ADD COLUMN ${column} ${type}`);
      report.addedColumns.push(column);
    }
    // New rows written by the store carry messages, not the legacy columns.
    for (const legacy of LEGACY_COLUMNS) {
      if (columns.has(legacy)) await client.query(`ALTER TABLE ${n.prompts} ALTER COLUMN ${legacy} DROP NOT NULL`);
    }
  }
  columns = await columnsOf(client, n);
  // A legacy table may key its rows by something else: the store needs names to be unique.
  if (!report.createdTable) await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${n.nameIndex} ON ${n.prompts} (name)`);
  for (const statement of companionTables(n)) await client.query(statement);
  await client.query(rolesValidFunction(n));
  for (const statement of triggerStatements(n)) await client.query(statement);

  // Rows written before the store managed the table become their first version, labelled production.
  const content = CONTENT_COLUMNS.map((c) => c.column).join(', ');
  const versioned = await client.query(
    `WITH added AS (
       INSERT INTO ${n.versions} (name, version, ${content}, created_at)
       SELECT p.name, p.version, ${CONTENT_COLUMNS.map((c) => `p.${c.column}`).join(', ')}, p.updated_at FROM ${n.prompts} p
       WHERE p.messages IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${n.versions} v WHERE v.name = p.name)
       RETURNING name, version),
     labelled AS (INSERT INTO ${n.labels} (name, label, version) SELECT name, $1, version FROM added ON CONFLICT DO NOTHING)
     SELECT count(*)::int AS count FROM added`,
    [DEFAULT_LABEL],
  );
  report.versionedRows = Number(versioned.rows[0]!['count']);

  if (columns.has('content')) await convertLegacyRows(client, n, columns, options, report);

  const constraint = await hasConstraint(client, n);
  if (!constraint.exists) {
    await client.query(`ALTER TABLE ${n.prompts} ADD CONSTRAINT ${n.roleCheck} CHECK (${n.rolesValid}(messages)) NOT VALID`);
    report.addedConstraint = true;
  }
  report.constraintValidated = constraint.validated;
  if (!constraint.validated) {
    await client.query('SAVEPOINT validate_roles');
    try {
      await client.query(`ALTER TABLE ${n.prompts} VALIDATE CONSTRAINT ${n.roleCheck}`);
      report.constraintValidated = true;
    } catch {
      // Some rows break the rule (reported as unconverted): the constraint guards new writes only.
      await client.query('ROLLBACK TO SAVEPOINT validate_roles');
    }
  }

  const legacyLeft = LEGACY_COLUMNS.filter((c) => columns.has(c));
  if (legacyLeft.length > 0 && report.unconverted.length === 0) {
    const { rows } = await client.query(`SELECT count(*)::int AS left FROM ${n.prompts} WHERE messages IS NULL`);
    if (rows[0]!['left'] === 0) {
      for (const column of legacyLeft) await client.query(`ALTER TABLE ${n.prompts} DROP COLUMN ${column}`);
      report.droppedColumns.push(...legacyLeft);
    }
  }
  return report;
}

/** Converts every row that still has only the legacy `content` (and `role`) into messages, in place. */
async function convertLegacyRows(
  client: PgClient,
  n: TableNames,
  columns: Set<string>,
  options: MigrateOptions,
  report: MigrationReport,
): Promise<void> {
  const role = columns.has('role') ? 'role' : 'NULL AS role';
  const { rows } = await client.query(
    `SELECT name, title, description, content, ${role} FROM ${n.prompts} WHERE messages IS NULL ORDER BY name`,
  );
  const systemRole = options.systemRole ?? 'reject';
  for (const row of rows) {
    const name = String(row['name']);
    const record: Record<string, unknown> = { name, content: row['content'], role: row['role'] };
    if (row['title'] !== null) record['title'] = row['title'];
    if (row['description'] !== null) record['description'] = row['description'];
    try {
      const definition = storableDefinition(normalizeLegacyPrompt(record, { systemRole, source: `${n.display}:${name}` }));
      const values = definitionValues(definition);
      const sets = CONTENT_COLUMNS.map((c, i) => `${c.column} = $${i + 2}${c.type === 'jsonb' ? '::jsonb' : ''}`).join(', ');
      await client.query(`UPDATE ${n.prompts} SET ${sets} WHERE name = $1`, [name, ...values]);
      report.converted.push({ name, messages: definition.messages.length });
    } catch (error) {
      if (!isPromptError(error)) throw error;
      report.unconverted.push({ name, reason: error.message });
    }
  }
}
