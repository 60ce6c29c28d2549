/**
 * One private ajv instance (draft 2020-12 + ajv-formats) and its compiled schemas, shared per identical schema
 * (canonical JSON) and reference-counted, so replacing a prompt never leaks a compiled schema.
 *
 * @module
 * @internal
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { DefinitionProblem } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { describeAjvError } from './ajv-errors.js';
import { canonicalJson } from './canonical.js';
import { definitionError } from './failures.js';

// ajv-formats is CommonJS whose `module.exports` is the plugin with a `.default` pointing to itself: `.default` is
// right under Node ESM, CJS bundles and TypeScript's NodeNext view alike.
const addFormats = formatsModule.default;

/** One compiled schema and the number of validators using it. */
export interface StoreEntry {
  readonly key: string;
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
  refs: number;
}

/** Maps a JSON pointer into a schema to one into the prompt definition. */
export type Locate = (schemaPointer: string) => string;

/**
 * The compiled-schema store behind an {@link ArgumentValidatorCache}. ajv is created on first need.
 *
 * @example
 * ```ts
 * const store = new SchemaStore();
 * const entry = store.acquire({ type: 'object' }, (p) => p);
 * store.release(entry); // store.size === 0
 * ```
 */
export class SchemaStore {
  private ajvInstance: Ajv2020 | undefined;
  private readonly entries = new Map<string, StoreEntry>();
  private readonly warnings: string[] = [];

  /** Distinct compiled schemas alive. */
  get size(): number {
    return this.entries.size;
  }

  private get ajv(): Ajv2020 {
    if (this.ajvInstance === undefined) {
      const warnings = this.warnings;
      const ajv = new Ajv2020({
        allErrors: true,
        // Unknown keywords (vendor extensions) are tolerated; unknown formats are caught through the logger below.
        strict: false,
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
   * The shared compiled validator of `schema`, compiling it on first use; the caller must {@link release} it.
   * Throws PromptError `INVALID_PROMPT_DEFINITION` when the schema is invalid (nothing is kept then).
   */
  acquire(schema: JsonSchema, locate: Locate): StoreEntry {
    const key = canonicalJson(schema);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { key, schema, validate: this.compile(schema, locate), refs: 0 };
      this.entries.set(key, entry);
    }
    entry.refs++;
    return entry;
  }

  /** Drops one reference; the last one removes the schema from ajv and the store. */
  release(entry: StoreEntry): void {
    if (entry.refs <= 0) return;
    entry.refs--;
    if (entry.refs === 0 && this.entries.get(entry.key) === entry) {
      this.entries.delete(entry.key);
      this.ajvInstance?.removeSchema(entry.schema);
    }
  }

  /** A validator for `schema` that holds no reference: the live shared one, or a fresh one ajv does not keep. */
  detached(schema: JsonSchema, locate: Locate): ValidateFunction {
    const live = this.entries.get(canonicalJson(schema));
    if (live !== undefined) return live.validate;
    const validate = this.compile(schema, locate);
    this.ajv.removeSchema(schema);
    return validate;
  }

  private compile(schema: JsonSchema, locate: Locate): ValidateFunction {
    const ajv = this.ajv;
    if (!(ajv.validateSchema(schema) as boolean)) {
      throw definitionError(metaProblems(ajv.errors ?? [], locate));
    }
    this.warnings.length = 0;
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      ajv.removeSchema(schema);
      const message = error instanceof Error ? error.message : String(error);
      const pattern = findBadPattern(schema, '');
      throw definitionError([{ path: locate(pattern ?? ''), message }], error);
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

/** One problem per schema location (ajv reports an `anyOf` failure and each of its branches). */
function metaProblems(errors: readonly ErrorObject[], locate: Locate): DefinitionProblem[] {
  const seen = new Set<string>();
  const problems: DefinitionProblem[] = [];
  for (const e of errors) {
    const path = locate(e.instancePath);
    if (seen.has(path)) continue;
    seen.add(path);
    problems.push({ path, message: describeAjvError(e) });
  }
  return problems;
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

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The JSON pointer of the first `pattern` (or `patternProperties` key) that is not a valid regular expression. */
function findBadPattern(node: unknown, pointer: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key === 'pattern' && typeof value === 'string' && !compiles(value)) return here;
    if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
      for (const p of Object.keys(value)) {
        if (!compiles(p)) return `${here}/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      }
    }
    const found = findBadPattern(value, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
