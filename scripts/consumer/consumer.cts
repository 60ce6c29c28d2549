// TypeScript CommonJS consumer (`.cts`, compiled to `require`): type-checked under `moduleResolution: node16` so the
// `require` branch of the exports map (dist/*.d.cts) is checked too, with skipLibCheck false.
import kit = require('mcp-prompt-kit');
import mcp = require('mcp-prompt-kit/mcp');
import type { GetPromptResult as SdkGetPromptResult } from '@modelcontextprotocol/sdk/types.js';

async function render(): Promise<SdkGetPromptResult> {
  const options: kit.PromptRegistryOptions = { maxArgumentLength: 1000 };
  const registry = new kit.PromptRegistry(options);
  registry.add(
    kit.definePrompt({
      name: 'greet',
      arguments: [{ name: 'who', required: true }],
      render: (args) => {
        const who: string = args.who;
        // @ts-expect-error an undeclared argument name is a type error
        void args.nobody;
        return `Hello, ${who}!`;
      },
    }),
  );
  const detach: mcp.DetachPrompts = () => undefined;
  detach();
  const result: kit.GetPromptResult = await registry.getPrompt('greet', { who: 'Ada' });
  return result;
}

void render;
