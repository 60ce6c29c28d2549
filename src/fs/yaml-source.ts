/** YAML prompt files and front matter: core schema, data only, unique keys, bounded shape and aliases, pointer positions. */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Pair, Scalar, YAMLMap, Node as YamlNode } from 'yaml';
import { unescapePointerSegment } from '../json.js';
import { LineIndex } from './diagnostics.js';
import type { SourcePosition } from './diagnostics.js';
import type { SourceSyntaxError } from './json-source.js';
import { maskQuoted, readQuoted } from './yaml-quoted.js';
import { checkYamlShape } from './yaml-shape.js';

/** Most alias expansions one document may use (a "billion laughs" file is refused, not expanded). */
const MAX_ALIAS_COUNT = 100;

/** Deepest nesting read (the definition parser's own limit is 256 levels). */
const MAX_DEPTH = 256;

/** The default most nodes of one YAML text (keys, values and entries); see `PromptFileLimits.maxYamlNodes`. */
export const DEFAULT_MAX_YAML_NODES = 10_000;

/** A parsed YAML text: its value, and the position of any JSON pointer in it (lines shifted by `lineOffset`). */
export interface YamlSource {
  value: unknown;
  locate(pointer: string): SourcePosition | undefined;
}

/** A mapping's pairs by key, built once per mapping: a lookup per problem stays O(1) however wide the mapping. */
const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairOf(map: YAMLMap, segment: string): Pair | undefined {
  let index = pairIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const p of map.items as Pair[]) {
      if (!isScalar(p.key)) continue;
      const name = String(p.key.value);
      if (!index.has(name)) index.set(name, p);
    }
    pairIndex.set(map, index);
  }
  return index.get(segment);
}

function nodeAt(root: YamlNode | null, pointer: string): { node: YamlNode; key?: YamlNode } | undefined {
  if (root === null) return undefined;
  if (pointer === '') return { node: root };
  let node: YamlNode = root;
  let key: YamlNode | undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = unescapePointerSegment(raw);
    if (isMap(node)) {
      const pair = pairOf(node, segment);
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

/** Gives a stand-in scalar the value read from the original double-quoted text. */
function restoreQuoted(node: Scalar, quoted: ReadonlyMap<number, string>): void {
  const start = node.range?.[0];
  if (start === undefined || quoted.size === 0) return;
  const value = quoted.get(start);
  if (value === undefined) return;
  node.value = value;
}

/** A problem with its line and column. */
function located(place: (offset: number) => SourcePosition, problem: { message: string; offset: number }): SourceSyntaxError {
  return { message: `invalid YAML: ${problem.message}`, ...place(problem.offset) };
}

/** The first key of a mapping that repeats an earlier one (keys compared as the object property they become), or a non-scalar key. */
function keyProblem(
  root: YamlNode | null,
  maxNodes: number,
  quoted: ReadonlyMap<number, string>,
): { message: string; node: YamlNode; first?: YamlNode } | undefined {
  if (root === null) return undefined;
  const stack: YamlNode[] = [root];
  let nodes = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (++nodes > maxNodes) return { message: `more than ${maxNodes} YAML nodes (keys, values and entries)`, node };
    if (isScalar(node)) restoreQuoted(node, quoted);
    if (isMap(node)) {
      const seen = new Map<string, YamlNode>();
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (isScalar(key)) restoreQuoted(key, quoted);
        if (key !== null && !isScalar(key)) return { message: 'a mapping key must be a plain value, not a mapping, list or alias', node: key };
        const name = key === null || key.value === null ? '' : String(key.value);
        const first = seen.get(name);
        if (first !== undefined && key !== null) {
          return { message: `duplicate key '${name.length > 80 ? `${name.slice(0, 80)}…` : name}'`, node: key, first };
        }
        if (key !== null) seen.set(name, key);
        if (pair.value !== null && pair.value !== undefined) stack.push(pair.value as YamlNode);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) if (item !== null && item !== undefined) stack.push(item as YamlNode);
    }
  }
  return undefined;
}

/**
 * Parses YAML text; `lineOffset` shifts reported lines (front matter starts after the opening `---`). The text's
 * shape is checked first, in linear time (at most `maxNodes` nodes, 256 levels, 100 aliases); duplicate keys are
 * found with one map per mapping (the YAML library's own check is quadratic in a mapping's size).
 */
export function parseYamlSource(text: string, lineOffset = 0, maxNodes = DEFAULT_MAX_YAML_NODES): YamlSource | SourceSyntaxError {
  let lines: LineIndex | undefined;
  const placeOriginal = (offset: number): SourcePosition => {
    lines ??= new LineIndex(text);
    const pos = lines.position(offset);
    return { line: pos.line + lineOffset, column: pos.column };
  };
  const shape = checkYamlShape(text, { maxNodes, maxDepth: MAX_DEPTH, maxAliases: MAX_ALIAS_COUNT });
  if (shape.problem !== undefined) return located(placeOriginal, shape.problem);
  // Long quoted scalars are read here (linear); the parser sees short stand-ins.
  const masked = maskQuoted(text, shape.longQuoted);
  const quoted = new Map<number, string>();
  const standIns = masked.standIns;
  for (let i = 0; i < shape.longQuoted.length; i++) {
    const [start, end] = shape.longQuoted[i]!;
    const read = readQuoted(text, start, end);
    if (!('value' in read)) return located(placeOriginal, read);
    quoted.set(standIns[i]!, read.value);
  }
  const place = (offset: number): SourcePosition => placeOriginal(masked.original(offset));
  const doc = parseDocument(masked.text, {
    prettyErrors: false,
    uniqueKeys: false,
    schema: 'core',
    merge: false,
    strict: true,
  });
  // An unknown tag (`!!js/function`, `!custom`) would silently become a string: prompt files are plain data, refuse it.
  const first = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (first !== undefined) return { message: `invalid YAML: ${shortMessage(first.message)}`, ...place(first.pos[0]) };
  const keys = keyProblem(doc.contents as YamlNode | null, maxNodes, quoted);
  if (keys !== undefined) {
    const firstAt = keys.first?.range === undefined || keys.first.range === null ? undefined : place(keys.first.range[0]);
    const message = firstAt === undefined ? keys.message : `${keys.message} (first at line ${firstAt.line})`;
    return { message: `invalid YAML: ${message}`, ...place(keys.node.range?.[0] ?? 0) };
  }
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
