/**
 * The example prompt catalogue of the core-only examples: the three `*.json` definitions at the top of this folder,
 * validated with the core's parsePromptDefinition, plus the document they embed. For a whole directory (JSON, YAML,
 * Markdown, subfolders, diagnostics with lines, hot reload) use `loadPromptDirectory` / `watchPromptDirectory` from
 * `mcp-prompt-kit/fs`, as load-directory.ts and serve-directory.ts here do.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PromptRegistry, createMemoryResourceResolver, parsePromptDefinition } from '../../src/index.js';
import type { PromptDefinition } from '../../src/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Reads and validates every prompt definition file (`*.json`) in examples/prompts. */
export function loadExamplePrompts(): PromptDefinition[] {
  return readdirSync(HERE)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => parsePromptDefinition(JSON.parse(readFileSync(join(HERE, file), 'utf8')), { source: file }));
}

/**
 * A registry serving the example prompts; `{{resource:docs://style-guide}}` resolves to examples/style/style-guide.md.
 */
export function createExampleRegistry(): PromptRegistry {
  const resources = createMemoryResourceResolver({
    'docs://style-guide': {
      mimeType: 'text/markdown',
      text: readFileSync(join(HERE, '../style/style-guide.md'), 'utf8'),
    },
  });
  const registry = new PromptRegistry({ resources });
  registry.add(loadExamplePrompts());
  return registry;
}
