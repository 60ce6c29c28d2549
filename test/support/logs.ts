/** A pino-style logger that records every entry, for tests that assert what was logged. */
import type { Logger } from '../../src/logger.js';

export interface LogLine {
  level: string;
  fields: Record<string, unknown>;
}

/** The logger, the lines it recorded, and their `event` fields in order. */
export function captureLogs(): { logger: Logger; lines: LogLine[]; events: () => unknown[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (fields: Record<string, unknown>) => void lines.push({ level, fields });
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    lines,
    events: () => lines.map((l) => l.fields['event']),
  };
}
