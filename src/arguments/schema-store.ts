/**
 * One private ajv instance (draft 2020-12 + ajv-formats) and its schemas: checked once and compiled once per
 * identical schema (canonical JSON), reference-counted, so replacing a prompt never leaks a schema.
 *
 * @module
 * @internal
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { DefinitionProblem } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { describeAjvError } from './ajv-errors.js';
import { canonicalJson } from './canonical.js';
import { defaultProblems } from './defaults.js';
import { definitionError } from './failures.js';
import { schemaProblems } from './schema-walk.js';
import type { SchemaProblem } from './schema-walk.js';

// ajv-formats is CommonJS whose `module.exports` is the plugin with a `.default` pointing to itself: `.default` is
// right under Node ESM, CJS bundles and TypeScript's NodeNext view alike.
const addFormats = formatsModule.default;

/**
 * One distinct schema: checked when first acquired (meta-schema, formats, patterns, references, defaults), compiled
 * by ajv only when a validator first validates with it; shared by every validator of an identical schema.
 */
export interface StoreEntry {
  readonly key: string;
  readonly schema: JsonSchema;
  /** Plain `JSON.stringify` forms that led to this entry (a cheap first lookup; at most a few). */
  readonly raws: string[];
  /** The compiled ajv function, once some validator validated. */
  validate: ValidateFunction | undefined;
  refs: number;
}

/** Maps a JSON pointer into a schema to one into the prompt definition. */
export type Locate = (schemaPointer: string) => string;

/**
 * The schema store behind an {@link ArgumentValidatorCache}. ajv is created on first need.
 *
 * @example
 * ```ts
 * const store = new SchemaStore();
 * const entry = store.acquire({ type: 'object' }, (p) => p); // checked, not compiled
 * store.compiled(entry, (p) => p)({}); // true
 * store.release(entry); // store.size === 0
 * ```
 */
export class SchemaStore {
  private ajvInstance: Ajv2020 | undefined;
  private readonly entries = new Map<string, StoreEntry>();
  /** Entries by the plain JSON of a schema that led to them: identical schemas mostly share their key order too. */
  private readonly byRaw = new Map<string, StoreEntry>();
  private readonly warnings: string[] = [];
  private readonly knownFormat = (name: string): boolean =>
    Object.prototype.hasOwnProperty.call(this.ajv.formats, name);
  private readonly getAjv = (): Ajv2020 => this.ajv;

  /** Distinct schemas alive (checked or compiled). */
  get size(): number {
    return this.entries.size;
  }

  private get ajv(): Ajv2020 {
    if (this.ajvInstance === undefined) {
      const warnings = this.warnings;
      const ajv = new Ajv2020({
        allErrors: true,
        // Unknown keywords (vendor extensions) are tolerated; unknown formats are caught by our own check.
        strict: false,
        // NaN and Infinity are not numbers (JSON has neither).
        strictNumbers: true,
        useDefaults: false,
        coerceTypes: false,
        // We validate schemas against the meta-schema ourselves, to report every problem with its path.
        validateSchema: false,
        // Never register a schema's $id in the shared instance: prompts cannot collide or reach each other.
        addUsedSchema: false,
        logger: { log() {}, warn: (...args: unknown[]) => void warnings.push(args.map(String).join(' ')), error() {} },
      });
      addFormats(ajv);
      this.ajvInstance = ajv;
    }
    return this.ajvInstance;
  }

  /**
   * The shared entry of `schema`, checking it when it is new (see {@link StoreEntry}; no ajv compile); the caller
   * must {@link release} it. Throws PromptError `INVALID_PROMPT_DEFINITION` when the schema is broken (nothing is
   * kept then).
   */
  acquire(schema: JsonSchema, locate: Locate): StoreEntry {
    const raw = rawJson(schema);
    let entry = raw === undefined ? undefined : this.byRaw.get(raw);
    if (entry === undefined) {
      const key = canonicalJson(schema);
      entry = this.entries.get(key);
      if (entry === undefined) {
        this.inspect(schema, locate);
        entry = { key, schema, raws: [], validate: undefined, refs: 0 };
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

  /** The compiled ajv function of an acquired entry, compiling it on first call. */
  compiled(entry: StoreEntry, locate: Locate): ValidateFunction {
    return (entry.validate ??= this.compile(entry.schema, locate));
  }

  /** Drops one reference; the last one removes the schema from ajv and the store. */
  release(entry: StoreEntry): void {
    if (entry.refs <= 0) return;
    entry.refs--;
    if (entry.refs === 0 && this.entries.get(entry.key) === entry) {
      this.entries.delete(entry.key);
      for (const raw of entry.raws) this.byRaw.delete(raw);
      if (entry.validate !== undefined) this.ajvInstance?.removeSchema(entry.schema);
    }
  }

  /** Checks `schema` like {@link acquire} without keeping anything (a live identical entry is already checked). */
  checkDetached(schema: JsonSchema, locate: Locate): void {
    if (!this.entries.has(canonicalJson(schema))) this.inspect(schema, locate);
  }

  /** A validator for `schema` that holds no reference: the live shared one, or a fresh one ajv does not keep. */
  detached(schema: JsonSchema, locate: Locate): ValidateFunction {
    const live = this.entries.get(canonicalJson(schema));
    if (live !== undefined) return this.compiled(live, locate);
    this.inspect(schema, locate);
    const validate = this.compile(schema, locate);
    this.ajv.removeSchema(schema);
    return validate;
  }

  /** Throws the definition error of `schema`'s problems, if any. */
  private inspect(schema: JsonSchema, locate: Locate): void {
    const problems = this.problems(schema);
    if (problems.length > 0) throw definitionError(located(problems, locate));
  }

  /** Meta-schema problems; else formats, patterns, `__proto__` names and references; else defaults. */
  private problems(schema: JsonSchema): SchemaProblem[] {
    const ajv = this.ajv;
    let valid: boolean;
    try {
      valid = ajv.validateSchema(schema) as boolean;
    } catch (error) {
      // An unknown `$schema` dialect.
      return [{ pointer: '/$schema', message: error instanceof Error ? error.message : String(error) }];
    }
    if (!valid) return (ajv.errors ?? []).map((e) => ({ pointer: e.instancePath, message: describeAjvError(e) }));
    const found = schemaProblems(schema, this.knownFormat);
    return found.length > 0 ? found : defaultProblems(schema, this.getAjv);
  }

  private compile(schema: JsonSchema, locate: Locate): ValidateFunction {
    const ajv = this.ajv;
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

/** How many plain-JSON forms (key orders) an entry remembers. */
const MAX_RAWS = 4;

/**
 * `JSON.stringify(schema)`, or undefined when it throws (a cycle, a bigint: the canonical form reports those).
 * Two schemas with the same plain JSON have the same canonical JSON.
 */
function rawJson(schema: JsonSchema): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
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
