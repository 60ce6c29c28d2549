/**
 * What the preview page shows, kept in step with the prompt directory by the watcher: the listing, each prompt's
 * diagnostics, the previous good version of each changed prompt, and renderings (with diffs) on request.
 */
import { toPromptError } from '../../errors.js';
import type { PromptDefinition } from '../../definition/types.js';
import { PromptRegistry } from '../../registry/registry.js';
import { formatPromptResult } from '../../response.js';
import type { ResourceResolver } from '../../resources.js';
import type { GetPromptResult, JsonRpcErrorObject } from '../../types.js';
import { createFileAssetLoader } from '../../fs/assets.js';
import type { PromptFileDiagnostic } from '../../fs/diagnostics.js';
import { posix } from 'node:path';
import { formatDiagnostic } from '../../fs/diagnostics.js';
import type { PromptDirectoryChange } from '../../fs/directory-state.js';
import { fileContext } from '../../fs/load.js';
import { parsePromptText } from '../../fs/prompt-file.js';
import type { FileResourceResolver } from '../../fs/resolver.js';
import { watchPromptDirectory } from '../../fs/watch.js';
import type { PromptDirectoryWatcher } from '../../fs/watch.js';
import { diffLines } from '../../cases/diff.js';
import type { DiffLine } from '../../cases/diff.js';
import { previewFields } from './fields.js';
import type { PreviewField } from './fields.js';
import { readAtHead } from './git.js';

/** A diagnostic as the page shows it: the compiler-style line and its place. */
export interface ShownDiagnostic {
  text: string;
  file: string;
  line?: number;
  column?: number;
  severity: 'error' | 'warning';
}

/** One prompt of the listing. */
export interface ListedPrompt {
  name: string;
  title?: string;
  description?: string;
  tags: string[];
  /** Its file, relative to the directory (POSIX). */
  file?: string;
  /** Errors of its file: the prompt shown is its last good version. */
  broken: boolean;
}

/** The page's listing. */
export interface PreviewListing {
  version: number;
  prompts: ListedPrompt[];
  /** Diagnostics of files that serve no prompt (a new file that does not parse, duplicates, the directory gone). */
  problems: ShownDiagnostic[];
}

/** One prompt in full, for its form. */
export interface PreviewPrompt extends ListedPrompt {
  fields: PreviewField[];
  diagnostics: ShownDiagnostic[];
}

/** A rendering's outcome: what prompts/get returns, or its JSON-RPC error. */
export type Outcome = { result: GetPromptResult } | { error: JsonRpcErrorObject };

/** A diff of the rendering against another version of the prompt. */
export interface RenderDiff {
  against: 'previous' | 'git HEAD';
  lines: DiffLine[];
  changed: boolean;
}

/** What the state tells the page about. */
export type PreviewEvent =
  | { type: 'change'; version: number; set: string[]; removed: string[] }
  | { type: 'diagnostics'; version: number }
  | { type: 'documents'; version: number; uris: string[] };

/** Options of {@link PreviewState.open}. */
export interface PreviewStateOptions {
  dir: string;
  resolver: FileResourceResolver | undefined;
  debounceMs: number;
  onEvent: (event: PreviewEvent) => void;
}

const NO_DOCUMENTS: ResourceResolver = { read: () => undefined, list: () => [] };

/** A diagnostic named relative to the previewed directory (the page shows the directory's files, not the path to it). */
function shown(d: PromptFileDiagnostic, prefix: string): ShownDiagnostic {
  const file = prefix !== '' && d.file.startsWith(prefix) ? d.file.slice(prefix.length) : d.file;
  const out: ShownDiagnostic = { text: formatDiagnostic({ ...d, file }), file, severity: d.severity };
  if (d.line !== undefined) out.line = d.line;
  if (d.column !== undefined) out.column = d.column;
  return out;
}

/** The text a diff compares: the messages as `render` prints them, or the error. */
function outcomeText(outcome: Outcome, name: string): string {
  if ('result' in outcome) return formatPromptResult(outcome.result, name);
  const data = outcome.error.data === undefined ? '' : `\n${JSON.stringify(outcome.error.data, null, 2)}`;
  return `Error ${outcome.error.code}: ${outcome.error.message}${data}`;
}

/** The state behind one preview page. */
export class PreviewState {
  readonly registry: PromptRegistry;
  readonly #dir: string;
  /** What diagnostics put before a file's path relative to the directory (`prompts/`). */
  readonly #prefix: string;
  readonly #resources: ResourceResolver;
  #watcher: PromptDirectoryWatcher | undefined;
  #version = 0;
  /** The definition served under each name, and the one it replaced. */
  readonly #current = new Map<string, PromptDefinition>();
  readonly #previous = new Map<string, PromptDefinition>();
  /** Registries rendering a previous or HEAD version (compiled once per definition). */
  readonly #scratch = new WeakMap<PromptDefinition, PromptRegistry>();

  private constructor(dir: string, resources: ResourceResolver) {
    this.#dir = dir;
    const joined = posix.join(dir.split('\\').join('/'), '.');
    this.#prefix = joined === '.' ? '' : `${joined.replace(/\/$/, '')}/`;
    this.#resources = resources;
    this.registry = new PromptRegistry({ assets: createFileAssetLoader(dir), resources });
  }

  /** Loads the directory and starts watching it (rejects when the directory cannot be read). */
  static async open(options: PreviewStateOptions): Promise<PreviewState> {
    const state = new PreviewState(options.dir, options.resolver ?? NO_DOCUMENTS);
    const emit = options.onEvent;
    state.#watcher = watchPromptDirectory(options.dir, state.registry, {
      debounceMs: options.debounceMs,
      ...(options.resolver === undefined ? {} : { resources: options.resolver }),
      onChange: (change) => emit(state.#changed(change)),
      onDiagnosticsChange: () => emit({ type: 'diagnostics', version: ++state.#version }),
      // A saved cases file: the page runs that prompt's cases again, as after a change of the prompt.
      onCasesChange: (names) => emit({ type: 'change', version: ++state.#version, set: names, removed: [] }),
      onResourcesChanged: (uris) => emit({ type: 'documents', version: ++state.#version, uris }),
    });
    try {
      await state.#watcher.ready;
    } catch (error) {
      await state.#watcher.close();
      throw error;
    }
    for (const definition of state.registry.definitions()) state.#current.set(definition.name, definition);
    return state;
  }

  #changed(change: PromptDirectoryChange): PreviewEvent {
    for (const name of change.set) {
      const before = this.#current.get(name);
      const now = this.registry.definition(name);
      if (before !== undefined && now !== undefined && before !== now) this.#previous.set(name, before);
      if (now !== undefined) this.#current.set(name, now);
    }
    for (const name of change.removed) {
      this.#current.delete(name);
      this.#previous.delete(name);
    }
    return { type: 'change', version: ++this.#version, set: [...change.set], removed: [...change.removed] };
  }

  get version(): number {
    return this.#version;
  }

  /** The file a served prompt comes from (as diagnostics name it). */
  sourceOf(name: string): string | undefined {
    return this.#watcher?.source(name)?.file;
  }

  /** Stops watching. */
  async close(): Promise<void> {
    await this.#watcher?.close();
  }

  #diagnostics(): PromptFileDiagnostic[] {
    return [...(this.#watcher?.diagnostics ?? [])];
  }

  #listed(definition: PromptDefinition, failing: ReadonlySet<string>): ListedPrompt {
    const source = this.#watcher?.source(definition.name);
    const entry: ListedPrompt = { name: definition.name, tags: [...(definition.tags ?? [])], broken: false };
    if (definition.title !== undefined) entry.title = definition.title;
    if (definition.description !== undefined) entry.description = definition.description;
    if (source !== undefined) {
      entry.file = source.rel;
      entry.broken = failing.has(source.file);
    }
    return entry;
  }

  /** Every prompt (sorted by name) and the problems no prompt owns. */
  listing(): PreviewListing {
    const diagnostics = this.#diagnostics();
    const failing = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
    const definitions = this.registry.definitions().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const prompts = definitions.map((d) => this.#listed(d, failing));
    const owned = new Set(this.registry.definitions().map((d) => this.#watcher?.source(d.name)?.file));
    const problems = diagnostics.filter((d) => !owned.has(d.file)).map((d) => shown(d, this.#prefix));
    return { version: this.#version, prompts, problems };
  }

  /** One prompt with its form and its file's diagnostics; `undefined` for an unknown name. */
  prompt(name: string): PreviewPrompt | undefined {
    const definition = this.registry.definition(name);
    const listing = this.registry.get(name);
    if (definition === undefined || listing === undefined) return undefined;
    const diagnostics = this.#diagnostics();
    const failing = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
    const entry = this.#listed(definition, failing);
    const file = this.#watcher?.source(name)?.file;
    return {
      ...entry,
      fields: previewFields(definition, listing.arguments ?? []),
      diagnostics: diagnostics.filter((d) => d.file === file).map((d) => shown(d, this.#prefix)),
    };
  }

  /** Renders through a registry; every failure becomes the JSON-RPC error prompts/get would answer. */
  async #outcome(registry: PromptRegistry, name: string, args: Record<string, string>): Promise<Outcome> {
    try {
      return { result: await registry.getPrompt(name, args) };
    } catch (error) {
      return { error: toPromptError(error).toJsonRpcError() };
    }
  }

  #scratchFor(definition: PromptDefinition): PromptRegistry {
    let registry = this.#scratch.get(definition);
    if (registry === undefined) {
      registry = new PromptRegistry({ assets: createFileAssetLoader(this.#dir), resources: this.#resources });
      registry.set(definition);
      this.#scratch.set(definition, registry);
    }
    return registry;
  }

  /** The prompt's definition at git HEAD (undefined outside a repository, or when HEAD has no valid version). */
  async #atHead(name: string): Promise<PromptDefinition | undefined> {
    const source = this.#watcher?.source(name);
    if (source === undefined) return undefined;
    const context = fileContext(this.#dir, {}, 'preview');
    const text = await readAtHead(this.#dir, source.rel, context.limits.maxFileBytes);
    if (text === undefined) return undefined;
    const parsed = await parsePromptText(source.rel, text, context);
    return parsed.definition;
  }

  /** The messages (or the error) prompts/get gives for `args`. */
  render(name: string, args: Record<string, string>): Promise<Outcome> {
    return this.#outcome(this.registry, name, args);
  }

  /**
   * The rendering for `args` diffed against the prompt's previous version and its git HEAD version, when there are
   * (a separate request: a git child process never holds up the messages).
   */
  async diffs(name: string, args: Record<string, string>): Promise<RenderDiff[]> {
    const text = outcomeText(await this.#outcome(this.registry, name, args), name);
    const diffs: RenderDiff[] = [];
    const bases: [RenderDiff['against'], PromptDefinition | undefined][] = [
      ['previous', this.#previous.get(name)],
      ['git HEAD', await this.#atHead(name)],
    ];
    for (const [against, definition] of bases) {
      if (definition === undefined) continue;
      let base: Outcome;
      try {
        base = await this.#outcome(this.#scratchFor(definition), definition.name, args);
      } catch (error) {
        base = { error: toPromptError(error).toJsonRpcError() };
      }
      const lines = diffLines(outcomeText(base, name), text);
      diffs.push({ against, lines, changed: lines.some((l) => l.op !== ' ') });
    }
    return diffs;
  }

  /** Completion suggestions for one argument (the prompt's completer, or its enum). */
  async complete(name: string, argument: string, value: string, args: Record<string, string>): Promise<string[]> {
    const values = await this.registry.complete(name, argument, value, { arguments: args });
    return [...values.values];
  }
}
