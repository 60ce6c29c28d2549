// The published JSON Schema of prompt definitions, as a consumer reaches it through the exports map (ESM and CJS).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PROMPT_DEFINITION_SCHEMA_ID, promptDefinitionSchema } from 'mcp-prompt-kit';

const SPECIFIER = 'mcp-prompt-kit/schema/prompt-definition.schema.json';
const require = createRequire(import.meta.url);

const esmPath = fileURLToPath(import.meta.resolve(SPECIFIER));
const cjsPath = require.resolve(SPECIFIER);
assert.equal(esmPath, cjsPath, 'import and require resolve the schema to different files');
assert.match(esmPath, /[\\/]node_modules[\\/]mcp-prompt-kit[\\/]schema[\\/]prompt-definition\.schema\.json$/);

let schema;
try {
  schema = JSON.parse(readFileSync(esmPath, 'utf8'));
} catch (error) {
  throw new assert.AssertionError({ message: `${SPECIFIER} is not valid JSON: ${error.message}` });
}
assert.equal(typeof schema, 'object');
assert.equal(typeof schema.$id, 'string', `${SPECIFIER} has no $id`);
assert.equal(schema.$id, PROMPT_DEFINITION_SCHEMA_ID, 'the schema file $id differs from PROMPT_DEFINITION_SCHEMA_ID');
assert.deepEqual(require(SPECIFIER), schema, 'require() of the schema gives a different value');
assert.deepEqual(
  schema,
  JSON.parse(JSON.stringify(promptDefinitionSchema)),
  'the schema file differs from promptDefinitionSchema',
);
console.log(schema.$id);
