/**
 * The PostgreSQL objects of a prompt table: names, columns, DDL, triggers. Pure SQL text; nothing here talks to a
 * server.
 *
 * @module
 */

/** A column holding one field of a definition, in the prompt table and in its versions table. */
export interface ContentColumn {
  column: string;
  /** The definition's key. */
  key: string;
  type: 'text' | 'jsonb';
}

/** Every column that holds part of a definition (the name aside); a change to any of them is a new version. */
export const CONTENT_COLUMNS: readonly ContentColumn[] = [
  { column: 'title', key: 'title', type: 'text' },
  { column: 'description', key: 'description', type: 'text' },
  { column: 'arguments', key: 'arguments', type: 'jsonb' },
  { column: 'input_schema', key: 'inputSchema', type: 'jsonb' },
  { column: 'messages', key: 'messages', type: 'jsonb' },
  { column: 'icons', key: 'icons', type: 'jsonb' },
  { column: 'tags', key: 'tags', type: 'jsonb' },
  { column: 'meta', key: '_meta', type: 'jsonb' },
];

/** The label `put` moves by default, and the one a store reads by default. */
export const DEFAULT_LABEL = 'production';
/** The label that always means the newest version (not stored; it is the prompt table's row). */
export const LATEST = 'latest';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** Checks a label name: letters, digits, `_`, `.`, `-`, at most 63 characters. */
export function checkLabel(label: unknown, what = 'label'): string {
  if (typeof label !== 'string' || !LABEL.test(label)) {
    throw new RangeError(
      `${what} must be 1 to 63 letters, digits, '_', '.' or '-' (starting with a letter or digit), got ${JSON.stringify(label)}`,
    );
  }
  return label;
}

/** The qualified names of one prompt table's objects. */
export interface TableNames {
  /** `schema.table` as given, for logs. */
  display: string;
  /** The schema's name (unquoted). */
  schema: string;
  prompts: string;
  versions: string;
  labels: string;
  history: string;
  nameIndex: string;
  historyIndex: string;
  /** The role constraint's name, quoted. */
  roleCheck: string;
  /** The role constraint's name as stored in pg_constraint. */
  roleCheckName: string;
  rolesValid: string;
  beforeWrite: string;
  afterWrite: string;
  afterDelete: string;
  labelMoved: string;
  /** The LISTEN/NOTIFY channel. */
  channel: string;
  /** Key of the advisory lock that serialises migrations of this table. */
  lockKey: string;
}

/** Derives the object names of a table; schema and table are plain lower-case identifiers of at most 40 characters. */
export function tableNames(schema: string, table: string): TableNames {
  for (const [what, value] of [
    ['schema', schema],
    ['table', table],
  ] as const) {
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      throw new RangeError(
        `createPostgresPromptStore: ${what} must be a lower-case identifier ([a-z_][a-z0-9_]*, at most 40 characters), got ${JSON.stringify(value)}`,
      );
    }
  }
  const q = (name: string): string => `"${schema}"."${name}"`;
  return {
    display: `${schema}.${table}`,
    schema,
    prompts: q(table),
    versions: q(`${table}_versions`),
    labels: q(`${table}_labels`),
    history: q(`${table}_label_history`),
    nameIndex: `"${table}_name_key"`,
    historyIndex: `"${table}_label_history_name_idx"`,
    roleCheck: `"${table}_role_check"`,
    roleCheckName: `${table}_role_check`,
    rolesValid: q(`${table}_roles_valid`),
    beforeWrite: q(`${table}_before_write`),
    afterWrite: q(`${table}_after_write`),
    afterDelete: q(`${table}_after_delete`),
    labelMoved: q(`${table}_label_moved`),
    channel: `mcp_prompt_kit.${schema}.${table}`,
    lockKey: `mcp-prompt-kit:${schema}.${table}`,
  };
}

const contentList = (prefix = ''): string => CONTENT_COLUMNS.map((c) => `${prefix}${c.column}`).join(', ');
const changed = `(${contentList('NEW.')}) IS DISTINCT FROM (${contentList('OLD.')})`;
/** Who made a change: the `actor` a store call passes, else the database user. */
const actor = `coalesce(nullif(current_setting('mcp_prompt_kit.actor', true), ''), current_user)`;

/** The check behind the role constraint: messages is an array of objects whose role is user or assistant. */
function rolesValidFunction(n: TableNames): string {
  return `CREATE OR REPLACE FUNCTION ${n.rolesValid}(messages jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(messages) = 'array' THEN NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(messages) AS m(message)
    WHERE jsonb_typeof(m.message) <> 'object' OR coalesce(m.message->>'role', '') NOT IN ('user', 'assistant')
  ) ELSE false END
$$`;
}

/** A table the store adds next to the prompt table, created when missing. */
export interface CompanionTable {
  /** Its qualified name. */
  name: string;
  statement: string;
}

/** The tables the store adds next to the prompt table, in the order they are created (labels refer to versions). */
export function companionTables(n: TableNames): CompanionTable[] {
  const content = CONTENT_COLUMNS.map((c) => `${c.column} ${c.type}`).join(', ');
  return [
    {
      name: n.versions,
      statement: `CREATE TABLE IF NOT EXISTS ${n.versions} (name text NOT NULL, version integer NOT NULL, ${content},
      created_at timestamptz NOT NULL DEFAULT now(), created_by text NOT NULL DEFAULT current_user, PRIMARY KEY (name, version))`,
    },
    {
      name: n.labels,
      statement: `CREATE TABLE IF NOT EXISTS ${n.labels} (name text NOT NULL, label text NOT NULL, version integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(), updated_by text NOT NULL DEFAULT current_user, PRIMARY KEY (name, label),
      CHECK (label <> '${LATEST}'), FOREIGN KEY (name, version) REFERENCES ${n.versions} (name, version))`,
    },
    {
      name: n.history,
      statement: `CREATE TABLE IF NOT EXISTS ${n.history} (id bigserial PRIMARY KEY, name text NOT NULL, label text NOT NULL,
      from_version integer, to_version integer, moved_at timestamptz NOT NULL DEFAULT clock_timestamp(), moved_by text NOT NULL)`,
    },
  ];
}

/** The index that serves `history(name)`. */
export function historyIndexStatement(n: TableNames): string {
  return `CREATE INDEX IF NOT EXISTS ${n.historyIndex} ON ${n.history} (name, id)`;
}

/** A NOTIFY with `{name, version, label}` (a name too long for the 8,000-byte payload is sent as null: reload). */
function notify(n: TableNames, name: string, version: string, label: string): string {
  return `PERFORM pg_notify('${n.channel}', json_build_object(
      'name', CASE WHEN octet_length(${name}) > 1000 THEN NULL ELSE ${name} END, 'version', ${version}, 'label', ${label})::text)`;
}

/**
 * A function or trigger the store defines. `migrate()` records in its comment a fingerprint of the statement and of
 * what the catalogs hold for it, and runs the statement again only when the routine is missing or the fingerprint
 * differs (an older definition, or one changed by hand).
 */
export type Routine =
  /** `name`: the function's signature, `"schema"."name"(argument types)`. */
  | { kind: 'function'; name: string; statement: string }
  /** `table`: the qualified table the trigger is on. */
  | { kind: 'trigger'; name: string; table: string; statement: string };

/** What a routine's comment holds before its fingerprint (a hex SHA-256). */
export const ROUTINE_MARK = 'mcp-prompt-kit definition sha256:';

/** The statement that gives a routine its comment `mark` (the mark and a fingerprint). */
export function routineComment(routine: Routine, mark: string): string {
  if (!mark.startsWith(ROUTINE_MARK) || !/^[0-9a-f]{64}$/.test(mark.slice(ROUTINE_MARK.length)))
    throw new Error(`not a routine mark: ${mark}`);
  const target =
    routine.kind === 'function' ? `FUNCTION ${routine.name}` : `TRIGGER ${routine.name} ON ${routine.table}`;
  return `COMMENT ON ${target} IS '${mark}'`;
}

/**
 * Every function and trigger of a table, functions first (a trigger refers to its function): SQL writes become
 * versions, labels move with a recorded history, every change notifies. `CREATE OR REPLACE TRIGGER` (PostgreSQL 14+)
 * takes a SHARE ROW EXCLUSIVE lock, which readers never wait for.
 */
export function routines(n: TableNames): Routine[] {
  const fn = (name: string, statement: string): Routine => ({ kind: 'function', name, statement });
  const tg = (name: string, table: string, statement: string): Routine => ({ kind: 'trigger', name, table, statement });
  const insertVersion = `INSERT INTO ${n.versions} (name, version, ${contentList()}, created_at, created_by)
      VALUES (NEW.name, NEW.version, ${contentList('NEW.')}, NEW.updated_at, NEW.updated_by)`;
  return [
    fn(`${n.rolesValid}(jsonb)`, rolesValidFunction(n)),
    fn(
      `${n.beforeWrite}()`,
      `CREATE OR REPLACE FUNCTION ${n.beforeWrite}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.name IS DISTINCT FROM OLD.name THEN
      RAISE EXCEPTION 'prompts cannot be renamed: insert the new name and delete the old one';
    END IF;
    IF NOT (${changed}) THEN
      NEW.version := OLD.version;
      NEW.updated_at := OLD.updated_at;
      NEW.updated_by := OLD.updated_by;
      RETURN NEW;
    END IF;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('${n.lockKey}:' || NEW.name));
  SELECT coalesce(max(version), 0) + 1 INTO NEW.version FROM ${n.versions} WHERE name = NEW.name;
  NEW.updated_at := now();
  NEW.updated_by := ${actor};
  RETURN NEW;
END $$`,
    ),
    fn(
      `${n.afterWrite}()`,
      `CREATE OR REPLACE FUNCTION ${n.afterWrite}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved text;
BEGIN
  IF TG_OP = 'UPDATE' AND NOT (${changed}) THEN
    RETURN NULL;
  END IF;
  ${insertVersion};
  FOREACH moved IN ARRAY string_to_array(coalesce(nullif(current_setting('mcp_prompt_kit.labels', true), ''), '${DEFAULT_LABEL}'), ',') LOOP
    IF moved <> '-' THEN
      INSERT INTO ${n.labels} AS l (name, label, version, updated_by) VALUES (NEW.name, moved, NEW.version, ${actor})
        ON CONFLICT (name, label) DO UPDATE SET version = EXCLUDED.version, updated_at = now(), updated_by = EXCLUDED.updated_by;
    END IF;
  END LOOP;
  ${notify(n, 'NEW.name', 'NEW.version', `'${LATEST}'`)};
  RETURN NULL;
END $$`,
    ),
    fn(
      `${n.afterDelete}()`,
      `CREATE OR REPLACE FUNCTION ${n.afterDelete}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${n.labels} WHERE name = OLD.name;
  ${notify(n, 'OLD.name', 'NULL', 'NULL')};
  RETURN NULL;
END $$`,
    ),
    fn(
      `${n.labelMoved}()`,
      `CREATE OR REPLACE FUNCTION ${n.labelMoved}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO ${n.history} (name, label, from_version, to_version, moved_by) VALUES (OLD.name, OLD.label, OLD.version, NULL, ${actor});
    ${notify(n, 'OLD.name', 'NULL', 'OLD.label')};
  ELSIF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version OR NEW.label IS DISTINCT FROM OLD.label THEN
    INSERT INTO ${n.history} (name, label, from_version, to_version, moved_by)
      VALUES (NEW.name, NEW.label, CASE WHEN TG_OP = 'UPDATE' THEN OLD.version END, NEW.version, ${actor});
    ${notify(n, 'NEW.name', 'NEW.version', 'NEW.label')};
  END IF;
  RETURN NULL;
END $$`,
    ),
    tg(
      'before_write',
      n.prompts,
      `CREATE OR REPLACE TRIGGER before_write BEFORE INSERT OR UPDATE ON ${n.prompts} FOR EACH ROW
      WHEN (NEW.messages IS NOT NULL) EXECUTE FUNCTION ${n.beforeWrite}()`,
    ),
    tg(
      'after_write',
      n.prompts,
      `CREATE OR REPLACE TRIGGER after_write AFTER INSERT OR UPDATE ON ${n.prompts} FOR EACH ROW
      WHEN (NEW.messages IS NOT NULL) EXECUTE FUNCTION ${n.afterWrite}()`,
    ),
    tg(
      'after_delete',
      n.prompts,
      `CREATE OR REPLACE TRIGGER after_delete AFTER DELETE ON ${n.prompts} FOR EACH ROW EXECUTE FUNCTION ${n.afterDelete}()`,
    ),
    tg(
      'label_moved',
      n.labels,
      `CREATE OR REPLACE TRIGGER label_moved AFTER INSERT OR UPDATE OR DELETE ON ${n.labels} FOR EACH ROW EXECUTE FUNCTION ${n.labelMoved}()`,
    ),
  ];
}
