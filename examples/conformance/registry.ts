/**
 * The official MCP conformance suite's prompt fixtures, as prompt definitions (data: prompts.json), plus the two
 * things JSON cannot hold: completion values for `arg1`, and the resource the embedded-resource prompt embeds.
 */
import { readFileSync } from 'node:fs';
import { PromptRegistry, parsePromptDefinition } from '../../src/index.js';
import type { PromptDefinition, ResourceResolver } from '../../src/index.js';

const ARG1_SUGGESTIONS = ['paris', 'park', 'party', 'test', 'testValue1'];

/** Every `test://` URI reads as the suite's fixture text (the suite passes `test://example-resource`). */
const conformanceResources: ResourceResolver = {
  read: (uri) =>
    uri.startsWith('test://')
      ? { uri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }
      : undefined,
};

/** The four fixture prompts, validated. */
export function conformancePrompts(): PromptDefinition[] {
  const data: unknown = JSON.parse(readFileSync(new URL('./prompts.json', import.meta.url), 'utf8'));
  if (!Array.isArray(data)) throw new TypeError('examples/conformance/prompts.json must hold an array');
  return data.map((item) => {
    const def = parsePromptDefinition(item, { source: 'examples/conformance/prompts.json' });
    if (def.name !== 'test_prompt_with_arguments' || def.arguments === undefined) return def;
    const args = def.arguments.map((a) =>
      a.name === 'arg1'
        ? {
            ...a,
            complete: (value: string) =>
              ARG1_SUGGESTIONS.filter((s) => s.toLowerCase().startsWith(value.toLowerCase())),
          }
        : a,
    );
    return { ...def, arguments: args };
  });
}

/** A registry serving exactly the conformance suite's prompts. */
export function createConformanceRegistry(): PromptRegistry {
  const registry = new PromptRegistry({ resources: conformanceResources });
  registry.add(conformancePrompts());
  return registry;
}
