/**
 * What a prompt table's objects look like now, read from the catalogs: `migrate()` plans from it. Reading it takes no
 * lock on the store's tables (`to_regclass` and the catalog views lock nothing a reader or a writer waits for).
 *
 * @module
 */
import type { PgClient } from './types.js';
import type { Routine, TableNames } from './schema.js';
import { ROUTINE_MARK, companionTables, routines } from './schema.js';

/** The catalog's view of one prompt table and everything `migrate()` puts next to it. */
export interface SchemaState {
  /** The schema exists. */
  schema: boolean;
  /** The prompt table's columns and whether each is NOT NULL (empty: no prompt table). */
  columns: Map<string, { notNull: boolean }>;
  /** A valid unique index on exactly `(name)`, which `ON CONFLICT (name)` needs. */
  nameUnique: boolean;
  /** The companion tables that exist, by qualified name. */
  tables: Set<string>;
  historyIndex: boolean;
  /** The role constraint: missing, added NOT VALID, or validated. */
  roleCheck: 'missing' | 'not-valid' | 'valid';
  /** Per routine, in the order of `routines(n)`: whether it exists as the store defines it (see `inspectRoutines`). */
  routines: boolean[];
}

/** Reads the state of `n`'s objects from the catalogs. */
export async function inspectSchema(client: PgClient, n: TableNames): Promise<SchemaState> {
  const defined = routines(n);
  const tables = companionTables(n).map((t) => t.name);
  const { rows } = await client.query(
    `SELECT
       EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $2) AS schema,
       (SELECT coalesce(json_agg(json_build_object('name', a.attname, 'notNull', a.attnotnull)), '[]')
          FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
       EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
          WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indisvalid AND i.indnkeyatts = 1
            AND i.indpred IS NULL AND i.indexprs IS NULL AND a.attname = 'name') AS "nameUnique",
       (SELECT coalesce(json_agg(t), '[]') FROM unnest($3::text[]) AS t WHERE to_regclass(t) IS NOT NULL) AS tables,
       to_regclass($4) IS NOT NULL AS "historyIndex",
       (SELECT convalidated FROM pg_constraint WHERE conrelid = to_regclass($1) AND conname = $5) AS "roleCheck"`,
    [n.prompts, n.schema, tables, `"${n.schema}".${n.historyIndex}`, n.roleCheckName],
  );
  const row = rows[0] ?? {};
  const columns = new Map<string, { notNull: boolean }>();
  for (const column of row['columns'] as { name: string; notNull: boolean }[])
    columns.set(column.name, { notNull: column.notNull });
  const roleCheck = row['roleCheck'];
  return {
    schema: row['schema'] === true,
    columns,
    nameUnique: row['nameUnique'] === true,
    tables: new Set(row['tables'] as string[]),
    historyIndex: row['historyIndex'] === true,
    roleCheck: roleCheck === true ? 'valid' : roleCheck === false ? 'not-valid' : 'missing',
    routines: (await inspectRoutines(client, defined)).map((r) => r.current),
  };
}

/**
 * Per routine: the comment that marks it as current (the SHA-256 of its statement and of what the catalogs hold for
 * it now: a function's body, language, result and settings; a trigger's function, events, condition and whether it is
 * enabled), and whether it carries that comment. A routine missing, changed by hand since, or made by another
 * statement (an older release) is not current. Undefined `mark`: the routine does not exist.
 */
export async function inspectRoutines(
  client: PgClient,
  defined: readonly Routine[],
): Promise<{ current: boolean; mark: string | undefined }[]> {
  const { rows } = await client.query(
    `SELECT r.found->>'comment' = r.mark AS current, r.mark
       FROM (SELECT e.ord, f.found, $2 || encode(sha256(convert_to((e.routine->>'statement') || '|' || (f.found->>'state'), 'UTF8')), 'hex') AS mark
               FROM json_array_elements($1::json) WITH ORDINALITY AS e(routine, ord)
               CROSS JOIN LATERAL (SELECT CASE e.routine->>'kind'
                 WHEN 'function' THEN (SELECT json_build_object('comment', obj_description(p.oid, 'pg_proc'),
                     'state', concat_ws('|', p.prosrc, p.prolang, p.prorettype, p.proargtypes, p.provolatile, p.prosecdef, p.proconfig))
                   FROM pg_proc p WHERE p.oid = to_regprocedure(e.routine->>'name'))
                 ELSE (SELECT json_build_object('comment', obj_description(t.oid, 'pg_trigger'),
                     'state', concat_ws('|', t.tgfoid, t.tgtype, t.tgenabled, t.tgattr, t.tgargs, t.tgqual))
                   FROM pg_trigger t WHERE t.tgrelid = to_regclass(e.routine->>'table') AND t.tgname = e.routine->>'name')
                 END AS found) AS f) AS r
      ORDER BY r.ord`,
    [JSON.stringify(defined), ROUTINE_MARK],
  );
  return rows.map((r) => ({
    current: r['current'] === true,
    mark: typeof r['mark'] === 'string' ? r['mark'] : undefined,
  }));
}

/** Whether some prompt rows with messages have no version yet (written before the triggers, or with them disabled). */
export async function hasUnversionedRows(client: PgClient, n: TableNames): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT EXISTS (SELECT 1 FROM ${n.prompts} p WHERE p.messages IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM ${n.versions} v WHERE v.name = p.name)) AS unversioned`,
  );
  return rows[0]?.['unversioned'] === true;
}
