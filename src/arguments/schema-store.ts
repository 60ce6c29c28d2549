/**
 * The ajv schemas shared by identical schemas: checked once, compiled once (lazily), reference-counted, and the
 * compiling ajv instance recycled so its memory stays bounded (docs/arguments.md).
 *
 * @module
 */
import { MissingRefError } from 'ajv/dist/2020.js';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { DefinitionProblem } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { ROOT_ID, createAjv, rooted } from './ajv-setup.js';
import { NonJsonValueError, canonicalJson, orderedKeyJson } from './canonical-json.js';
import { definitionError, describeAjvError } from './failures.js';
import { PatternBudget } from './pattern-budget.js';
import { defaultProblems } from './schema-defaults.js';
import type { DefaultWork } from './schema-defaults.js';
import type { SchemaProblem } from './schema-limits.js';
import { schemaProblems } from './schema-checks.js';
import type { ResolvedByUri } from './schema-checks.js';

/** Unused compiled schemas an ajv instance may hold before it is recycled, at least (the default). */
export const RECYCLE_MIN = 1000;

/** One ajv instance that compiles, and what its scope holds. */
interface Compiler {
  readonly ajv: Ajv2020;
  /** Schemas compiled into its scope (ajv keeps each one for the instance's lifetime). */
  compiles: number;
  /** Live entries whose compiled function came from it. */
  pinned: number;
}

/** One distinct schema: checked when first acquired, compiled on first validate, shared by identical schemas. */
export interface StoreEntry {
  readonly key: string;
  readonly schema: JsonSchema;
  /** Plain `JSON.stringify` forms that led to this entry (a cheap first lookup; at most a few). */
  readonly raws: string[];
  /** The compiled function; reset when the instance that compiled it is dropped, so validators read it from here. */
  validate: ValidateFunction | undefined;
  /** The instance {@link validate} came from. */
  compiler: Compiler | undefined;
  /** Why compiling failed (a definition error), so validators sharing the entry do not compile it again. */
  failure: unknown;
  /** The pattern work of its defaults, measured by the check (each validator holds it to its own limit). */
  readonly defaultWork: readonly DefaultWork[];
  refs: number;
}

/** Counters of a store's ajv instances (our own bookkeeping; memory tests read them). */
export interface StoreStats {
  /** ajv instances held: the compiling ones, and the store's own checker when a schema needed it. */
  instances: number;
  /** Schemas compiled into the compiling instances held (ajv keeps each one while the instance lives). */
  compiled: number;
  /** Live entries whose function came from those instances. */
  pinned: number;
}

/** Maps a JSON pointer into a schema to one into the prompt definition. */
export type Locate = (schemaPointer: string) => string;

/** The checker every store shares ({@link metaSchemaChecker}), made on first use. */
let sharedChecker: Ajv2020 | undefined;
/** Its compile warnings (the meta-schema's, none): emptied after each check, never read. */
const checkerWarnings: string[] = [];

/**
 * The ajv instance that checks schemas against the meta-schema and knows the formats, shared by every store of the
 * process: ajv compiles the meta-schema (about 0.1 s) once per process instead of once per registry. It checks only
 * schemas whose `$schema` is absent or the id of a meta-schema it holds, which add nothing to it: it holds nothing of
 * any prompt's and never grows. Its own patterns (the meta-schema's) charge a budget no validation runs under, as they
 * charged the store's, outside any validation.
 */
function metaSchemaChecker(): Ajv2020 {
  return (sharedChecker ??= createAjv(checkerWarnings, new PatternBudget()));
}

/** The ajv instances of one cache and its schemas; the compiling instance is recycled (docs/arguments.md). */
export class SchemaStore {
  /**
   * The checker of a schema with any other `$schema` (ajv may resolve and keep what it names in the instance that
   * checks): the store's own, dropped with it.
   */
  private ownChecker: Ajv2020 | undefined;
  /** The instance that compiles now. */
  private current: Compiler | undefined;
  /** The instance recycled last, while live entries still use functions it compiled. */
  private retired: Compiler | undefined;
  private readonly entries = new Map<string, StoreEntry>();
  /** Entries by the plain JSON of a schema that led to them: identical schemas mostly share their key order too. */
  private readonly byRaw = new Map<string, StoreEntry>();
  private readonly warnings: string[] = [];
  /** The pattern work of the validation running now (every instance's patterns charge it). */
  readonly patterns = new PatternBudget();
  private readonly knownFormat = (name: string): boolean => Object.hasOwn(metaSchemaChecker().formats, name);
  private readonly compileOnce = (raw: JsonSchema): ValidateFunction => {
    const compiler = this.compiler();
    const schema = rooted(raw);
    compiler.compiles++;
    try {
      return compiler.ajv.compile(schema);
    } finally {
      compiler.ajv.removeSchema(schema);
    }
  };

  /** `recycleMin`: unused compiled schemas the compiling instance may hold before it is recycled, at least. */
  constructor(private readonly recycleMin = RECYCLE_MIN) {}

  /** Distinct schemas alive (checked or compiled). */
  get size(): number {
    return this.entries.size;
  }

  /** The compiling instance, recycled first when what it holds unused exceeds the bound. */
  private compiler(): Compiler {
    const current = this.current;
    if (
      current !== undefined &&
      current.compiles - current.pinned <= Math.max(this.recycleMin, 2 * this.entries.size)
    ) {
      return current;
    }
    if (current !== undefined) this.retire(current);
    const fresh: Compiler = { ajv: createAjv(this.warnings, this.patterns), compiles: 0, pinned: 0 };
    this.current = fresh;
    return fresh;
  }

  private retire(current: Compiler): void {
    const older = this.retired;
    if (older !== undefined) {
      // Its live entries compile again, lazily, into the fresh instance: nothing references the old scope then.
      for (const entry of this.entries.values()) {
        if (entry.compiler === older) {
          entry.validate = undefined;
          entry.compiler = undefined;
        }
      }
    }
    this.retired = current.pinned > 0 ? current : undefined;
  }

  stats(): StoreStats {
    const stats: StoreStats = { instances: this.ownChecker === undefined ? 0 : 1, compiled: 0, pinned: 0 };
    for (const compiler of [this.current, this.retired]) {
      if (compiler === undefined) continue;
      stats.instances++;
      stats.compiled += compiler.compiles;
      stats.pinned += compiler.pinned;
    }
    return stats;
  }

  /** The shared entry of `schema`, checked when new (no ajv compile); the caller must {@link release} it. */
  acquire(schema: JsonSchema, locate: Locate): StoreEntry {
    const raw = rawJson(schema);
    let entry = raw === undefined ? undefined : this.byRaw.get(raw);
    if (entry === undefined) {
      const key = schemaKey(schema, locate);
      entry = this.entries.get(key);
      if (entry === undefined) {
        const defaultWork = this.inspect(schema, locate);
        entry = {
          key,
          schema,
          raws: [],
          validate: undefined,
          compiler: undefined,
          failure: undefined,
          defaultWork,
          refs: 0,
        };
        this.entries.set(key, entry);
      }
      if (raw !== undefined && entry.raws.length < MAX_RAWS) {
        entry.raws.push(raw);
        this.byRaw.set(raw, entry);
      }
    }
    entry.refs++;
    return entry;
  }

  /** The compiled ajv function of an acquired entry, compiling it on first call (and after its instance went). */
  compiled(entry: StoreEntry, locate: Locate): ValidateFunction {
    if (entry.validate !== undefined) return entry.validate;
    if (entry.failure !== undefined) throw entry.failure;
    const compiler = this.compiler();
    let validate: ValidateFunction;
    try {
      validate = this.compile(compiler, entry.schema, locate);
    } catch (error) {
      if (entry.refs > 0) entry.failure = error;
      throw error;
    }
    compiler.ajv.removeSchema(entry.schema);
    if (entry.refs > 0) {
      entry.validate = validate;
      entry.compiler = compiler;
      compiler.pinned++;
    }
    return validate;
  }

  /** Drops one reference; the last one removes the schema from the store (and releases its compiled function). */
  release(entry: StoreEntry): void {
    if (entry.refs <= 0) return;
    entry.refs--;
    if (entry.refs === 0 && this.entries.get(entry.key) === entry) {
      this.entries.delete(entry.key);
      for (const raw of entry.raws) this.byRaw.delete(raw);
      const compiler = entry.compiler;
      if (compiler !== undefined) {
        compiler.pinned--;
        if (compiler === this.retired && compiler.pinned === 0) this.retired = undefined;
      }
    }
  }

  /** Checks `schema` like {@link acquire} without keeping anything (a live identical entry is already checked). */
  checkDetached(schema: JsonSchema, locate: Locate): readonly DefaultWork[] {
    return this.entries.get(schemaKey(schema, locate))?.defaultWork ?? this.inspect(schema, locate);
  }

  /** A validator for `schema` that holds no reference: the live shared one, or a fresh one ajv does not keep. */
  detached(schema: JsonSchema, locate: Locate): { validate: ValidateFunction; defaultWork: readonly DefaultWork[] } {
    const live = this.entries.get(schemaKey(schema, locate));
    if (live !== undefined) return { validate: this.compiled(live, locate), defaultWork: live.defaultWork };
    const defaultWork = this.inspect(schema, locate);
    const compiler = this.compiler();
    const validate = this.compile(compiler, schema, locate);
    compiler.ajv.removeSchema(schema);
    return { validate, defaultWork };
  }

  /** Throws the definition error of `schema`'s problems, if any; else returns the pattern work of its defaults. */
  private inspect(schema: JsonSchema, locate: Locate): readonly DefaultWork[] {
    const work: DefaultWork[] = [];
    const problems = this.problems(schema, work);
    if (problems.length > 0) throw definitionError(located(problems, locate));
    return work;
  }

  /** The shared checker when `schema`'s `$schema` is absent or a meta-schema it holds; else the store's own. */
  private checkerOf(schema: JsonSchema): Ajv2020 {
    const shared = metaSchemaChecker();
    const meta = schema['$schema'];
    if (meta === undefined || (typeof meta === 'string' && Object.hasOwn(shared.schemas, meta))) return shared;
    return (this.ownChecker ??= createAjv([], this.patterns));
  }

  /** Meta-schema problems; else formats, patterns, `__proto__` names and references; else defaults. */
  private problems(schema: JsonSchema, work: DefaultWork[]): SchemaProblem[] {
    const checker = this.checkerOf(schema);
    let valid: boolean;
    checkerWarnings.length = 0;
    try {
      valid = checker.validateSchema(schema) as boolean;
    } catch (error) {
      // An unknown `$schema` dialect.
      return [{ pointer: '/$schema', message: error instanceof Error ? error.message : String(error) }];
    }
    if (!valid) return (checker.errors ?? []).map((e) => ({ pointer: e.instancePath, message: describeAjvError(e) }));
    const byUri: ResolvedByUri[] = [];
    const found = schemaProblems(schema, this.knownFormat, byUri);
    if (found.length > 0) return found;
    const unresolved = byUri.length > 0 ? this.unresolved(schema, byUri) : undefined;
    return unresolved !== undefined ? [unresolved] : defaultProblems(schema, this.compileOnce, this.patterns, work);
  }

  /** Where ajv fails to resolve what it resolves by URI (compiled once now, so no request ever meets it). */
  private unresolved(schema: JsonSchema, byUri: readonly ResolvedByUri[]): SchemaProblem | undefined {
    try {
      this.compileOnce(schema);
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const missing = error instanceof MissingRefError ? UNRESOLVED.exec(message)?.[1] : undefined;
      const at = byUri.find((place) => place.ref === missing) ?? (byUri[0] as ResolvedByUri);
      return {
        pointer: at.pointer,
        message: `ajv cannot resolve it: ${message.replaceAll(` from id ${ROOT_ID}`, '')}`,
      };
    }
  }

  /** Compiles into `compiler` (counted: ajv keeps it in the scope whatever happens next). */
  private compile(compiler: Compiler, raw: JsonSchema, locate: Locate): ValidateFunction {
    const ajv = compiler.ajv;
    const schema = rooted(raw);
    compiler.compiles++;
    this.warnings.length = 0;
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      ajv.removeSchema(schema);
      const message = error instanceof Error ? error.message : String(error);
      throw definitionError([{ path: locate(''), message }], error);
    }
    const problems = formatProblems(this.warnings, locate);
    this.warnings.length = 0;
    if (problems.length > 0) {
      ajv.removeSchema(schema);
      throw definitionError(problems);
    }
    return validate;
  }
}

/** ajv's message for a reference it cannot resolve; group 1 is the reference as written. */
const UNRESOLVED = /^can't resolve reference (.*) from id /s;

/** How many plain-JSON forms (key orders) an entry remembers. */
const MAX_RAWS = 4;

/** `orderedKeyJson(schema)`, or undefined on a cycle (the canonical form reports it). */
function rawJson(schema: JsonSchema): string | undefined {
  try {
    return orderedKeyJson(schema);
  } catch {
    return undefined;
  }
}

/** The canonical JSON of a schema; a value JSON cannot hold is a definition error at its location. */
function schemaKey(schema: JsonSchema, locate: Locate): string {
  try {
    return canonicalJson(schema, true);
  } catch (error) {
    if (error instanceof NonJsonValueError)
      throw definitionError([{ path: locate(error.pointer), message: error.message }]);
    throw error;
  }
}

/** Definition problems from schema problems: one per location (ajv reports an `anyOf` failure and each branch). */
function located(problems: readonly SchemaProblem[], locate: Locate): DefinitionProblem[] {
  const seen = new Set<string>();
  const out: DefinitionProblem[] = [];
  for (const p of problems) {
    const path = locate(p.pointer);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: p.message });
  }
  return out;
}

const UNKNOWN_FORMAT = /^unknown format "(.*)" ignored in schema at path "#(.*)"$/;

/** Problems from ajv's compile warnings: an unknown format is a definition error, not something to ignore. */
function formatProblems(warnings: readonly string[], locate: Locate): DefinitionProblem[] {
  const problems = new Map<string, DefinitionProblem>();
  for (const warning of warnings) {
    const m = UNKNOWN_FORMAT.exec(warning);
    if (m === null) continue;
    const path = locate(`${m[2] ?? ''}/format`);
    problems.set(path, { path, message: `unknown format "${m[1] ?? ''}"` });
  }
  return [...problems.values()];
}
