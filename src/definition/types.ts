/**
 * What a prompt IS, as authored: definitions, argument declarations and message templates.
 *
 * @module
 */
import type { GetPromptResult, Icon, JsonSchema, Meta, PromptMessage, Role } from '../types.js';
import type { ResourceResolver } from '../resources.js';

/** JSON-Schema type names an argument may declare. */
export type ArgumentType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

/** Context given to an argument's `complete` function. */
export interface CompletionContext {
  /** The prompt's name. */
  promptName: string;
  /** The other arguments already given by the client. */
  arguments: Readonly<Record<string, string>>;
  /** Aborts when the request is cancelled or the completion timeout (default 10 s) passes. */
  signal: AbortSignal;
}

/** A declared prompt argument: MCP metadata plus JSON-Schema keywords for its value. */
export interface PromptArgumentDefinition<N extends string = string> {
  name: N;
  title?: string;
  description?: string;
  /** `undefined` means optional. */
  required?: boolean;
  type?: ArgumentType;
  enum?: readonly (string | number | boolean | null)[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: JsonSchema;
  /** Completion source for `completion/complete` (wins over `enum`). */
  complete?: (value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>;
}

/** A text content template; every string field may hold mustache placeholders. */
export interface TextContentTemplate {
  type: 'text';
  text: string;
  _meta?: Meta;
}

/** An image or audio content template: inline base64 `data`, or a `path` loaded by an asset loader at render time. */
export interface MediaContentTemplate {
  type: 'image' | 'audio';
  data?: string;
  path?: string;
  mimeType: string;
  _meta?: Meta;
}

/** A resource content template: `uri` (templated) is resolved through the ResourceResolver into an EmbeddedResource. */
export interface ResourceContentTemplate {
  type: 'resource';
  uri: string;
  mimeType?: string;
  _meta?: Meta;
}

/** A resource link content template (not resolved; the client fetches it if it wants it). */
export interface ResourceLinkContentTemplate {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  mimeType?: string;
  description?: string;
  _meta?: Meta;
}

/** The content of a message template: a string is shorthand for a text block. */
export type ContentTemplate =
  | string
  | TextContentTemplate
  | MediaContentTemplate
  | ResourceContentTemplate
  | ResourceLinkContentTemplate;

/** A message template: one role (`user` | `assistant`) and ONE content template. */
export interface PromptMessageTemplate {
  role: Role;
  content: ContentTemplate;
}

/** What a programmatic `render` function may return. */
export type RenderOutput = string | PromptMessage[] | GetPromptResult;

/** Context given to a programmatic `render` function. */
export interface RenderContext {
  /** The prompt's name. */
  promptName: string;
  /** The registry's resource resolver, when it has one. */
  resources?: ResourceResolver;
  /** Aborted when the request is cancelled. */
  signal?: AbortSignal;
  /** Whatever the caller passed as request context (for example, the authenticated user). */
  extra?: Readonly<Record<string, unknown>>;
}

/** Maps a declared argument to the TypeScript type of its validated value. */
export type ArgumentValue<A> = A extends { enum: readonly (infer E)[] }
  ? E
  : A extends { type: 'number' | 'integer' }
    ? number
    : A extends { type: 'boolean' }
      ? boolean
      : A extends { type: 'array' }
        ? unknown[]
        : A extends { type: 'object' }
          ? Record<string, unknown>
          : A extends { type: 'string' }
            ? string
            : A extends { type: ArgumentType }
              ? unknown
              : string;

/** The declarations among `A` whose value is always present: required ones and those with a default. */
export type RequiredArgs<A extends readonly PromptArgumentDefinition[]> = Extract<
  A[number],
  { required: true } | { default: NonNullable<unknown> | null }
>;

/**
 * The validated arguments object a `render` function receives: required arguments (and those with a default) are
 * present; others are optional. When the names are not known to the type system (a plain `PromptDefinition`, or a
 * prompt declared by `inputSchema` only), it is a read-only record of unknown values.
 */
export type PromptArgs<A extends readonly PromptArgumentDefinition[]> = string extends A[number]['name']
  ? Readonly<Record<string, unknown>>
  : {
      [K in RequiredArgs<A> as K['name']]: ArgumentValue<K>;
    } & {
      [K in Exclude<A[number], RequiredArgs<A>> as K['name']]?: ArgumentValue<K>;
    };

/** Fields every prompt definition has. */
export interface PromptDefinitionBase<A extends readonly PromptArgumentDefinition[]> {
  /** Unique name: kebab-case or snake_case, at most 128 characters, no `/`, `\`, `..`, whitespace or control chars. */
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  /** Free-form labels (not sent on the wire). */
  tags?: string[];
  arguments?: A;
  /** A full JSON Schema for the arguments object; wins over per-argument keywords. */
  inputSchema?: JsonSchema;
}

/** A prompt defined by message templates. */
export interface TemplatePromptDefinition<
  A extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[],
> extends PromptDefinitionBase<A> {
  messages: readonly PromptMessageTemplate[];
  render?: undefined;
}

/** A prompt defined by a function. */
export interface ProgrammaticPromptDefinition<
  A extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[],
> extends PromptDefinitionBase<A> {
  messages?: undefined;
  /** Builds the messages; declared as a method so definitions with specific argument types stay assignable. */
  render(args: PromptArgs<A>, context: RenderContext): RenderOutput | Promise<RenderOutput>;
}

/** A prompt definition: templates or a render function. */
export type PromptDefinition<A extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[]> =
  | TemplatePromptDefinition<A>
  | ProgrammaticPromptDefinition<A>;

/** What to do with a legacy `role: "system"` message. */
export type SystemRolePolicy = 'reject' | 'user';

/** One problem found in a definition. */
export interface DefinitionProblem {
  /** JSON pointer into the definition, e.g. `/messages/0/role`. */
  path: string;
  message: string;
  /** 1-based line/column in the source text, when known. */
  line?: number;
  column?: number;
}

/** `data` of an `INVALID_PROMPT_DEFINITION` PromptError. */
export interface InvalidDefinitionData {
  source?: string;
  problems: DefinitionProblem[];
}
