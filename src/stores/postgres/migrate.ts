/**
 * `migrate()`: brings a prompt table up to date, running only the DDL that is missing.
 *
 * Locking, so that replicas starting together never deadlock, with each other or with anyone's reads:
 * - `planMigration` reads the catalogs and, once the tables exist, the rows (ACCESS SHARE, what every read takes): on
 *   an up-to-date table that is all `migrate()` does, with no DDL and no wait for another replica's migration.
 * - Otherwise the migration runs in its own transaction whose first lock is the table's advisory lock, so migrations
 *   take turns; the one that gets it plans again (another may have just done the work) and then, before any DDL, locks
 *   every existing table at once in the order writers reach them (prompts, versions, labels, history), each in the
 *   strongest mode it will need: ACCESS EXCLUSIVE on the prompt table when it alters it, SHARE ROW EXCLUSIVE
 *   otherwise. From then on it never waits for a lock again, so it cannot close a cycle.
 * - A read (one SELECT, ACCESS SHARE) conflicts only with ACCESS EXCLUSIVE, which a migration takes on the prompt table
 *   alone, as its first table lock: a read waits at most for that one lock while holding nothing the migration still
 *   needs, so it can never be a deadlock victim (40P01) and needs no retry; a single SELECT under READ COMMITTED (the
 *   default) never fails serialization (40001) either.
 * - The store's writers reach the tables in the same order; an earlier table they touch afterwards is only read (a
 *   foreign-key check), which SHARE ROW EXCLUSIVE lets through, and none touches the prompt table after a later one.
 *   So a writer the migration waits for never waits for the migration.
 *
 * @module
 */
import { normalizeLegacyPrompt } from '../../definition/legacy.js';
import type { SystemRolePolicy } from '../../definition/types.js';
import { isPromptError } from '../../errors.js';
import type { PgClient } from './types.js';
import type { Routine, TableNames } from './schema.js';
import {
  CONTENT_COLUMNS,
  DEFAULT_LABEL,
  companionTables,
  historyIndexStatement,
  routineComment,
  routines,
} from './schema.js';
import type { SchemaState } from './inspect.js';
import { hasUnversionedRows, inspectRoutines, inspectSchema } from './inspect.js';
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
  /** Tables, indexes, functions and triggers created, or replaced because theirs was an older definition. */
  createdObjects: string[];
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

/** The prompt table's columns besides `name`, with their types. */
const PROMPT_COLUMNS: readonly (readonly [string, string])[] = [
  ...CONTENT_COLUMNS.map((c) => [c.column, c.type] as const),
  ['version', 'integer NOT NULL DEFAULT 1'],
  ['updated_at', 'timestamptz NOT NULL DEFAULT now()'],
  ['updated_by', 'text NOT NULL DEFAULT current_user'],
];

/** What a migration has to do, worked out from the catalogs. */
export interface MigrationPlan {
  state: SchemaState;
  /** The prompt table exists (else it is created). */
  tableExists: boolean;
  addColumns: (readonly [string, string])[];
  /** Legacy columns present: their rows are converted, and the columns dropped once none is left. */
  legacy: string[];
  /** Legacy columns that are still NOT NULL. */
  dropNotNull: string[];
  nameIndex: boolean;
  tables: { name: string; statement: string }[];
  historyIndex: boolean;
  /** Routines missing or not as the store defines them. */
  routines: Routine[];
  /** Some rows have no version yet (only looked at when nothing else is to do: the migration records them anyway). */
  unversioned: boolean;
}

/** The report of a migration that found nothing to do. */
export function upToDateReport(): MigrationReport {
  return {
    createdTable: false,
    addedColumns: [],
    createdObjects: [],
    converted: [],
    unconverted: [],
    versionedRows: 0,
    addedConstraint: false,
    constraintValidated: true,
    droppedColumns: [],
  };
}

/**
 * Works out what `n` lacks; undefined when nothing (the table is up to date). Runs a catalog query, and a read of the
 * rows when the catalogs show nothing to do: no DDL, no lock beyond a read's.
 */
export async function planMigration(client: PgClient, n: TableNames): Promise<MigrationPlan | undefined> {
  const state = await inspectSchema(client, n);
  const tableExists = state.columns.size > 0;
  const defined = routines(n);
  const plan: MigrationPlan = {
    state,
    tableExists,
    addColumns: tableExists ? PROMPT_COLUMNS.filter(([column]) => !state.columns.has(column)) : [],
    legacy: LEGACY_COLUMNS.filter((c) => state.columns.has(c)),
    dropNotNull: LEGACY_COLUMNS.filter((c) => state.columns.get(c)?.notNull === true),
    // A table the store creates has its primary key on name; a legacy one may key its rows by something else.
    nameIndex: tableExists && !state.nameUnique,
    tables: companionTables(n).filter((t) => !state.tables.has(t.name)),
    historyIndex: !state.historyIndex,
    routines: defined.filter((_, i) => state.routines[i] !== true),
    unversioned: false,
  };
  const catalogsCurrent =
    state.schema &&
    tableExists &&
    plan.addColumns.length === 0 &&
    plan.legacy.length === 0 &&
    !plan.nameIndex &&
    plan.tables.length === 0 &&
    !plan.historyIndex &&
    plan.routines.length === 0 &&
    state.roleCheck === 'valid';
  if (!catalogsCurrent) return plan;
  plan.unversioned = await hasUnversionedRows(client, n);
  return plan.unversioned ? plan : undefined;
}

/**
 * Runs the migration on `client`, inside the transaction the caller opened (and rolls back on any failure): takes the
 * advisory lock first, plans again, locks the tables it changes, then runs only the DDL the plan lists.
 */
export async function runMigration(client: PgClient, n: TableNames, options: MigrateOptions): Promise<MigrationReport> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [n.lockKey]);
  const plan = await planMigration(client, n);
  const report = upToDateReport();
  if (plan === undefined) return report;
  const { state } = plan;
  report.constraintValidated = state.roleCheck === 'valid';

  // Every lock the migration needs, at once and in the writers' order: after this it waits for no lock again.
  const alters = plan.addColumns.length > 0 || plan.legacy.length > 0 || state.roleCheck === 'missing';
  if (plan.tableExists)
    await client.query(`LOCK TABLE ${n.prompts} IN ${alters ? 'ACCESS EXCLUSIVE' : 'SHARE ROW EXCLUSIVE'} MODE`);
  for (const table of companionTables(n)) {
    if (state.tables.has(table.name)) await client.query(`LOCK TABLE ${table.name} IN SHARE ROW EXCLUSIVE MODE`);
  }

  // CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists: only run it when needed.
  if (!state.schema) await client.query(`CREATE SCHEMA "${n.schema}"`);
  if (!plan.tableExists) {
    const content = CONTENT_COLUMNS.map((c) => `${c.column} ${c.type}`).join(', ');
    await client.query(`CREATE TABLE ${n.prompts} (name text PRIMARY KEY, ${content}, version integer NOT NULL DEFAULT 1,
      updated_at timestamptz NOT NULL DEFAULT now(), updated_by text NOT NULL DEFAULT current_user)`);
    report.createdTable = true;
  }
  for (const [column, type] of plan.addColumns) {
    await client.query(`ALTER TABLE ${n.prompts} ADD COLUMN ${column} ${type}`);
    report.addedColumns.push(column);
  }
  // New rows written by the store carry messages, not the legacy columns.
  for (const legacy of plan.dropNotNull)
    await client.query(`ALTER TABLE ${n.prompts} ALTER COLUMN ${legacy} DROP NOT NULL`);
  if (plan.nameIndex) {
    await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${n.nameIndex} ON ${n.prompts} (name)`);
    report.createdObjects.push(`"${n.schema}".${n.nameIndex}`);
  }
  for (const table of plan.tables) {
    await client.query(table.statement);
    report.createdObjects.push(table.name);
  }
  if (plan.historyIndex) {
    await client.query(historyIndexStatement(n));
    report.createdObjects.push(`"${n.schema}".${n.historyIndex}`);
  }
  for (const routine of plan.routines) {
    await client.query(routine.statement);
    report.createdObjects.push(routine.kind === 'function' ? routine.name : `${routine.name} ON ${routine.table}`);
  }
  // Marked once all are made: a trigger's fingerprint holds its function's identity.
  const marks = plan.routines.length === 0 ? [] : await inspectRoutines(client, plan.routines);
  for (const [i, routine] of plan.routines.entries()) {
    const mark = marks[i]?.mark;
    if (mark === undefined) throw new Error(`${routine.name} is missing right after it was created`);
    await client.query(routineComment(routine, mark));
  }

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

  const columns = new Set(state.columns.keys());
  if (columns.has('content')) await convertLegacyRows(client, n, columns, options, report);

  if (state.roleCheck === 'missing') {
    await client.query(
      `ALTER TABLE ${n.prompts} ADD CONSTRAINT ${n.roleCheck} CHECK (${n.rolesValid}(messages)) NOT VALID`,
    );
    report.addedConstraint = true;
  }
  if (state.roleCheck !== 'valid') {
    await client.query('SAVEPOINT validate_roles');
    try {
      await client.query(`ALTER TABLE ${n.prompts} VALIDATE CONSTRAINT ${n.roleCheck}`);
      report.constraintValidated = true;
    } catch {
      // Some rows break the rule (reported as unconverted): the constraint guards new writes only.
      await client.query('ROLLBACK TO SAVEPOINT validate_roles');
    }
  }

  if (plan.legacy.length > 0 && report.unconverted.length === 0) {
    const { rows } = await client.query(`SELECT count(*)::int AS left FROM ${n.prompts} WHERE messages IS NULL`);
    if (rows[0]!['left'] === 0) {
      for (const column of plan.legacy) await client.query(`ALTER TABLE ${n.prompts} DROP COLUMN ${column}`);
      report.droppedColumns.push(...plan.legacy);
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
      const definition = storableDefinition(
        normalizeLegacyPrompt(record, { systemRole, source: `${n.display}:${name}` }),
      );
      const values = definitionValues(definition);
      const sets = CONTENT_COLUMNS.map((c, i) => `${c.column} = $${i + 2}${c.type === 'jsonb' ? '::jsonb' : ''}`).join(
        ', ',
      );
      await client.query(`UPDATE ${n.prompts} SET ${sets} WHERE name = $1`, [name, ...values]);
      report.converted.push({ name, messages: definition.messages.length });
    } catch (error) {
      if (!isPromptError(error)) throw error;
      report.unconverted.push({ name, reason: error.message });
    }
  }
}
