// TypeScript consumer of the INSTALLED mcp-prompt-kit: type-checked (never run) by scripts/consumer/smoke.mjs under
// `moduleResolution: node16` and `bundler`, strict, skipLibCheck false. Every `@ts-expect-error` below must still be
// an error: if a public type degrades to `any`, the check fails. Typed definitions (`review` mixes a required string
// with optional integer/boolean arguments) must stay assignable to the PromptDefinition that `registry.add` takes.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type {
  GetPromptResult as SdkGetPromptResult,
  ListPromptsResult as SdkListPromptsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { PromptRegistry, definePrompt, handleJsonRpc, isPromptError } from 'mcp-prompt-kit';
import type {
  GetPromptResult,
  JsonRpcResponse,
  ListPromptsResult,
  PromptDefinition,
  PromptErrorCode,
  PromptRegistryOptions,
} from 'mcp-prompt-kit';
import { attachPrompts } from 'mcp-prompt-kit/mcp';
import type { AttachPromptsOptions, DetachPrompts } from 'mcp-prompt-kit/mcp';

export const review = definePrompt({
  name: 'review-code',
  arguments: [
    { name: 'code', required: true },
    { name: 'language', enum: ['ts', 'go'], default: 'ts' },
    { name: 'maxIssues', type: 'integer' },
    { name: 'strict', type: 'boolean' },
  ],
  render: (args) => {
    const code: string = args.code;
    const language: 'ts' | 'go' = args.language;
    const maxIssues: number | undefined = args.maxIssues;
    const strict: boolean | undefined = args.strict;
    // @ts-expect-error an optional argument may be absent
    const mustBeThere: number = args.maxIssues;
    // @ts-expect-error `code` is a string
    const notANumber: number = args.code;
    // @ts-expect-error an undeclared argument name is a type error
    void args.undeclared;
    void mustBeThere;
    void notANumber;
    return `Review this ${language} code (${maxIssues ?? 'all'} issues, strict: ${String(strict)}):\n${code}`;
  },
});

export const reviewStrings = definePrompt({
  name: 'review-strings',
  arguments: [
    { name: 'code', required: true },
    { name: 'language', enum: ['ts', 'go'], default: 'ts' },
    { name: 'focus' },
  ],
  render: (args) =>
    `Review this ${args.language} code${args.focus === undefined ? '' : ` for ${args.focus}`}:\n${args.code}`,
});

export const greet: PromptDefinition = definePrompt({
  name: 'greet',
  arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user', content: 'Hello, {{who}}!' }],
});

const options: PromptRegistryOptions = {
  pageSize: 10,
  onResourceError: 'inline',
  extraArguments: 'reject',
  limits: { maxRenderedBytes: 65_536 },
};
// @ts-expect-error not an extraArguments mode
export const badOptions: PromptRegistryOptions = { extraArguments: 'ignore' };

export async function serve(): Promise<SdkGetPromptResult> {
  const registry = new PromptRegistry(options);
  registry.add([review, reviewStrings, greet]);

  const result: GetPromptResult = await registry.getPrompt('review-strings', { code: 'let x = 1' });
  const forTheSdk: SdkGetPromptResult = result;
  const listed: ListPromptsResult = registry.list();
  const listedForTheSdk: SdkListPromptsResult = listed;
  void listedForTheSdk;

  const response: JsonRpcResponse | null = await handleJsonRpc(registry, {
    jsonrpc: '2.0',
    id: 1,
    method: 'prompts/list',
  });
  if (response !== null && 'error' in response) {
    const code: number = response.error.code;
    void code;
  }

  try {
    await registry.getPrompt('missing');
  } catch (error) {
    if (isPromptError(error)) {
      const code: PromptErrorCode = error.code;
      const status: number = error.httpStatus;
      void code;
      void status;
    }
  }

  const server = new McpServer({ name: 'typed-consumer', version: '1.0.0' });
  const attachOptions: AttachPromptsOptions = { debounceMs: 10, completions: true };
  const detach: DetachPrompts = attachPrompts(server, registry, attachOptions);
  // @ts-expect-error attachPrompts needs an SDK server, not any object
  attachPrompts({}, registry);
  detach();
  return forTheSdk;
}
