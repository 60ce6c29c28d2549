/** Regular expressions built per indentation, once each (at most 256 kept; others are built per call). */
export function perIndent(build: (indent: number) => RegExp): (indent: number) => RegExp {
  const cache = new Map<number, RegExp>();
  return (indent) => {
    let found = cache.get(indent);
    if (found === undefined) {
      found = build(indent);
      if (cache.size < 256) cache.set(indent, found);
    }
    return found;
  };
}
