import { PromptRegistry } from 'mcp-prompt-kit';
import {
  createFileAssetLoader,
  createFileResourceResolver,
  formatDiagnostic,
  loadPromptDirectory,
} from 'mcp-prompt-kit/fs';

const { definitions, diagnostics } = await loadPromptDirectory('examples/prompts');
for (const d of diagnostics) console.error(formatDiagnostic(d)); // file:line:col: message

const registry = new PromptRegistry({
  resources: createFileResourceResolver({ roots: { architecture: 'examples/docs', docs: 'examples/style' } }),
  assets: createFileAssetLoader('examples/prompts'), // {type: 'image', path} content, confined to the directory
});
registry.add(definitions);

const result = await registry.getPrompt('create-adr', { title: 'Adopt CQRS for reporting' });
console.log(result.messages[0]?.content.type === 'text' ? result.messages[0].content.text : '');
