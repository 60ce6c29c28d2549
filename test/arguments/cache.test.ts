import { describe, expect, it } from 'vitest';
import { sameShapeCatalogue } from '../../bench/fixtures.js';
import { ArgumentValidatorCache, validatePromptArguments } from '../../src/arguments/index.js';
import { RecentValidators } from '../../src/arguments/cache.js';
import { RECYCLE_MIN } from '../../src/arguments/schema-store.js';
import type { StoreStats } from '../../src/arguments/schema-store.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { PromptError } from '../../src/errors.js';
import type { JsonSchema } from '../../src/types.js';
import { thrownBy } from '../support/errors.js';

function ajvStats(cache: ArgumentValidatorCache): StoreStats {
  return cache.stats();
}

function problemOf(error: PromptError): { path: string; message: string } {
  return (error.data as { problems: { path: string; message: string }[] }).problems[0] as {
    path: string;
    message: string;
  };
}

const object = (properties: Record<string, unknown>): JsonSchema => ({ type: 'object', properties });

const shape = (): PromptArgumentDefinition[] => [
  { name: 'code', required: true, maxLength: 10_000 },
  { name: 'language', required: true, type: 'string', pattern: '^[a-z]+$' },
];

describe('ArgumentValidatorCache sharing and release', () => {
  it('shares one compiled schema between validators of identical declarations', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile(shape(), undefined);
    const b = cache.compile(shape(), undefined);
    a.validate({ code: 'x', language: 'go' });
    b.validate({ code: 'y', language: 'ts' });
    expect(cache.size).toBe(1);
  });

  it('shares schemas that differ only in key order and in titles or descriptions', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'n', type: 'integer', minimum: 0, description: 'one' }], undefined).validate({ n: '1' });
    cache.compile([{ minimum: 0, description: 'two', type: 'integer', name: 'n' }], undefined).validate({ n: '1' });
    cache.compile(undefined, { type: 'object', properties: { n: { type: 'integer' } } }).validate({ n: '1' });
    cache.compile(undefined, { properties: { n: { type: 'integer' } }, type: 'object' }).validate({ n: '1' });
    expect(cache.size).toBe(2);
  });

  it('keeps distinct schemas apart (different keywords or options)', () => {
    const cache = new ArgumentValidatorCache();
    const args = shape();
    cache.compile(args, undefined).validate({ code: 'x', language: 'go' });
    cache.compile(args, undefined, { extraArguments: 'reject' }).validate({ code: 'x', language: 'go' });
    cache.compile([{ name: 'code', minimum: 1 }], undefined).validate({});
    expect(cache.size).toBe(3);
  });

  it('drops the compiled schema from the cache when its last user releases it', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile(shape(), undefined);
    a.validate({ code: 'x', language: 'go' });
    const b = cache.compile(shape(), undefined);
    b.validate({ code: 'x', language: 'go' });
    expect(ajvStats(cache)).toMatchObject({ compiled: 1, pinned: 1 });
    a.release();
    expect(cache.size).toBe(1);
    expect(ajvStats(cache).pinned).toBe(1);
    b.release();
    expect(cache.size).toBe(0);
    expect(ajvStats(cache).pinned).toBe(0);
  });

  it('treats a second release of the same validator as a no-op (another user keeps its reference)', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile(shape(), undefined);
    const b = cache.compile(shape(), undefined);
    a.validate({ code: 'x', language: 'go' });
    b.validate({ code: 'x', language: 'go' });
    a.release();
    a.release();
    expect(cache.size).toBe(1);
    expect(b.validate({ code: 'x', language: 'GO' }).ok).toBe(false);
  });

  it('does not grow when a prompt is replaced 10,000 times', () => {
    const cache = new ArgumentValidatorCache();
    let current = cache.compile(shape(), undefined);
    current.validate({ code: 'x', language: 'go' });
    const before = ajvStats(cache);
    for (let i = 0; i < 10_000; i++) {
      const next = cache.compile(shape(), undefined);
      next.validate({ code: String(i), language: 'go' });
      current.release();
      current = next;
    }
    expect(cache.size).toBe(1);
    // Compiled once, never again: ajv's scope did not grow either.
    expect(ajvStats(cache)).toEqual(before);
    current.release();
    expect(cache.size).toBe(0);
  });

  it('holds one live compiled schema when prompts with ever-different schemas are replaced', () => {
    const cache = new ArgumentValidatorCache();
    let current = cache.compile([{ name: 'n', type: 'integer', maximum: 0 }], undefined);
    current.validate({});
    for (let i = 1; i <= 200; i++) {
      const next = cache.compile([{ name: 'n', type: 'integer', maximum: i }], undefined);
      expect(next.validate({ n: String(i + 1) }).ok).toBe(false);
      current.release();
      current = next;
    }
    expect(cache.size).toBe(1);
    expect(ajvStats(cache)).toMatchObject({ compiled: 201, pinned: 1 });
  });

  it('keeps validating with a released validator, without holding a reference', () => {
    const cache = new ArgumentValidatorCache();
    const used = cache.compile(shape(), undefined);
    used.validate({ code: 'x', language: 'go' });
    used.release();
    expect(used.validate({ code: 'x', language: 'GO' }).ok).toBe(false);
    const neverUsed = cache.compile(shape(), undefined);
    neverUsed.release();
    expect(neverUsed.validate({ code: 'x', language: 'go' }).ok).toBe(true);
    expect(neverUsed.validate({ code: 'x', language: 'GO' }).ok).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('applies constructor defaults to every compile, with per-call options winning', () => {
    const cache = new ArgumentValidatorCache({ defaults: { maxLength: 3, extraArguments: 'reject' } });
    const strict = cache.compile([{ name: 'a' }], undefined);
    expect(strict.validate({ a: 'abcd' })).toMatchObject({ ok: false, error: { data: { limit: 3 } } });
    expect(strict.validate({ b: 'x' })).toMatchObject({
      ok: false,
      error: { data: { error_type: 'schema_validation_failed' } },
    });
    const relaxed = cache.compile([{ name: 'a' }], undefined, { maxLength: 10, extraArguments: undefined });
    expect(relaxed.validate({ a: 'abcd' }).ok).toBe(true);
    expect(relaxed.validate({ b: 'x' }).ok).toBe(false);
  });
});

describe('the meta-schema check', () => {
  const withPattern = (extra: JsonSchema = {}): JsonSchema => ({
    ...object({ a: { type: 'string', pattern: '^a' } }),
    ...extra,
  });

  it('checks schemas against the meta-schema without an ajv instance of each cache', () => {
    for (const meta of [undefined, 'https://json-schema.org/draft/2020-12/schema']) {
      const caches = Array.from({ length: 3 }, () => new ArgumentValidatorCache());
      for (const cache of caches) {
        cache.compile(undefined, withPattern(meta === undefined ? {} : { $schema: meta })).check();
        expect(ajvStats(cache)).toEqual({ instances: 0, compiled: 0, pinned: 0 });
      }
    }
  });

  it('reports meta-schema problems the same in every cache', () => {
    const bad = object({ a: { type: 'string', minLength: -1 } });
    const problems = Array.from({ length: 3 }, () =>
      problemOf(thrownBy(() => new ArgumentValidatorCache().compile(undefined, bad).check())),
    );
    expect(problems[0]?.path).toMatch(/minLength/);
    expect(problems).toEqual([problems[0], problems[0], problems[0]]);
  });

  it('checks a schema whose $schema names anything else with an instance of its own cache, dropped with it', () => {
    // ajv would resolve and keep what such a $schema names in the instance that checks it: never the shared one.
    for (const meta of [
      'https://json-schema.org/draft/2020-12/schema#',
      'https://json-schema.org/draft/2020-12/meta/validation#',
    ]) {
      const cache = new ArgumentValidatorCache();
      cache.compile(undefined, withPattern({ $schema: meta })).check();
      expect(ajvStats(cache)).toEqual({ instances: 1, compiled: 0, pinned: 0 });
    }
    const unknown = new ArgumentValidatorCache();
    const error = thrownBy(() => unknown.compile(undefined, withPattern({ $schema: 'https://example.com/s' })).check());
    expect(problemOf(error).path).toMatch(/\$schema/);
    expect(ajvStats(unknown).instances).toBe(1);
  });
});

describe('laziness', () => {
  it('does no ajv work at compile time: ajv is not even created', () => {
    const cache = new ArgumentValidatorCache();
    for (let i = 0; i < 100; i++) cache.compile([{ name: 'n', type: 'integer', minimum: i }], undefined);
    expect(ajvStats(cache).instances).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('throws for an invalid schema only on check() or first validate, not at compile', () => {
    const cache = new ArgumentValidatorCache();
    const broken = { type: 'object', properties: { a: { type: 'strnig' } } };
    const validator = cache.compile(undefined, broken);
    expect(() => validator.validate({ a: 'x' })).toThrow(/Invalid argument schema/);
    expect(() => cache.compile(undefined, broken).check()).toThrow(/Invalid argument schema/);
  });

  it('registers 10,000 prompts without creating ajv or compiling anything', () => {
    const cache = new ArgumentValidatorCache();
    const validators = [];
    for (let i = 0; i < 10_000; i++) {
      validators.push(
        cache.compile(
          [
            { name: 'code', required: true },
            { name: 'language', enum: ['typescript', `lang${i}`] },
          ],
          undefined,
        ),
      );
    }
    expect(validators).toHaveLength(10_000);
    expect(cache.size).toBe(0);
    expect(ajvStats(cache)).toEqual({ instances: 0, compiled: 0, pinned: 0 });
  });
});

const sharedSchemaText = JSON.stringify({
  type: 'object',
  properties: {
    code: { type: 'string', maxLength: 10_000 },
    language: { type: 'string', enum: ['typescript', 'python'] },
    depth: { type: 'integer', minimum: 1, default: 2 },
    tags: { type: 'array', items: { type: 'string' }, default: [] },
  },
  required: ['code', 'language'],
});

describe('check() at registration', () => {
  it('checks without compiling: ajv compiles nothing until the first validate', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'n', type: 'integer', minimum: 0 }], undefined).check();
    const validators = [];
    for (let i = 1; i <= 50; i++) {
      const validator = cache.compile(
        [
          { name: 'n', type: 'integer', minimum: i, default: i },
          { name: 'tags', type: 'array', items: { type: 'string' }, default: [String(i)] },
        ],
        undefined,
      );
      validator.check();
      validators.push(validator);
    }
    expect(cache.size).toBe(51);
    expect(ajvStats(cache).pinned).toBe(0);
    expect(validators[0]?.validate({ n: '0' }).ok).toBe(false);
    expect(ajvStats(cache).pinned).toBe(1);
  });

  it('rejects invalid limit options on check(), on the fast path too', () => {
    const cases = [
      [{ maxLength: -1 }, '/maxLength', 'options.maxLength must be a non-negative integer, got -1'],
      [{ maxDepth: 1.5 }, '/maxDepth', 'options.maxDepth must be a non-negative integer, got 1.5'],
      [{ maxItems: -1 }, '/maxItems', 'options.maxItems must be a non-negative integer, got -1'],
      [{ maxBytes: Number.NaN }, '/maxBytes', 'options.maxBytes must be a non-negative integer, got NaN'],
    ] as const;
    for (const [options, path, message] of cases) {
      const validator = new ArgumentValidatorCache().compile([{ name: 'a' }], undefined, options);
      const error = thrownBy(() => validator.check());
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(problemOf(error)).toEqual({ path, message });
    }
  });

  it('checks 10,000 fast-path prompts without creating ajv or keeping a schema', () => {
    const cache = new ArgumentValidatorCache();
    for (const def of sameShapeCatalogue(10_000)) cache.compile(def.arguments, undefined).check();
    expect(ajvStats(cache)).toEqual({ instances: 0, compiled: 0, pinned: 0 });
    expect(cache.size).toBe(0);
  });

  it('checks 10,000 identical inputSchemas once, sharing the result', () => {
    const schemas = Array.from({ length: 10_000 }, () => JSON.parse(sharedSchemaText) as JsonSchema);
    const cache = new ArgumentValidatorCache();
    const validators = schemas.map((schema) => {
      const validator = cache.compile(undefined, schema);
      validator.check();
      return validator;
    });
    // One shared entry, checked when it was new and only then: its defaults went through ajv once, not 10,000 times.
    // The meta-schema check is the process's shared checker's: the one instance held is the compiling one.
    expect(cache.size).toBe(1);
    expect(ajvStats(cache)).toEqual({ instances: 1, compiled: 1, pinned: 0 });
    for (const validator of validators) validator.release();
    expect(cache.size).toBe(0);
  });

  it('shares one entry between identical schemas whose keys come in a different order', () => {
    const cache = new ArgumentValidatorCache();
    const a = cache.compile(undefined, { type: 'object', properties: { n: { type: 'integer', default: 1 } } });
    const b = cache.compile(undefined, { properties: { n: { default: 1, type: 'integer' } }, type: 'object' });
    a.check();
    b.check();
    expect(cache.size).toBe(1);
    expect(b.validate({ n: '2' })).toEqual({ ok: true, arguments: { n: 2 } });
    a.release();
    b.release();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing for a schema that fails its check, and leaves nothing compiled in ajv', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'n', type: 'integer', minimum: 0 }], undefined).check();
    const badDefault: PromptArgumentDefinition[] = [
      { name: 'tags', type: 'array', items: { type: 'string' }, default: [1] as unknown as string[] },
    ];
    expect(() => cache.compile(badDefault, undefined).check()).toThrow(/default value at \/0 must be string/);
    expect(cache.size).toBe(1);
    expect(ajvStats(cache).pinned).toBe(0);
  });

  it('still checks a validator released before its check, holding nothing', () => {
    const cache = new ArgumentValidatorCache();
    const good = cache.compile([{ name: 'n', type: 'integer', default: 1 }], undefined);
    const bad = cache.compile([{ name: 'n', type: 'integer', default: 'one' as unknown as number }], undefined);
    good.release();
    bad.release();
    expect(() => good.check()).not.toThrow();
    expect(() => bad.check()).toThrow(/default value must be integer/);
    expect(good.validate({})).toEqual({ ok: true, arguments: { n: 1 } });
    expect(cache.size).toBe(0);
  });

  it('is idempotent, and a validator checked then validated holds one reference', () => {
    const cache = new ArgumentValidatorCache();
    const validator = cache.compile([{ name: 'n', type: 'integer' }], undefined);
    validator.check();
    validator.check();
    validator.validate({ n: '1' });
    expect(cache.size).toBe(1);
    validator.release();
    expect(cache.size).toBe(0);
  });
});

describe('validatePromptArguments (standalone) cache', () => {
  it('gives correct answers while cycling through more declarations than its cache holds', () => {
    const decl = (i: number): PromptArgumentDefinition[] => [{ name: 'n', type: 'integer', maximum: i }];
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < 300; i++) {
        expect(validatePromptArguments({ n: String(i) }, decl(i)).ok).toBe(true);
        expect(validatePromptArguments({ n: String(i + 1) }, decl(i)).ok).toBe(false);
      }
    }
  });

  it('does not confuse declarations that differ only in options', () => {
    const args: PromptArgumentDefinition[] = [{ name: 'a' }];
    expect(validatePromptArguments({ a: 'abcd' }, args).ok).toBe(true);
    expect(validatePromptArguments({ a: 'abcd' }, args, undefined, { maxLength: 3 }).ok).toBe(false);
    expect(validatePromptArguments({ b: 'x' }, args, undefined, { extraArguments: 'reject' }).ok).toBe(false);
    expect(validatePromptArguments({ b: 'x' }, args).ok).toBe(true);
  });
});

describe('ajv memory: recycling the compiling instance', () => {
  /** A recycle limit 50 times lower than the default: the same mechanism in a fiftieth of the schemas. */
  const RECYCLE_AT = RECYCLE_MIN / 50;
  /** ajv keeps every schema an instance compiled: the bound on what the compiling instances held still hold. */
  const retainedBound = (live: number): number => 2 * (live + Math.max(RECYCLE_AT, 2 * live) + 1);

  /** A distinct schema per `i`, with a pattern (kept in ajv's scope too) and a default checked through ajv. */
  const distinct = (i: number): JsonSchema => ({
    type: 'object',
    properties: {
      n: { type: 'integer', maximum: i },
      s: { type: 'string', pattern: `^x${i}a*$` },
      tags: { type: 'array', items: { type: 'string' }, default: [`t${i}`] },
    },
  });

  it('keeps what ajv retains bounded while 5 recycle limits of distinct schemas are replaced, and every validator keeps working', () => {
    const cache = new ArgumentValidatorCache({}, RECYCLE_AT);
    const longLived: { i: number; validator: ReturnType<ArgumentValidatorCache['compile']> }[] = [];
    const released = cache.compile(undefined, distinct(-1));
    expect(released.validate({ n: '-1' }).ok).toBe(true);
    released.release();
    let current = cache.compile(undefined, distinct(0));
    current.check();
    let maxCompiled = 0;
    let maxInstances = 0;
    let recycles = 0;
    let previousCompiled = 0;
    for (let i = 1; i <= 5 * RECYCLE_AT; i++) {
      // Prompts that stay registered, compiled by different ajv generations.
      if (i % (1.5 * RECYCLE_AT) === 0) {
        const validator = cache.compile(undefined, distinct(100_000 + i));
        expect(validator.validate({ n: '5' }).ok).toBe(true);
        longLived.push({ i, validator });
      }
      const next = cache.compile(undefined, distinct(i));
      next.check();
      expect(next.validate({ n: String(i + 1) }).ok).toBe(false);
      expect(next.validate({ n: String(i), s: `x${i}aa` }).ok).toBe(true);
      current.release();
      current = next;
      const stats = ajvStats(cache);
      if (stats.compiled < previousCompiled) recycles++;
      previousCompiled = stats.compiled;
      maxCompiled = Math.max(maxCompiled, stats.compiled);
      maxInstances = Math.max(maxInstances, stats.instances);
    }
    // 5 x RECYCLE_AT x (one default check + one compile) went through ajv; far less of it is still held.
    expect(recycles).toBeGreaterThanOrEqual(4);
    expect(maxCompiled).toBeLessThanOrEqual(retainedBound(cache.size + 1));
    expect(maxCompiled).toBeLessThan(5 * RECYCLE_AT);
    // The compiling instance and at most one retired one (the meta-schema checker is shared by every store).
    expect(maxInstances).toBeLessThanOrEqual(2);
    // Prompts compiled two ajv generations ago lost their function with that instance (the first one, at least)...
    expect(ajvStats(cache).pinned).toBeLessThan(longLived.length + 1);
    // ...and still validate (compiled again on use), as does a released one.
    for (const { i, validator } of longLived) {
      expect(validator.validate({ n: String(100_000 + i) }).ok).toBe(true);
      expect(validator.validate({ n: String(100_001 + i) }).ok).toBe(false);
    }
    expect(ajvStats(cache).pinned).toBe(longLived.length + 1);
    expect(released.validate({ n: '0' }).ok).toBe(false);
    for (const { validator } of longLived) validator.release();
    current.release();
    expect(cache.size).toBe(0);
    expect(ajvStats(cache).pinned).toBe(0);
  });

  it('keeps what ajv retains bounded for the standalone function over 10 recycle limits of distinct declarations', () => {
    // The standalone function's LRU, smaller than STANDALONE_CACHE_SIZE so the bound is reached in a few hundred
    // declarations.
    const capacity = 8;
    const recent = new RecentValidators(capacity, RECYCLE_AT);
    const validate = (provided: Record<string, string>, declared: PromptArgumentDefinition[]) =>
      recent.get(declared, undefined, undefined).validate(provided);
    const decl = (i: number): PromptArgumentDefinition[] => [
      { name: 'n', type: 'integer', maximum: i },
      { name: 's', pattern: `^y${i}b*$` },
    ];
    let maxCompiled = 0;
    let recycles = 0;
    let previousCompiled = 0;
    for (let i = 0; i < 10 * RECYCLE_AT; i++) {
      expect(validate({ n: String(i) }, decl(i)).ok).toBe(true);
      expect(validate({ n: String(i + 1) }, decl(i)).ok).toBe(false);
      const compiled = recent.cache.stats().compiled;
      if (compiled < previousCompiled) recycles++;
      previousCompiled = compiled;
      maxCompiled = Math.max(maxCompiled, compiled);
    }
    // At most `capacity` declarations stay compiled (its LRU).
    expect(recent.cache.size).toBeLessThanOrEqual(capacity);
    expect(recycles).toBeGreaterThanOrEqual(4);
    expect(maxCompiled).toBeLessThanOrEqual(retainedBound(capacity));
    expect(maxCompiled).toBeLessThan(10 * RECYCLE_AT);
  });
});

describe('enum and uniqueItems take one lookup per value', () => {
  const detailsOf = (result: ReturnType<typeof validatePromptArguments>): unknown[] =>
    result.ok ? [] : ((result.error.data as { details?: unknown[] }).details ?? []);

  // Sizes where ajv's own keywords (a comparison per allowed value, or per pair of items) would take minutes.
  it('checks 100,000 items against a 200,000-value enum, with the enum error and deep equality as before', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
    const schema = object({ xs: { type: 'array', items: { enum: values } } });
    const limits = { maxItems: 100_000 };
    expect(validatePromptArguments({ xs: ['v1', 'v199999'] }, undefined, schema, limits).ok).toBe(true);
    const result = validatePromptArguments(
      { xs: Array.from({ length: 100_000 }, () => 'zz') },
      undefined,
      schema,
      limits,
    );
    expect(detailsOf(result)[0]).toEqual({
      argument: 'xs',
      keyword: 'enum',
      message: `/0: must be one of: ${values.slice(0, 10).join(', ')}, …`,
    });
    expect(result.ok === false && result.error.data).toMatchObject({ total_errors: 100_000 });
    // Objects and arrays still compare deeply, whatever their key order.
    const mixed = object({ a: { enum: ['x', 1, { k: [1, { m: 2, n: 3 }] }, [3]] } });
    for (const a of ['x', 1, { k: [1, { n: 3, m: 2 }] }, [3]])
      expect(validatePromptArguments({ a }, undefined, mixed).ok).toBe(true);
    for (const a of ['y', 2, { k: [{ m: 2, n: 3 }, 1] }, [3, 3], { k: [1, { m: 2 }] }, true]) {
      expect(detailsOf(validatePromptArguments({ a }, undefined, mixed))).toMatchObject([
        { argument: 'a', keyword: 'enum' },
      ]);
    }
  });

  it('checks uniqueItems over 100,000 objects in one pass, naming the last pair of equal items as before', () => {
    const schema = object({ xs: { type: 'array', uniqueItems: true } });
    const limits = { maxItems: 400_000, maxBytes: 20_000_000 };
    const xs: unknown[] = Array.from({ length: 100_000 }, (_, i) => ({ i, tag: 'same' }));
    expect(validatePromptArguments({ xs }, undefined, schema, limits).ok).toBe(true);
    xs.push({ tag: 'same', i: 7 }, 'a', 1, 'a');
    expect(detailsOf(validatePromptArguments({ xs }, undefined, schema, limits))).toEqual([
      {
        argument: 'xs',
        keyword: 'uniqueItems',
        message: 'must NOT have duplicate items (items ## 100001 and 100003 are identical)',
      },
    ]);
    expect(validatePromptArguments({ xs: ['1', 1, [1], { a: 1 }, [{ a: 1 }]] }, undefined, schema).ok).toBe(true);
  });
});

describe('cache keys keep non-JSON values apart', () => {
  it('rejects NaN and Infinity in a schema with their location, whatever was registered before', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile(undefined, object({ n: { type: 'number', default: null } })).check();
    cache.compile(undefined, object({ n: { const: null } })).check();
    const inf = thrownBy(() => cache.compile(undefined, object({ n: { type: 'number', default: Infinity } })).check());
    expect(problemOf(inf)).toEqual({
      path: '/inputSchema/properties/n/default',
      message: 'must be a JSON value (got Infinity)',
    });
    const nan = thrownBy(() => cache.compile(undefined, object({ n: { const: NaN } })).check());
    expect(problemOf(nan).path).toBe('/inputSchema/properties/n/const');
  });

  it('does not let an undefined property share the check of a schema without it', () => {
    const cache = new ArgumentValidatorCache();
    cache.compile(undefined, object({ b: { type: 'string' } })).check();
    const validator = cache.compile(undefined, object({ a: undefined, b: { type: 'string' } }));
    expect(thrownBy(() => validator.check()).code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it("does not let options.maxLength '5' share the plan of 5", () => {
    const cache = new ArgumentValidatorCache();
    cache.compile([{ name: 'x', type: 'integer' }], undefined, { maxLength: 5 }).check();
    const validator = cache.compile([{ name: 'x', type: 'integer' }], undefined, {
      maxLength: '5' as unknown as number,
    });
    expect(thrownBy(() => validator.check()).code).toBe('INVALID_PROMPT_DEFINITION');
  });

  it('reads an options object again after it was changed', () => {
    const cache = new ArgumentValidatorCache();
    const options: { maxLength?: number } = { maxLength: 5 };
    cache.compile([{ name: 'x' }], undefined, options);
    options.maxLength = 50;
    expect(cache.compile([{ name: 'x' }], undefined, options).validate({ y: 'abcdefghij' }).ok).toBe(true);
  });
});
