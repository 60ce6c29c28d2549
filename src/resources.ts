/**
 * The resource resolver interface used by `{{resource:URI}}` directives and `{type: "resource"}` content templates.
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

/** Context passed to a resolver on each call. */
export interface ResourceReadContext {
  /** The prompt being rendered. */
  promptName: string;
  /** Aborts slow reads when the request is cancelled. */
  signal?: AbortSignal;
}

/**
 * Where embedded resources come from. `read` returns `undefined`/`null` (or throws a PromptError
 * `RESOURCE_NOT_FOUND`) for an unknown URI; `list` expands a glob pattern (`architecture://patterns/*`) and is only
 * needed for glob directives.
 */
export interface ResourceResolver {
  read(
    uri: string,
    context: ResourceReadContext,
  ): ResourceContents | null | undefined | Promise<ResourceContents | null | undefined>;
  list?(pattern: string, context: ResourceReadContext): ResourceContents[] | Promise<ResourceContents[]>;
}
