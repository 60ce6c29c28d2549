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
