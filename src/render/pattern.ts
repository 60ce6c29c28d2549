/**
 * Resource URI globs: `*` matches any run of characters except `/`; `**` matches any run of characters including
 * `/`. Every other character (including `?`, `[`, `{`) matches itself. A pattern is a glob when it contains `*`.
 *
 * @module
 */

/**
 * Whether a directive URI is a glob (contains `*`).
 */
export function isResourcePattern(uri: string): boolean {
  return uri.includes('*');
}

/**
 * Compiles a glob into a matcher (use it when matching many URIs against one pattern).
 */
export function compileResourcePattern(pattern: string): (uri: string) => boolean {
  let source = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '[\\s\\S]*';
        while (pattern[i + 1] === '*') i++;
      } else {
        source += '[^/]*';
      }
    } else {
      source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  const re = new RegExp(`${source}$`);
  return (uri) => re.test(uri);
}

/**
 * Whether `uri` matches the glob `pattern` (`*`: any characters except `/`; `**`: any characters).
 *
 * @example
 * ```ts
 * matchResourcePattern('architecture://patterns/*', 'architecture://patterns/cqrs'); // true
 * matchResourcePattern('architecture://patterns/*', 'architecture://patterns/a/b'); // false
 * matchResourcePattern('architecture://**', 'architecture://patterns/a/b'); // true
 * ```
 */
export function matchResourcePattern(pattern: string, uri: string): boolean {
  return compileResourcePattern(pattern)(uri);
}
