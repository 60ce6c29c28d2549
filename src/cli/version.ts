/** The package version, read from its own package.json (works from src/ and dist/). */
import { createRequire } from 'node:module';

function readVersion(): string {
  try {
    const pkg = createRequire(import.meta.url)('mcp-prompt-kit/package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The version of mcp-prompt-kit. */
export const VERSION: string = readVersion();
