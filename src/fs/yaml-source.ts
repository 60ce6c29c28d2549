/** YAML prompt files and front matter: core schema, data only, unique keys, bounded aliases, pointer positions. */
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { unescapePointerSegment } from '../json.js';
import type { SourcePosition } from './diagnostics.js';
import type { SourceSyntaxError } from './json-source.js';

/** Most alias expansions one document may use (a "billion laughs" file is refused, not expanded). */
const MAX_ALIAS_COUNT = 100;

/** A parsed YAML text: its value, and the position of any JSON pointer in it (lines shifted by `lineOffset`). */
export interface YamlSource {
  value: unknown;
  locate(pointer: string): SourcePosition | undefined;
}

function nodeAt(root: YamlNode | null, pointer: string): { node: YamlNode; key?: YamlNode } | undefined {
  if (root === null) return undefined;
  if (pointer === '') return { node: root };
  let node: YamlNode = root;
  let key: YamlNode | undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = unescapePointerSegment(raw);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (pair === undefined) return undefined;
      key = pair.key as YamlNode;
      const value = pair.value as YamlNode | null;
      if (value === null) return { node: key, key };
      node = value;
    } else if (isSeq(node)) {
      const item = /^\d+$/.test(segment) ? (node.items[Number(segment)] as YamlNode | undefined) : undefined;
      if (item === undefined) return undefined;
      node = item;
      key = undefined;
    } else {
      return undefined;
    }
  }
  return key === undefined ? { node } : { node, key };
}

/** The first line of a yaml error message, without its " at line L, column C" suffix (we give the place apart). */
function shortMessage(message: string): string {
  const first = message.split('\n', 1)[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '');
}

/** Parses YAML text; `lineOffset` shifts reported lines (front matter starts after the opening `---`). */
export function parseYamlSource(text: string, lineOffset = 0): YamlSource | SourceSyntaxError {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    schema: 'core',
    merge: false,
    strict: true,
  });
  const place = (offset: number): SourcePosition => {
    const pos = lines.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  // An unknown tag (`!!js/function`, `!custom`) would silently become a string: prompt files are plain data, refuse it.
  const first = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (first !== undefined) return { message: `invalid YAML: ${shortMessage(first.message)}`, ...place(first.pos[0]) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml throws a ReferenceError for an alias bomb or an unresolved alias.
    return { message: `invalid YAML: ${error instanceof Error ? error.message : String(error)}`, ...place(0) };
  }
  return {
    value,
    locate(pointer) {
      const found = nodeAt(doc.contents as YamlNode | null, pointer);
      const range = (found?.key ?? found?.node)?.range;
      return range === undefined || range === null ? undefined : place(range[0]);
    },
  };
}
