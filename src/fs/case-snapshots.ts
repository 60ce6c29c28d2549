/**
 * Rewriting the `messages` snapshots of example cases in place: only each case's `messages` node changes (JSON keeps
 * its indentation, YAML and front matter are edited as text), the result is read back and compared with what was
 * meant before an atomic write, so a file is never left half-written or with anything else changed.
 */
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMap, isSeq, parseDocument, stringify } from 'yaml';
import type { Node as YamlNode, Pair, YAMLMap } from 'yaml';
import { canonicalJson } from '../arguments/canonical-json.js';
import { isRecord, unescapePointerSegment } from '../json.js';
import type { PromptMessage } from '../types.js';
import { parseJsonSource } from './json-source.js';
import { parseMarkdownSource } from './markdown-source.js';
import { parseYamlSource } from './yaml-source.js';

/** One snapshot to write: the case (its file and pointer) and its new messages. */
export interface SnapshotUpdate {
  file: string;
  pointer: string;
  messages: readonly PromptMessage[];
}

/** What happened to one file. */
export interface SnapshotWrite {
  file: string;
  updated: number;
  /** Why nothing was written, when nothing was. */
  error?: string;
}

/** Messages as a file writes them: a plain text block as its text. */
function writable(messages: readonly PromptMessage[]): unknown[] {
  return messages.map((m) => {
    const c = m.content as unknown as Record<string, unknown>;
    const plain = c['type'] === 'text' && typeof c['text'] === 'string' && Object.keys(c).length === 2;
    return { role: m.role, content: plain ? c['text'] : c };
  });
}

function segments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointerSegment);
}

/** `value` with `messages` set on the object at `pointer` (a deep copy; undefined when the pointer finds none). */
function withMessages(value: unknown, pointer: string, messages: unknown): unknown {
  const copy: unknown = structuredClone(value);
  let node: unknown = copy;
  for (const s of segments(pointer))
    node = Array.isArray(node) ? node[Number(s)] : isRecord(node) ? node[s] : undefined;
  if (!isRecord(node)) return undefined;
  node['messages'] = messages;
  return copy;
}

/** The offset after the JSON value starting at `i` (the text is valid JSON). */
function skipJson(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (depth === 0 && (c === '}' || c === ']' || c === ',' || c === ':' || /\s/.test(c))) {
      return i;
    } else if ((c === '}' || c === ']') && --depth === 0) {
      return i + 1;
    }
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** The members (key and value offsets) of the JSON object at `at`, or the items of the array at `at`. */
function children(text: string, at: number): { key?: string; start: number; end: number }[] {
  const out: { key?: string; start: number; end: number }[] = [];
  const object = text[at] === '{';
  let i = skipSpace(text, at + 1);
  while (i < text.length && text[i] !== '}' && text[i] !== ']') {
    let key: string | undefined;
    if (object) {
      const keyEnd = skipJson(text, i);
      key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    }
    const end = skipJson(text, i);
    out.push(key === undefined ? { start: i, end } : { key, start: i, end });
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return out;
}

/** JSON text indented to sit at `indent` (its first line is placed by the caller); compact on one line when `flat`. */
function jsonAt(value: unknown, indent: string, unit: string, flat: boolean): string {
  if (flat) return JSON.stringify(value);
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}

/** The edit that sets one case's `messages` in JSON text: only that member's text changes. */
function jsonEdit(text: string, pointer: string, messages: unknown): Edit | undefined {
  let at = skipSpace(text, 0);
  for (const s of segments(pointer)) {
    const found = children(text, at).find((c, i) => (c.key === undefined ? String(i) === s : c.key === s));
    if (found === undefined) return undefined;
    at = found.start;
  }
  if (text[at] !== '{') return undefined;
  const members = children(text, at);
  const close = skipJson(text, at) - 1;
  const flat = !text.slice(at, close).includes('\n');
  const first = members[0];
  const indent = first === undefined ? '' : text.slice(lineStart(text, first.start), first.start).replace(/\S.*$/, '');
  const memberIndent = /^[ \t]*/.exec(indent)?.[0] ?? '';
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const existing = members.find((m) => m.key === 'messages');
  if (existing !== undefined)
    return { start: existing.start, end: existing.end, text: jsonAt(messages, memberIndent, unit, flat) };
  const last = members[members.length - 1];
  if (last === undefined) return { start: at + 1, end: at + 1, text: `"messages": ${JSON.stringify(messages)}` };
  const lead = flat ? ', ' : `,\n${memberIndent}`;
  return { start: last.end, end: last.end, text: `${lead}"messages": ${jsonAt(messages, memberIndent, unit, flat)}` };
}

function editJson(text: string, updates: readonly SnapshotUpdate[]): string | undefined {
  return applyEdits(
    text,
    updates.map((u) => jsonEdit(text, u.pointer, writable(u.messages))),
  );
}

function applyEdits(text: string, edits: readonly (Edit | undefined)[]): string | undefined {
  if (edits.some((e) => e === undefined)) return undefined;
  const sorted = [...(edits as Edit[])].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** A text edit: replace [start, end) with `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function blockLines(value: unknown, indent: number): string {
  const yaml = stringify(value, { lineWidth: 0, minContentWidth: 0 }).replace(/\n$/, '');
  const pad = ' '.repeat(indent);
  return yaml
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** The edit that sets one case's `messages` in a YAML text (the case found by its pointer). */
function yamlEdit(text: string, root: YamlNode | null, pointer: string, messages: unknown): Edit | undefined {
  let node: YamlNode | null = root;
  for (const s of segments(pointer)) {
    if (isSeq(node)) node = (node.items[Number(s)] as YamlNode | undefined) ?? null;
    else if (isMap(node))
      node =
        ((node.items as Pair[]).find((p) => String((p.key as { value?: unknown })?.value) === s)?.value as YamlNode) ??
        null;
    else return undefined;
  }
  if (!isMap(node) || node.range === null || node.range === undefined) return undefined;
  const map = node as YAMLMap;
  const mapEnd = node.range[1];
  const pair = (map.items as Pair[]).find((p) => (p.key as { value?: unknown } | null)?.value === 'messages');
  if (map.flow === true) {
    // A flow mapping ({ name: x, ... }): the snapshot goes in as JSON, which YAML reads as flow.
    const json = JSON.stringify(messages);
    const value = pair?.value as YamlNode | null | undefined;
    if (pair !== undefined && value?.range) return { start: value.range[0], end: value.range[1], text: json };
    let close = text.lastIndexOf('}', mapEnd);
    while (close > 0 && /[ \t\r\n]/.test(text[close - 1]!)) close--;
    const empty = map.items.length === 0;
    return { start: close, end: close, text: `${empty ? ' ' : ', '}messages: ${json}` };
  }
  if (pair !== undefined) {
    const key = pair.key as YamlNode;
    const value = pair.value as YamlNode | null;
    const keyStart = key.range![0];
    const indent = keyStart - lineStart(text, keyStart);
    const colon = text.indexOf(':', key.range![1]);
    let end = value?.range ? value.range[1] : colon + 1;
    // A block collection's range takes in its line break: the lines after it keep theirs.
    while (end > colon + 1 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
    return { start: colon + 1, end, text: `\n${blockLines(messages, indent + 2)}` };
  }
  // No `messages` yet: a new key after the case's last entry, at the indentation of its first key.
  const first = map.items[0] as Pair | undefined;
  const last = map.items[map.items.length - 1] as Pair | undefined;
  if (first === undefined || last === undefined) return undefined;
  const firstKey = first.key as YamlNode;
  const indent = firstKey.range![0] - lineStart(text, firstKey.range![0]);
  const lastValue = (last.value as YamlNode | null) ?? (last.key as YamlNode);
  const at = lastValue.range![1];
  const eol = text.indexOf('\n', at);
  const insertAt = text[at - 1] === '\n' ? at - 1 : eol === -1 ? text.length : eol;
  return {
    start: insertAt,
    end: insertAt,
    text: `\n${' '.repeat(indent)}messages:\n${blockLines(messages, indent + 2)}`,
  };
}

function editYaml(text: string, updates: readonly SnapshotUpdate[]): string | undefined {
  const doc = parseDocument(text, { schema: 'core', merge: false, uniqueKeys: false });
  if (doc.errors.length > 0) return undefined;
  return applyEdits(
    text,
    updates.map((u) => yamlEdit(text, doc.contents as YamlNode | null, u.pointer, writable(u.messages))),
  );
}

function editMarkdown(text: string, updates: readonly SnapshotUpdate[]): string | undefined {
  const opening = /^(?:\uFEFF)?---[ \t]*\r?\n/.exec(text);
  if (opening === null) return undefined;
  const rest = text.slice(opening[0].length);
  const closing = /^(?:---|\.\.\.)[ \t]*\r?$/m.exec(rest);
  if (closing === null) return undefined;
  const front = rest.slice(0, closing.index);
  const edited = editYaml(front, updates);
  if (edited === undefined) return undefined;
  return `${opening[0]}${edited.endsWith('\n') ? edited : `${edited}\n`}${rest.slice(closing.index)}`;
}

function valueOf(path: string, text: string, maxYamlNodes: number): unknown {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = /\.json$/i.test(path)
    ? parseJsonSource(t)
    : /\.md$/i.test(path)
      ? parseMarkdownSource(t, maxYamlNodes)
      : parseYamlSource(t, 0, maxYamlNodes);
  return 'value' in parsed ? parsed.value : undefined;
}

let temps = 0;

/**
 * @internal Writes new `messages` snapshots into the files of their cases: per file, every update or none (the edited
 * text must read back as the old value with exactly those snapshots changed), written atomically.
 */
export async function writeCaseSnapshots(
  updates: readonly SnapshotUpdate[],
  maxFileBytes: number,
  maxYamlNodes: number,
): Promise<SnapshotWrite[]> {
  const byFile = new Map<string, SnapshotUpdate[]>();
  for (const u of updates) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  const out: SnapshotWrite[] = [];
  for (const [file, list] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    try {
      const info = await stat(file);
      if (info.size > maxFileBytes) throw new Error(`file is over the ${maxFileBytes}-byte limit`);
      const text = await readFile(file, 'utf8');
      const before = valueOf(file, text, maxYamlNodes);
      const edited = /\.json$/i.test(file)
        ? editJson(text, list)
        : /\.md$/i.test(file)
          ? editMarkdown(text, list)
          : editYaml(text, list);
      let expected: unknown = before;
      for (const u of list) expected = withMessages(expected, u.pointer, writable(u.messages));
      const after = edited === undefined ? undefined : valueOf(file, edited, maxYamlNodes);
      const same = after !== undefined && expected !== undefined && canonicalJson(after) === canonicalJson(expected);
      if (edited === undefined || !same) {
        out.push({ file, updated: 0, error: 'the file could not be edited safely: nothing written' });
        continue;
      }
      const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++temps}.tmp`);
      try {
        await writeFile(temp, edited, { flag: 'wx' });
        await chmod(temp, info.mode & 0o7777);
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      out.push({ file, updated: list.length });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      out.push({ file, updated: 0, error: code === undefined ? (error as Error).message : `cannot write (${code})` });
    }
  }
  return out;
}
