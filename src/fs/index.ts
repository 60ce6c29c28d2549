/**
 * `mcp-prompt-kit/fs`: prompt files (JSON, YAML, Markdown with front matter), hot reload, a file resource resolver
 * for `{{resource:scheme://path}}` directives, and a file asset loader for image/audio `path` content. Node only.
 *
 * Any new export added here becomes public API: named exports only.
 *
 * @module
 */
export { createFileAssetLoader } from './assets.js';
export type { FileAssetLoaderOptions } from './assets.js';
export { formatDiagnostic } from './diagnostics.js';
export type { DiagnosticSeverity, PromptFileDiagnostic } from './diagnostics.js';
export { loadPromptCases, loadPromptDirectory } from './load.js';
export type { LoadPromptDirectoryOptions, LoadedPromptCases, LoadedPromptDirectory, PromptFileEntry } from './load.js';
export { isCasesFileName } from './cases.js';
export { DEFAULT_PROMPT_FILE_LIMITS, promptFileFormat } from './prompt-file.js';
export type { PromptFileFormat, PromptFileLimits } from './prompt-file.js';
export { createFileResourceResolver } from './resolver.js';
export type {
  FileResource,
  FileResourceContents,
  FileResourceResolver,
  FileResourceResolverOptions,
} from './resolver.js';
export { watchPromptDirectory } from './watch.js';
export type { PromptDirectoryChange } from './directory-state.js';
export type { PromptDirectoryWatcher, WatchPromptDirectoryOptions } from './watch.js';
export { createDirectoryPromptStore } from './directory-store.js';
export type { DirectoryPromptStore, DirectoryPromptStoreOptions } from './directory-store.js';
export { createFileSnapshot } from './snapshot-file.js';
export type { FileSnapshotOptions } from './snapshot-file.js';
