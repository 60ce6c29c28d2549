import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isPromptError } from '../../src/errors.js';
import { parsePromptDefinition, promptDefinitionSchema } from '../../src/definition/index.js';
import type { DefinitionProblem } from '../../src/definition/index.js';
import { invalidCases, validCases } from './cases.js';

const schemaFile = new URL('../../schema/prompt-definition.schema.json', import.meta.url);

function parserProblems(definition: unknown): DefinitionProblem[] {
  try {
    parsePromptDefinition(definition);
    return [];
  } catch (error) {
    if (!isPromptError(error)) throw error;
    return (error.data as { problems: DefinitionProblem[] }).problems;
  }
}

describe('promptDefinitionSchema', () => {
  it('the published schema file matches promptDefinitionSchema', () => {
    const text = readFileSync(schemaFile, 'utf8');
    expect(
      text,
      'schema/prompt-definition.schema.json is stale: regenerate it from promptDefinitionSchema ' +
        '(JSON.stringify(promptDefinitionSchema, null, 2) + "\\n")',
    ).toBe(`${JSON.stringify(promptDefinitionSchema, null, 2)}\n`);
  });

  it('is a draft-07 schema with the unpkg $id', () => {
    expect(promptDefinitionSchema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(promptDefinitionSchema['$id']).toBe('https://unpkg.com/mcp-prompt-kit/schema/prompt-definition.schema.json');
  });

  it('compiles in a fresh ajv with every strict option but strictRequired, without warnings', () => {
    const warnings: unknown[] = [];
    const logger = {
      log: () => {},
      warn: (...a: unknown[]) => warnings.push(a),
      error: (...a: unknown[]) => warnings.push(a),
    };
    const ajv = new Ajv({ strict: true, strictRequired: false, logger });
    expect(() => ajv.compile(promptDefinitionSchema)).not.toThrow();
    expect(warnings).toEqual([]);
  });

  it('is frozen, so no caller can change what every other caller validates against', () => {
    expect(Object.isFrozen(promptDefinitionSchema)).toBe(true);
    expect(Object.isFrozen(promptDefinitionSchema['properties'])).toBe(true);
  });
});

describe('the JSON Schema and parsePromptDefinition agree', () => {
  const validate = new Ajv({ allErrors: true }).compile(promptDefinitionSchema);

  describe.each(validCases)('accept $title', ({ definition }) => {
    it('the JSON Schema accepts it', () => {
      expect(validate(definition), JSON.stringify(validate.errors)).toBe(true);
    });
    it('parsePromptDefinition accepts it', () => {
      expect(parserProblems(definition)).toEqual([]);
    });
  });

  describe.each(invalidCases.filter((c) => c.parserOnly === undefined))('reject $title', ({ definition, paths }) => {
    it('the JSON Schema rejects it', () => {
      expect(validate(definition)).toBe(false);
    });
    it('parsePromptDefinition reports it at the expected JSON pointers', () => {
      expect(parserProblems(definition).map((p) => p.path)).toEqual(paths);
    });
  });

  describe.each(invalidCases.filter((c) => c.parserOnly === true))(
    'reject $title (a rule JSON Schema cannot express)',
    ({ definition, paths }) => {
      it('only parsePromptDefinition rejects it; the JSON Schema lets it through', () => {
        expect(parserProblems(definition).map((p) => p.path)).toEqual(paths);
        expect(validate(definition)).toBe(true);
      });
    },
  );
});
