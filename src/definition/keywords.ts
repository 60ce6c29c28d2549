/**
 * What the definition parser and the arguments module share: the JSON-Schema keywords of a per-argument declaration,
 * JSON type checks, and the size limits of definition data.
 *
 * @module
 * @internal
 */
import { isRecord } from '../json.js';

/**
 * The deepest nesting of definition data and argument schemas (deeper data is a definition error, not a stack
 * overflow).
 */
export const MAX_SCHEMA_DEPTH = 256;

/** Objects and arrays one piece of definition data may hold, a shared object counted each time it appears. */
export const MAX_SCHEMA_NODES = 100_000;

/** The JSON-Schema keywords a per-argument declaration may carry (copied into its property schema). */
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

/** Whether `value` is of the JSON Schema type `type` (a finite number for 'number'); false for unknown type names. */
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
      return isRecord(value);
    default:
      return false;
  }
}
