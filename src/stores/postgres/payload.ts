/**
 * NOTIFY payloads: what the store's triggers send (`{name, version, label}`), and nothing else. Anyone who can
 * connect may NOTIFY on the channel; a payload of another shape is not a change and must not make replicas reload.
 *
 * @module
 */
import { isRecord } from '../../json.js';
import type { StoreChangeEvent } from '../contract.js';

/** The triggers send names up to 1,000 bytes (longer ones as null: reload) and labels are short; this bounds both. */
const MAX_FIELD_LENGTH = 1_000;
const KEYS = ['label', 'name', 'version'];

const text = (value: unknown): value is string | null =>
  value === null || (typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH);

/**
 * The change a payload of ours announces, or undefined for a payload the triggers never send (ignore it). A name the
 * trigger could not fit (null) is a `reset`: read everything again.
 */
export function parsePayload(payload: string | undefined): StoreChangeEvent | undefined {
  // The largest payload of ours: two fields at their bound (each escaped to at most 6 bytes a character) and a number.
  if (payload === undefined || payload.length > 2 * 6 * MAX_FIELD_LENGTH + 100) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isRecord(data)) return undefined;
  const keys = Object.keys(data).sort();
  if (keys.length !== KEYS.length || keys.some((key, i) => key !== KEYS[i])) return undefined;
  const { name, version, label } = data as { name: unknown; version: unknown; label: unknown };
  if (!text(name) || !text(label)) return undefined;
  if (version !== null && !(typeof version === 'number' && Number.isSafeInteger(version) && version >= 1))
    return undefined;
  if (name === null) return { type: 'reset' };
  const labelled = label === null ? {} : { label };
  return version === null ? { type: 'delete', name, ...labelled } : { type: 'put', name, version, ...labelled };
}
