/**
 * The compact parsed form of a template: an array of nodes where text is a plain (flat, sliced) string and everything
 * else is one {@link TagNode} shape, so the render loop's property reads stay monomorphic.
 *
 * @module
 * @internal
 */
/** `{{name}}`, `{{{name}}}` or `{{&name}}` (all the same: nothing is escaped). */
export const VARIABLE = 1;
/** `{{#name}}...{{/name}}` */
export const SECTION = 2;
/** `{{^name}}...{{/name}}` */
export const INVERTED = 3;
/** `{{resource:URI}}` (`key` holds the URI). */
export const DIRECTIVE = 4;

/** The kind of a {@link TagNode}. */
export type TagKind = typeof VARIABLE | typeof SECTION | typeof INVERTED | typeof DIRECTIVE;

/**
 * A tag of a compiled template (one shape for every kind, so the render loop stays monomorphic).
 */
export class TagNode {
  constructor(
    readonly kind: TagKind,
    /** The name (first segment of a dotted name, or `.`), or the URI of a directive. */
    readonly key: string,
    /** The remaining segments of a dotted name; `null` for a plain name. */
    readonly rest: readonly string[] | null,
    /** The body of a section; `null` otherwise. */
    readonly children: readonly TemplateNode[] | null,
  ) {}
}

/** One node of a compiled template: text, or a tag. */
export type TemplateNode = string | TagNode;
