/**
 * The caches behind argument validation: canonical keys, the plans shared by identical declarations, the ajv
 * schemas shared by identical schemas (checked once, compiled once, reference-counted, ajv recycled), and
 * {@link ArgumentValidatorCache}, which a registry owns. How ajv memory stays bounded: README, "Argument validation".
 *
 * @module
 */
import { Ajv2020, MissingRefError, _, str } from 'ajv/dist/2020.js';
import type { CodeKeywordDefinition, ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { DefinitionProblem, PromptArgumentDefinition } from '../definition/types.js';
import { PromptError } from '../errors.js';
import { MAX_SCHEMA_NODES } from '../definition/keywords.js';
import { escapePointerSegment, isPlainObject } from '../json.js';
import type { JsonSchema } from '../types.js';
import { definitionError, describeAjvError } from './failures.js';
import { isDecimalMultiple } from './numbers.js';
import { buildPlan, isPlainFastDeclaration } from './plan.js';
import type { ArgumentPlan } from './plan.js';
import { PatternBudget, createPatternEngine } from './regex.js';
import { defaultProblems, schemaProblems } from './schema-checks.js';
import type { DefaultWork, ResolvedByUri, SchemaProblem } from './schema-checks.js';
import type {
  ArgumentValidationOptions,
  ArgumentValidatorCacheOptions,
  CompiledArgumentValidator,
} from './types.js';
import { ArgumentValidator } from './validator.js';

// ---------------------------------------------------------------------------------------------- canonical keys

/** Keys and strings that need no escaping in JSON (the common case: skips JSON.stringify). */
const PLAIN = /^[\w $#./:@+-]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A value JSON cannot hold, found in a schema: where (a JSON pointer into it) and what. */
export class NonJsonValueError extends Error {
  constructor(
    readonly pointer: string,
    readonly what: string,
  ) {
    super(`must be a JSON value (got ${what})`);
  }
}

/** Bare (unquoted) tokens of non-JSON values: no JSON text contains them where a value goes. */
function nonJsonToken(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '~undefined';
    case 'number':
      return `~${String(value)}`;
    case 'bigint':
      return `~${String(value)}n`;
    case 'symbol':
      return `~${String(value.description)}@symbol`;
    default:
      return '~function';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
    return `a ${name ?? 'non-plain'} object`;
  }
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

interface Writer {
  readonly stack: object[];
  readonly strict: boolean;
  /** Objects and arrays written so far (a shared one each time): more than MAX_SCHEMA_NODES is not keyed. */
  containers: number;
}

/** `path` is kept only in strict mode (to name where a non-JSON value is). */
function write(value: unknown, w: Writer, path: string): string {
  const strict = w.strict;
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (Number.isFinite(value)) return String(value);
      if (strict) throw new NonJsonValueError(path, describe(value));
      return nonJsonToken(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      // undefined (an array element), functions, symbols, bigints: not JSON.
      if (strict && typeof value !== 'undefined') throw new NonJsonValueError(path, describe(value));
      return nonJsonToken(value);
  }
  if (value === null) return 'null';
  const stack = w.stack;
  if (stack.includes(value)) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', 'Invalid argument schema: it contains a cycle');
  }
  if (++w.containers > MAX_SCHEMA_NODES) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', `Invalid argument schema: more than ${MAX_SCHEMA_NODES} objects and arrays`);
  }
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], w, strict ? `${path}/${i}` : path);
    }
    out += ']';
  } else {
    const plain = isPlainObject(value);
    if (!plain && strict) throw new NonJsonValueError(path, describe(value));
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > 1) keys.sort();
    // A non-plain object (a Date, a Map) is not the plain object of its own keys.
    out = plain ? '{' : `~${describe(value)}{`;
    let first = true;
    for (const key of keys) {
      const v = record[key];
      // Functions (a `complete` callback) are left out, as JSON.stringify does; undefined is kept, as a token.
      if (typeof v === 'function' || (typeof v === 'symbol' && !strict)) continue;
      if (!first) out += ',';
      first = false;
      out += `${quote(key)}:${write(v, w, strict ? `${path}/${escapePointerSegment(key)}` : path)}`;
    }
    out += '}';
  }
  stack.pop();
  return out;
}

/** JSON with sorted keys; non-JSON values get tokens of their own (`strict`: they throw); a cycle or too much throws. */
export function canonicalJson(value: unknown, strict = false): string {
  return write(value, { stack: [], strict, containers: 0 }, '');
}

/** Whether a value is in `values` (deep equality for objects and arrays): one Set lookup, whatever their number. */
function membership(values: readonly unknown[]): (value: unknown) => boolean {
  const scalars = new Set<unknown>();
  let containers: Set<string> | undefined;
  for (const v of values) {
    if (typeof v === 'object' && v !== null) (containers ??= new Set()).add(canonicalJson(v));
    else scalars.add(v);
  }
  return (value) =>
    typeof value === 'object' && value !== null
      ? containers !== undefined && containers.has(canonicalJson(value))
      : scalars.has(value);
}

/** Scalar enums this short are compared inline, as ajv does (no call, no lookup). */
const INLINE_ENUM = 16;

/** ajv's `enum` (same error: keyword `enum`, `params.allowedValues`), checked by a Set built once per schema. */
const ENUM_BY_SET: CodeKeywordDefinition = {
  keyword: 'enum',
  schemaType: 'array',
  error: {
    message: 'must be equal to one of the allowed values',
    params: ({ schemaCode }) => _`{allowedValues: ${schemaCode}}`,
  },
  code(cxt) {
    const values = cxt.schema as unknown[];
    if (values.length === 0) throw new Error('enum must have non-empty array');
    if (values.length <= INLINE_ENUM && values.every((v) => typeof v !== 'object' || v === null)) {
      const scalars = values as (string | number | boolean | null)[];
      let same = _`${cxt.data} === ${scalars[0]}`;
      for (let i = 1; i < scalars.length; i++) same = _`${same} || ${cxt.data} === ${scalars[i]}`;
      cxt.pass(same);
      return;
    }
    const isMember = cxt.gen.scopeValue('func', { ref: membership(values) });
    cxt.pass(_`${isMember}(${cxt.data})`);
  },
};

/** Arrays this short are compared pair by pair (no Maps to allocate). */
const PAIRWISE_ITEMS = 16;

/** The last pair of equal items as ajv's pairwise loop finds them ([later, earlier] index), in one pass. */
function duplicatePair(items: readonly unknown[]): [number, number] | undefined {
  if (items.length <= PAIRWISE_ITEMS && items.every((v) => typeof v !== 'object' || v === null)) {
    for (let i = items.length - 1; i > 0; i--) {
      for (let j = i - 1; j >= 0; j--) {
        const a = items[i];
        const b = items[j];
        if (a === b || (a !== a && b !== b)) return [i, j];
      }
    }
    return undefined;
  }
  const scalars = new Map<unknown, number>();
  const containers = new Map<string, number>();
  let pair: [number, number] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'object' && item !== null) {
      const key = canonicalJson(item);
      const j = containers.get(key);
      if (j !== undefined) pair = [i, j];
      containers.set(key, i);
    } else {
      const j = scalars.get(item);
      if (j !== undefined) pair = [i, j];
      scalars.set(item, i);
    }
  }
  return pair;
}

/** ajv's `uniqueItems` (same error and params) in one pass with Maps instead of comparing every pair of items. */
const UNIQUE_BY_SET: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt) {
    if (cxt.schema !== true) return;
    const pair = cxt.gen.const('pair', _`${cxt.gen.scopeValue('func', { ref: duplicatePair })}(${cxt.data})`);
    cxt.setParams({ i: _`${pair}[0]`, j: _`${pair}[1]` });
    cxt.fail(_`${pair} !== undefined`);
  },
};

/** `JSON.stringify`'s replacer giving non-JSON values tokens of their own (see {@link orderedKeyJson}). */
function tokenize(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  switch (typeof original) {
    case 'string':
      // A string that looks like a token is escaped (tokens start with one NUL, it with two).
      return original.startsWith('\u0000') ? `\u0000${original}` : value;
    case 'undefined':
    case 'bigint':
    case 'symbol':
      return `\u0000${nonJsonToken(original)}`;
    case 'number':
      return Number.isFinite(original) ? value : `\u0000${nonJsonToken(original)}`;
    case 'object':
      return original === null || isPlainObject(original) || Array.isArray(original)
        ? value
        : { '\u0000type': describe(original), value };
    default:
      return value;
  }
}

/** `JSON.stringify(value)` (key order kept) where non-JSON values get forms of their own; throws on a cycle. */
export function orderedKeyJson(value: unknown): string {
  return JSON.stringify(value, tokenize) ?? '';
}

// ---------------------------------------------------------------------------------------------- plans

interface PlanEntry {
  readonly plan: ArgumentPlan;
  /** The map's own key string, handed out instead of each caller's equal copy (a copy per prompt adds up). */
  readonly key: string;
  refs: number;
}

/** A plan taken from a {@link PlanCache}; give the key back to `release` when done. */
export interface AcquiredPlan {
  readonly plan: ArgumentPlan;
  readonly key: string;
}

/** One plan per distinct (declarations, options), keyed by their JSON (key order kept), reference-counted. */
export class PlanCache {
  readonly #entries = new Map<string, PlanEntry>();
  /** {@link isPlainFastDeclaration} of frozen (parsed, often shared) declaration lists. */
  readonly #plainFast = new WeakMap<readonly PromptArgumentDefinition[], boolean>();

  /** Whether the declarations are plain fast-path ones, remembered per frozen list. */
  plainFast(promptArguments: readonly PromptArgumentDefinition[] | undefined): boolean {
    if (promptArguments === undefined || !Object.isFrozen(promptArguments)) return isPlainFastDeclaration(promptArguments);
    let known = this.#plainFast.get(promptArguments);
    if (known === undefined) this.#plainFast.set(promptArguments, (known = isPlainFastDeclaration(promptArguments)));
    return known;
  }

  acquire(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options: ArgumentValidationOptions,
  ): AcquiredPlan {
    let declarations: string;
    try {
      declarations =
        inputSchema === undefined || inputSchema === null
          ? `A${orderedKeyJson(promptArguments ?? [])}`
          : `S${orderedKeyJson(inputSchema)}`;
    } catch {
      // Not plain JSON (a cycle): build an unshared plan, which reports the problem as a definition error.
      return { plan: buildPlan(promptArguments, inputSchema, options), key: '' };
    }
    // Typed: a maxLength of '5' (refused) must not find the plan of 5.
    const key = `${orderedKeyJson([options.maxLength, options.extraArguments])}|${declarations}`;
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.refs++;
      return entry;
    }
    const created: PlanEntry = { plan: buildPlan(promptArguments, inputSchema, options), key, refs: 1 };
    this.#entries.set(key, created);
    return created;
  }

  release(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    if (--entry.refs <= 0) this.#entries.delete(key);
  }
}

// ---------------------------------------------------------------------------------------------- ajv schemas

// ajv-formats is CommonJS whose `module.exports` is the plugin with a `.default` pointing to itself: `.default` is
// right under Node ESM, CJS bundles and TypeScript's NodeNext view alike.
const addFormats = formatsModule.default;

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
  /** ajv instances held, the checker included. */
  instances: number;
  /** Schemas compiled into the compiling instances held (ajv keeps each one while the instance lives). */
  compiled: number;
  /** Live entries whose function came from those instances. */
  pinned: number;
}

/** Maps a JSON pointer into a schema to one into the prompt definition. */
export type Locate = (schemaPointer: string) => string;

/** Base URI of a schema without `$id`: ajv resolves `$ref: '#'` (recursion to the root) only against an id. */
const ROOT_ID = 'https://mcp-prompt-kit.invalid/arguments';

function rooted(schema: JsonSchema): JsonSchema {
  return schema['$id'] === undefined ? { $id: ROOT_ID, ...schema } : schema;
}

function createAjv(warnings: string[], patterns: PatternBudget): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Unknown keywords (vendor extensions) are tolerated; unknown formats are caught by our own check.
    strict: false,
    // NaN and Infinity are not numbers (JSON has neither).
    strictNumbers: true,
    useDefaults: false,
    coerceTypes: false,
    // We validate schemas against the meta-schema ourselves (on the checker), to report every problem with its path.
    validateSchema: false,
    // A referenced schema is compiled once, as a function of its own (inlined, its code is copied to every reference).
    inlineRefs: false,
    // Never register a schema's $id in the instance: prompts cannot collide or reach each other.
    addUsedSchema: false,
    // Patterns run on RE2 (linear time), each compiled once per instance: README, "Argument validation".
    code: { regExp: createPatternEngine(patterns) },
    logger: { log() {}, warn: (...args: unknown[]) => void warnings.push(args.map(String).join(' ')), error() {} },
  });
  addFormats(ajv);
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(DECIMAL_MULTIPLE_OF);
  ajv.removeKeyword('enum').addKeyword(ENUM_BY_SET).removeKeyword('uniqueItems').addKeyword(UNIQUE_BY_SET);
  return ajv;
}

/** `multipleOf` decided exactly on decimals (ajv divides doubles: 0.3 / 0.1 is 2.9999999999999996). */
const DECIMAL_MULTIPLE_OF: CodeKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  error: {
    message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
  code(cxt) {
    const test = cxt.gen.scopeValue('func', { ref: isDecimalMultiple });
    cxt.fail(_`!${test}(${cxt.data}, ${cxt.schemaCode})`);
  },
};

/** The ajv instances of one cache and its schemas; the compiling instance is recycled (README: ajv memory). */
export class SchemaStore {
  /** Meta-schema checks and the format list only: compiles nothing else, so it never grows. */
  private checkerInstance: Ajv2020 | undefined;
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
  private readonly knownFormat = (name: string): boolean =>
    Object.hasOwn(this.checker.formats, name);
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

  private get checker(): Ajv2020 {
    return (this.checkerInstance ??= createAjv([], this.patterns));
  }

  /** The compiling instance, recycled first when what it holds unused exceeds the bound. */
  private compiler(): Compiler {
    const current = this.current;
    if (current !== undefined && current.compiles - current.pinned <= Math.max(this.recycleMin, 2 * this.entries.size)) {
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
    const stats: StoreStats = { instances: this.checkerInstance === undefined ? 0 : 1, compiled: 0, pinned: 0 };
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
        entry = { key, schema, raws: [], validate: undefined, compiler: undefined, failure: undefined, defaultWork, refs: 0 };
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

  /** Meta-schema problems; else formats, patterns, `__proto__` names and references; else defaults. */
  private problems(schema: JsonSchema, work: DefaultWork[]): SchemaProblem[] {
    const checker = this.checker;
    let valid: boolean;
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
      return { pointer: at.pointer, message: `ajv cannot resolve it: ${message.replaceAll(` from id ${ROOT_ID}`, '')}` };
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
    if (error instanceof NonJsonValueError) throw definitionError([{ path: locate(error.pointer), message: error.message }]);
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

// ---------------------------------------------------------------------------------------------- the cache

/** Turns argument declarations into validators sharing one private ajv store (lazy; see README, Argument validation). */
export class ArgumentValidatorCache {
  private readonly store: SchemaStore;
  private readonly plans = new PlanCache();
  private readonly defaults: ArgumentValidationOptions;

  /** `recycleMin` is internal: tests reach ajv recycling in a few hundred schemas instead of thousands. */
  constructor(options: ArgumentValidatorCacheOptions = {}, /** @internal */ recycleMin = RECYCLE_MIN) {
    this.defaults = { ...options.defaults };
    this.store = new SchemaStore(recycleMin);
  }

  /** A validator for `promptArguments` (or `inputSchema`, which wins entirely); the declarations must not change. */
  compile(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options?: ArgumentValidationOptions,
  ): CompiledArgumentValidator {
    const merged = options === undefined ? this.defaults : { ...this.defaults, ...stripUndefined(options) };
    return new ArgumentValidator(this.store, this.plans, promptArguments, inputSchema, merged);
  }

  /** Distinct schemas alive: checked (by `check()`) or compiled (by a first `validate()`); fast-path ones hold none. */
  get size(): number {
    return this.store.size;
  }

  /** The ajv counters of this cache's store. */
  stats(): StoreStats {
    return this.store.stats();
  }
}

function stripUndefined(options: ArgumentValidationOptions): ArgumentValidationOptions {
  const out: ArgumentValidationOptions = {};
  if (options.maxLength !== undefined) out.maxLength = options.maxLength;
  if (options.extraArguments !== undefined) out.extraArguments = options.extraArguments;
  if (options.maxDepth !== undefined) out.maxDepth = options.maxDepth;
  if (options.maxItems !== undefined) out.maxItems = options.maxItems;
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  if (options.maxArguments !== undefined) out.maxArguments = options.maxArguments;
  if (options.maxPatternWork !== undefined) out.maxPatternWork = options.maxPatternWork;
  return out;
}

/** Keeps the validators of the last `size` distinct declarations (the standalone `validatePromptArguments`). */
export class RecentValidators {
  private readonly recent = new Map<string, CompiledArgumentValidator>();
  readonly cache: ArgumentValidatorCache;

  constructor(
    private readonly capacity: number,
    recycleMin = RECYCLE_MIN,
  ) {
    this.cache = new ArgumentValidatorCache({}, recycleMin);
  }

  get(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options: ArgumentValidationOptions | undefined,
  ): CompiledArgumentValidator {
    let key: string;
    try {
      key = canonicalJson([
        promptArguments ?? null,
        inputSchema ?? null,
        options?.maxLength ?? null,
        options?.extraArguments ?? null,
        options?.maxDepth ?? null,
        options?.maxItems ?? null,
        options?.maxBytes ?? null,
        options?.maxArguments ?? null,
        options?.maxPatternWork ?? null,
      ]);
    } catch {
      // Too deep (or cyclic) to key: not kept; the validator reports where.
      return this.cache.compile(promptArguments, inputSchema, options);
    }
    const recent = this.recent;
    const hit = recent.get(key);
    if (hit !== undefined) {
      recent.delete(key);
      recent.set(key, hit);
      return hit;
    }
    const validator = this.cache.compile(promptArguments, inputSchema, options);
    recent.set(key, validator);
    if (recent.size > this.capacity) {
      const oldest = recent.keys().next();
      if (oldest.done !== true) {
        recent.get(oldest.value)?.release();
        recent.delete(oldest.value);
      }
    }
    return validator;
  }
}
