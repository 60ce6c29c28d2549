/**
 * The JSON-Schema keywords a per-argument declaration may carry (copied into its property schema by the arguments
 * module, and accepted as argument keys by the definition parser).
 *
 * @module
 * @internal
 */
export const ARGUMENT_SCHEMA_KEYWORDS = [
  'type',
  'enum',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'default',
  'items',
] as const;

/**
 * Whether `value` is of the JSON Schema type `type` ('string', 'number' (finite), 'integer', 'boolean', 'null',
 * 'array', 'object'); false for any other type name. Shared by the definition parser (enum values and defaults)
 * and the arguments module (default checks), so they agree.
 */
export function matchesJsonType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}
