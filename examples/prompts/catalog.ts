/**
 * The example prompt catalogue: every `*.json` definition in this folder, plus the documents they embed.
 * (The prompt-file loader with YAML/Markdown and hot reload is `mcp-prompt-kit/fs`; this example just reads JSON.)
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

/** A registry serving the example prompts; `{{resource:docs://style-guide}}` resolves to style-guide.md. */
export function createExampleRegistry(): PromptRegistry {
  const resources = createMemoryResourceResolver({
    'docs://style-guide': { mimeType: 'text/markdown', text: readFileSync(join(HERE, 'style-guide.md'), 'utf8') },
  });
  const registry = new PromptRegistry({ resources });
  registry.add(loadExamplePrompts());
  return registry;
}
