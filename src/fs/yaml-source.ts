/**
 * YAML prompt files and front matter: core schema, data only, unique keys, bounded shape and aliases, pointer
 * positions.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Pair, Scalar, YAMLMap, Node as YamlNode } from 'yaml';
import { unescapePointerSegment } from '../json.js';
import { LineIndex } from './diagnostics.js';
import type { SourcePosition } from './diagnostics.js';
import type { SourceSyntaxError } from './json-source.js';
import { findBlockScalar, readBlockScalar, readFoundBlock } from './yaml-block.js';
import type { BlockScalar } from './yaml-block.js';
import {
  leastIndent,
  maskText,
  plainStandIn,
  quotedStandIns,
  readPlain,
  readPlainLines,
  readQuoted,
} from './yaml-quoted.js';
import type { StandIn } from './yaml-quoted.js';
import { checkYamlShape } from './yaml-shape.js';
import type { YamlShapeProblem } from './yaml-shape.js';
import { readYamlSubset } from './yaml-subset.js';

/** @internal Most alias expansions one document may use (a "billion laughs" file is refused, not expanded). */
export const MAX_ALIAS_COUNT = 100;

/** @internal Deepest nesting read (the definition parser's own limit is 256 levels). */
export const MAX_DEPTH = 256;

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
      const name = p.key.value === null ? '' : String(p.key.value);
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

/**
 * What a stand-in (by its offset in the parsed text) stands for: a quoted scalar's value, a block scalar to read, or
 * a plain scalar's value (its stand-in must be read as one whole scalar, to the value ours reads for it).
 */
type Restore =
  | { value: string }
  | { block: BlockScalar; verified: boolean }
  | { plain: string; standIn: string; verified: boolean };

/** A plain scalar over several lines read here: its extent, stand-in and value. */
interface PlainScalar extends StandIn {
  value: string;
}

/**
 * Gives a stand-in scalar the value read from the original text. A block scalar is read only when the library read
 * its stand-in as we do (same extent, same value); otherwise it stays unverified and the text is parsed whole.
 */
function restore(node: Scalar, standIns: ReadonlyMap<number, Restore>, text: string): void {
  const range = node.range;
  if (range === undefined || range === null || standIns.size === 0) return;
  const found = standIns.get(range[0]);
  if (found === undefined) return;
  if ('value' in found) {
    node.value = found.value;
    return;
  }
  if ('plain' in found) {
    const { standIn } = found;
    if (range[1] !== range[0] + standIn.length || node.value !== readPlain(standIn, 0, standIn.length)) return;
    node.value = found.plain;
    found.verified = true;
    return;
  }
  const { block } = found;
  if (range[1] !== range[0] + block.standIn.length) return;
  const expected = readBlockScalar(
    block.standIn,
    block.headerLength,
    block.standIn.length,
    block.header,
    block.scalarIndent,
  );
  if (expected === undefined || node.value !== expected) return;
  const value = readFoundBlock(text, block);
  if (value === undefined) return;
  node.value = value;
  found.verified = true;
}

/** A problem with its line and column. */
function located(
  place: (offset: number) => SourcePosition,
  problem: { message: string; offset: number },
): SourceSyntaxError {
  return { message: `invalid YAML: ${problem.message}`, ...place(problem.offset) };
}

/**
 * The first key of a mapping that repeats an earlier one (keys compared as the object property they become), or a
 * non-scalar key.
 */
function keyProblem(
  root: YamlNode | null,
  maxNodes: number,
  standIns: ReadonlyMap<number, Restore>,
  text: string,
): { message: string; node: YamlNode; first?: YamlNode } | undefined {
  if (root === null) return undefined;
  const stack: YamlNode[] = [root];
  let nodes = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (++nodes > maxNodes) return { message: `more than ${maxNodes} YAML nodes (keys, values and entries)`, node };
    if (isScalar(node)) restore(node, standIns, text);
    if (isMap(node)) {
      const seen = new Map<string, YamlNode>();
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (isScalar(key)) restore(key, standIns, text);
        if (key !== null && !isScalar(key))
          return { message: 'a mapping key must be a plain value, not a mapping, list or alias', node: key };
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
 * The alias at which the document, its aliases expanded, first holds more than `maxNodes` nodes (an alias of a large
 * collection repeated is as large as its copies to whoever reads the value). One pass in document order: an alias
 * names the last node before it with that anchor (the library's rule), whose expanded size is known by then.
 */
function aliasProblem(
  root: YamlNode | null,
  maxNodes: number,
): { message: string; node: YamlNode; first?: YamlNode } | undefined {
  if (root === null) return undefined;
  const sizes = new Map<YamlNode, number>();
  const anchors = new Map<string, YamlNode>();
  let count = 0;
  const stack: { node: YamlNode; before: number }[] = [{ node: root, before: -1 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const node = top.node;
    if (isAlias(node)) {
      stack.pop();
      const source = anchors.get(node.source);
      if (source === undefined) continue; // unresolved: toJS reports it
      const size = sizes.get(source);
      if (size === undefined) return { message: `the alias *${node.source} is inside the node it names`, node };
      count = Math.min(count + size, maxNodes + 1);
      if (count > maxNodes)
        return { message: `aliases that expand to more than ${maxNodes} YAML nodes (keys, values and entries)`, node };
      continue;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (top.before === -1 && anchor !== undefined) anchors.set(anchor, node);
    if (top.before === -1 && (isMap(node) || isSeq(node))) {
      top.before = count;
      const children: YamlNode[] = [];
      if (isMap(node)) {
        for (const pair of node.items) {
          if (pair.key !== null && pair.key !== undefined) children.push(pair.key as YamlNode);
          if (pair.value !== null && pair.value !== undefined) children.push(pair.value as YamlNode);
        }
      } else {
        for (const item of node.items) if (item !== null && item !== undefined) children.push(item as YamlNode);
      }
      for (let c = children.length - 1; c >= 0; c--) stack.push({ node: children[c]!, before: -1 });
      continue;
    }
    stack.pop();
    const before = top.before === -1 ? count : top.before;
    count = Math.min(count + 1, maxNodes + 1);
    sizes.set(node, count - before);
  }
  return undefined;
}

/**
 * Parses YAML text; `lineOffset` shifts reported lines (front matter starts after the opening `---`). The text's
 * shape is checked first, in linear time (at most `maxNodes` nodes, 256 levels, 100 aliases); duplicate keys are
 * found with one map per mapping (the YAML library's own check is quadratic in a mapping's size).
 */
export function parseYamlSource(
  text: string,
  lineOffset = 0,
  maxNodes = DEFAULT_MAX_YAML_NODES,
): YamlSource | SourceSyntaxError {
  // The block subset prompt files use is read in one pass; anything else (or any problem) goes to the library.
  const subset = readYamlSubset(text, maxNodes);
  if (subset === undefined) return parseYamlWithLibrary(text, lineOffset, maxNodes);
  const placeIn = (source: string): ((offset: number) => SourcePosition) => {
    let lines: LineIndex | undefined;
    return (offset) => {
      lines ??= new LineIndex(source);
      const pos = lines.position(offset);
      return { line: pos.line + lineOffset, column: pos.column };
    };
  };
  // Offsets into the text the reader read (CRLF written LF): the same lines and columns.
  const place = placeIn(subset.text);
  if ('problem' in subset) {
    // A crossed bound is reported first, as the library path does.
    const shape = checkYamlShape(text, { maxNodes, maxDepth: MAX_DEPTH, maxAliases: MAX_ALIAS_COUNT });
    if (shape.problem === undefined) return located(place, subset.problem);
    return refusal(text, shape.problem, placeIn(text), lineOffset, maxNodes);
  }
  return {
    value: subset.value,
    locate(pointer) {
      const at = subset.offsetOf(pointer);
      return at === undefined ? undefined : place(at);
    },
  };
}

/** @internal {@link parseYamlSource} by the YAML library alone (the subset reader's reference in tests). */
export function parseYamlWithLibrary(
  text: string,
  lineOffset = 0,
  maxNodes = DEFAULT_MAX_YAML_NODES,
  secondDocument?: YamlShapeProblem,
): YamlSource | SourceSyntaxError {
  let lines: LineIndex | undefined;
  const placeOriginal = (offset: number): SourcePosition => {
    lines ??= new LineIndex(text);
    const pos = lines.position(offset);
    return { line: pos.line + lineOffset, column: pos.column };
  };
  const shape = checkYamlShape(text, { maxNodes, maxDepth: MAX_DEPTH, maxAliases: MAX_ALIAS_COUNT });
  if (shape.problem !== undefined) return refusal(text, shape.problem, placeOriginal, lineOffset, maxNodes);
  // Long quoted scalars are read here (linear); the parser sees short stand-ins.
  const values: string[] = [];
  const indents: (number | undefined)[] = [];
  for (const [start, end] of shape.longQuoted) {
    const read = readQuoted(text, start, end);
    if (!('value' in read)) return located(placeOriginal, read);
    values.push(read.value);
    indents.push(read.indent);
  }
  const quoted = quotedStandIns(text, shape.longQuoted, indents).map((stretch, i) => ({
    stretch,
    value: values[i]!,
  }));
  // Long block scalars too, unless they overlap a quoted one (then the library reads them).
  const blocks: BlockScalar[] = [];
  let q = 0;
  for (const at of shape.blocks) {
    const block = findBlockScalar(text, at);
    if (block === undefined) continue;
    while (q < quoted.length && quoted[q]!.stretch.end <= block.start) q++;
    if (q < quoted.length && quoted[q]!.stretch.start < block.end) continue;
    if (blocks.length > 0 && blocks[blocks.length - 1]!.end > block.start) continue;
    blocks.push(block);
  }
  // Long plain scalars over several lines: a two-line stand-in, checked as the block ones are.
  const plains: PlainScalar[] = [];
  for (const [start, end] of shape.longPlain) {
    const read = readPlainLines(text, start, end);
    if (read === undefined) continue;
    const standIn = plainStandIn(text, start, read.indent ?? leastIndent(text, start, end));
    plains.push({ start, end, standIn, value: read.value });
  }
  // Runs of blank and comment lines outside scalars: left out (the library spends microseconds on each line).
  const taken = [...quoted.map((q) => q.stretch), ...blocks, ...plains].sort((a, b) => a.start - b.start);
  const quiet = shape.quiet.filter(([start, end]) => !overlaps(taken, start, end));
  let parsed: YamlSource | SourceSyntaxError | undefined;
  if (blocks.length > 0 || plains.length > 0)
    parsed = parseMasked(text, placeOriginal, maxNodes, quoted, blocks, plains, quiet, secondDocument);
  if (parsed === undefined && quiet.length > 0)
    parsed = parseMasked(text, placeOriginal, maxNodes, quoted, [], [], quiet, secondDocument);
  return parsed ?? parseMasked(text, placeOriginal, maxNodes, quoted, [], [], [], secondDocument)!;
}

/** A problem of the text's shape; for a second document, the first one's own problem when it has one. */
function refusal(
  text: string,
  problem: YamlShapeProblem,
  place: (offset: number) => SourcePosition,
  lineOffset: number,
  maxNodes: number,
): SourceSyntaxError {
  if (!problem.secondDocument) return located(place, problem);
  return parseYamlWithLibrary(text.slice(0, problem.offset), lineOffset, maxNodes, problem) as SourceSyntaxError;
}

/** Whether `[start, end)` overlaps one of `stretches` (sorted by start, not overlapping). */
function overlaps(stretches: readonly StandIn[], start: number, end: number): boolean {
  let lo = 0;
  let hi = stretches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stretches[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < stretches.length && stretches[lo]!.start < end;
}

/** Whether a scalar of the tree holds a left-out line: an offset of `quietAt` (sorted) in (its start, its end]. */
function spansQuiet(root: YamlNode | null, quietAt: readonly number[]): boolean {
  if (root === null || quietAt.length === 0) return false;
  const inside = (range: readonly number[] | null | undefined): boolean => {
    if (range === undefined || range === null) return false;
    let lo = 0;
    let hi = quietAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (quietAt[mid]! <= range[0]!) lo = mid + 1;
      else hi = mid;
    }
    return lo < quietAt.length && quietAt[lo]! <= range[1]!;
  };
  const stack: YamlNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isScalar(node) && inside(node.range)) return true;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && inside(pair.key.range)) return true;
        if (pair.value !== null && pair.value !== undefined) stack.push(pair.value as YamlNode);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) if (item !== null && item !== undefined) stack.push(item as YamlNode);
    }
  }
  return false;
}

/**
 * Parses `text` with the listed scalars replaced by stand-ins and the `quiet` lines left out. Undefined when a block
 * scalar's stand-in was not read as ours (or the text has a problem while block stand-ins are in it), or a left-out
 * line was inside a scalar: the caller parses again without them.
 */
function parseMasked(
  text: string,
  placeOriginal: (offset: number) => SourcePosition,
  maxNodes: number,
  quoted: readonly { stretch: StandIn; value: string }[],
  blocks: readonly BlockScalar[],
  plains: readonly PlainScalar[],
  quiet: readonly (readonly [number, number])[],
  secondDocument?: YamlShapeProblem,
): YamlSource | SourceSyntaxError | undefined {
  const entries: { stretch: StandIn; restore?: Restore }[] = quoted.map(({ stretch, value }) => ({
    stretch,
    restore: { value },
  }));
  for (const block of blocks) entries.push({ stretch: block, restore: { block, verified: false } });
  for (const plain of plains)
    entries.push({ stretch: plain, restore: { plain: plain.value, standIn: plain.standIn, verified: false } });
  for (const [start, end] of quiet) entries.push({ stretch: { start, end, standIn: '' } });
  const checked = blocks.length + plains.length;
  if (checked > 0 || quiet.length > 0) entries.sort((a, b) => a.stretch.start - b.stretch.start);
  const masked = maskText(
    text,
    entries.map((e) => e.stretch),
  );
  const standIns = new Map<number, Restore>();
  const quietAt: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const restore = entries[i]!.restore;
    if (restore === undefined) quietAt.push(masked.standIns[i]!);
    else standIns.set(masked.standIns[i]!, restore);
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
  if (first !== undefined && checked > 0) return undefined;
  if (first !== undefined) return { message: `invalid YAML: ${shortMessage(first.message)}`, ...place(first.pos[0]) };
  // The first of several documents parsed alone: its parse errors come first, then the second document's start.
  if (secondDocument !== undefined) {
    keyProblem(doc.contents as YamlNode | null, maxNodes, standIns, text); // restores, so verifies, the stand-ins
    for (const r of standIns.values()) if ('verified' in r && !r.verified) return undefined;
    return located(placeOriginal, secondDocument);
  }
  const keys =
    keyProblem(doc.contents as YamlNode | null, maxNodes, standIns, text) ??
    (doc.errors.length === 0 ? aliasProblem(doc.contents as YamlNode | null, maxNodes) : undefined);
  // A left-out line the library read inside a scalar: the text is parsed again with every line in it.
  if (keys === undefined && spansQuiet(doc.contents as YamlNode | null, quietAt)) return undefined;
  if (checked > 0) {
    if (keys !== undefined) return undefined;
    for (const r of standIns.values()) if ('verified' in r && !r.verified) return undefined;
  }
  if (keys !== undefined) {
    const firstAt =
      keys.first?.range === undefined || keys.first.range === null ? undefined : place(keys.first.range[0]);
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
