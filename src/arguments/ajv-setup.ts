/**
 * The ajv set-up of argument validation: one configuration for every instance (draft 2020-12, all errors, no
 * coercion, no schema registry, patterns on the linear-time engine) and the keywords we replace with our own code:
 * `enum` and `uniqueItems` by Set lookups, `multipleOf` decided exactly on decimals.
 *
 * @module
 */
import { Ajv2020, _, str } from 'ajv/dist/2020.js';
import type { CodeKeywordDefinition } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { JsonSchema } from '../types.js';
import { canonicalJson } from './canonical-json.js';
import { isDecimalMultiple } from './numbers.js';
import { createPatternEngine } from './regex.js';
import type { PatternBudget } from './pattern-budget.js';

// ajv-formats is CommonJS whose `module.exports` is the plugin with a `.default` pointing to itself: `.default` is
// right under Node ESM, CJS bundles and TypeScript's NodeNext view alike.
const addFormats = formatsModule.default;

/** Base URI of a schema without `$id`: ajv resolves `$ref: '#'` (recursion to the root) only against an id. */
export const ROOT_ID = 'https://mcp-prompt-kit.invalid/arguments';

/** `schema` with our base URI when it has no `$id` of its own. */
export function rooted(schema: JsonSchema): JsonSchema {
  return schema['$id'] === undefined ? { $id: ROOT_ID, ...schema } : schema;
}

/** A fresh ajv instance in the one configuration; its compile warnings go to `warnings`. */
export function createAjv(warnings: string[], patterns: PatternBudget): Ajv2020 {
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
    // Patterns run on RE2 (linear time), each compiled once per instance: docs/arguments.md.
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

/** Whether a value is in `values` (deep equality for objects and arrays): one Set lookup, whatever their number. */
function membership(values: readonly unknown[]): (value: unknown) => boolean {
  const scalars = new Set<unknown>();
  let containers: Set<string> | undefined;
  for (const v of values) {
    if (typeof v === 'object' && v !== null) (containers ??= new Set()).add(canonicalJson(v));
    else scalars.add(v);
  }
  return (value) =>
    typeof value === 'object' && value !== null ? containers?.has(canonicalJson(value)) === true : scalars.has(value);
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
        if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return [i, j];
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
