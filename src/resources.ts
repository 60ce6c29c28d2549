/**
 * Where a render's outside content comes from: the {@link ResourceResolver} (directives and resource blocks) and the
 * {@link AssetLoader} (image and audio paths).
 *
 * @module
 */

/** The contents of one resource: text or base64 blob. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** Context passed to a resolver or asset loader on each call. */
export interface ResourceReadContext {
  /** The prompt being rendered. */
  promptName: string;
  /** Aborts when the request is cancelled or the render's resource timeout passes: stop reading then. */
  signal?: AbortSignal;
}

/**
 * Where embedded resources come from. `read` returns `undefined`/`null` (or throws a PromptError
 * `RESOURCE_NOT_FOUND`) for an unknown URI; `list` expands a glob pattern (`architecture://patterns/*`) and is only
 * needed for glob directives. Every entry `list` returns needs a string `uri` and a string `text` or `blob`.
 *
 * @example
 * ```ts
 * const resources: ResourceResolver = {
 *   read: (uri) => (uri === 'docs://guide' ? { uri, mimeType: 'text/markdown', text: '# Guide' } : undefined),
 * };
 * const registry = new PromptRegistry({ resources });
 * ```
 */
export interface ResourceResolver {
  read(
    uri: string,
    context: ResourceReadContext,
  ): ResourceContents | null | undefined | Promise<ResourceContents | null | undefined>;
  list?(pattern: string, context: ResourceReadContext): ResourceContents[] | Promise<ResourceContents[]>;
}

/**
 * Loads the bytes of `{type: "image" | "audio", path}` content at render time (mcp-prompt-kit/fs ships one). A string
 * result must be base64.
 *
 * @example
 * ```ts
 * const assets: AssetLoader = { read: (path) => new Uint8Array([0x89, 0x50, 0x4e, 0x47]) };
 * const registry = new PromptRegistry({ assets });
 * ```
 */
export interface AssetLoader {
  read(path: string, context: ResourceReadContext): Uint8Array | string | Promise<Uint8Array | string>;
}

/**
 * Whether contents of this MIME type travel as `text` (else as a base64 `blob`): `text/*`, JSON, YAML, XML, TOML,
 * SQL, JavaScript and the `+json` / `+xml` types. Parameters (`; charset=utf-8`) and case do not matter.
 */
export function isTextMimeType(mimeType: string): boolean {
  const type = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'image/svg+xml' ||
    /^application\/(?:json|yaml|x-yaml|xml|toml|sql|javascript|x-sh)$/.test(type) ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    type.endsWith('+yaml')
  );
}
