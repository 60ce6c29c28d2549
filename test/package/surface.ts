/**
 * The pinned runtime exports of each package entry (generated from the build; an accidental export fails
 * test/package/surface.test.ts). Regenerate after an intended change:
 * `UPDATE_SURFACE=1 npx vitest run test/package/surface.test.ts`
 */
export const SURFACE: Readonly<Record<string, readonly string[]>> = {
  '.': [
    'DEFAULT_RENDER_LIMITS',
    'ERROR_TABLE',
    'JSON_RPC_ERROR_CODES',
    'JsonRpcError',
    'PROMPT_DEFINITION_SCHEMA_ID',
    'PromptError',
    'PromptRegistry',
    'argumentFailureToPromptError',
    'argumentNameProblem',
    'buildErrorResponse',
    'buildSuccessResponse',
    'compileTemplate',
    'createMemoryPromptStore',
    'createMemoryResourceResolver',
    'createPromptHandlers',
    'definePrompt',
    'errorResponseFor',
    'errorTableEntry',
    'formatPromptResult',
    'getArgumentSchema',
    'handleJsonRpc',
    'isPromptError',
    'matchResourcePattern',
    'normalizeLegacyPrompt',
    'parsePromptDefinition',
    'promptDefinitionSchema',
    'promptNameProblem',
    'syncRegistry',
    'toCallToolResult',
    'toPromptError',
    'utf8ByteLength',
    'validatePromptArguments',
  ],
  './mcp': [
    'DEFAULT_DEBOUNCE_MS',
    'attachPrompts',
    'completeFromResourceTemplates',
  ],
  './postgres': [
    'createPostgresPromptStore',
  ],
  './fs': [
    'DEFAULT_PROMPT_FILE_LIMITS',
    'createDirectoryPromptStore',
    'createFileAssetLoader',
    'createFileResourceResolver',
    'formatDiagnostic',
    'loadPromptDirectory',
    'promptFileFormat',
    'watchPromptDirectory',
  ],
};
