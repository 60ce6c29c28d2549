/**
 * The documents prompts embed, checked against the `--docs` roots before anything is rendered or served: every
 * `{{resource:URI}}` directive and every resource block whose scheme (and, without placeholders, whole URI) is known
 * from the file. One diagnostic per reference nothing serves, placed at the reference in its file.
 */
import { readFile } from 'node:fs/promises';
import { isPromptError } from '../errors.js';
import type { PromptDefinition } from '../definition/types.js';
import { LineIndex } from '../fs/diagnostics.js';
import type { PromptFileDiagnostic, SourcePosition } from '../fs/diagnostics.js';
import type { FileResourceResolver } from '../fs/resolver.js';
import { isResourcePattern } from '../render/pattern.js';
import { compileTemplate } from '../render/template.js';

/** One reference to a document, as written in a prompt. */
interface Reference {
  uri: string;
  /** A directive `{{resource:URI}}` (a URI or glob), or a resource block's `uri` (which may hold placeholders). */
  kind: 'directive' | 'block';
}

/** A prompt to check: its definition and the file it came from. */
export interface ReferencingPrompt {
  name: string;
  file: string;
  definition: PromptDefinition;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The references of a definition's messages, each once, in order. */
function referencesOf(definition: PromptDefinition): Reference[] {
  const out = new Map<string, Reference>();
  const add = (ref: Reference): void => {
    if (!out.has(`${ref.kind} ${ref.uri}`)) out.set(`${ref.kind} ${ref.uri}`, ref);
  };
  for (const message of definition.messages ?? []) {
    const content = message.content;
    const text = typeof content === 'string' ? content : content.type === 'text' ? content.text : undefined;
    if (text?.includes('resource:')) {
      try {
        for (const uri of compileTemplate(text).resourceDirectives) add({ uri, kind: 'directive' });
      } catch {
        /* a template that does not compile is reported by the loader */
      }
    }
    if (typeof content === 'object' && content.type === 'resource' && typeof content.uri === 'string')
      add({ uri: content.uri, kind: 'block' });
  }
  return [...out.values()];
}

/** Where a reference is written in its file (its first occurrence), when the text can be found. */
function place(source: { text: string; lines: LineIndex } | undefined, ref: Reference): SourcePosition | undefined {
  if (source === undefined) return undefined;
  const escaped = ref.uri.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(ref.kind === 'directive' ? `\\{\\{\\{?\\s*resource:\\s*${escaped}` : escaped).exec(
    source.text,
  );
  return found === null ? undefined : source.lines.position(found.index);
}

/** What is wrong with one reference: an error (a render would fail), a warning, or nothing. */
async function problemOf(
  ref: Reference,
  resolver: FileResourceResolver | undefined,
): Promise<{ severity: 'error' | 'warning'; message: string } | undefined> {
  const shown = ref.kind === 'directive' ? `{{resource:${ref.uri}}}` : `resource block uri '${ref.uri}'`;
  const scheme = SCHEME.exec(ref.uri)?.[1]?.toLowerCase();
  // A scheme built from placeholders is known only when the prompt is rendered.
  if (scheme === undefined || scheme.includes('{{')) return undefined;
  const roots = resolver?.roots ?? {};
  const dir = Object.hasOwn(roots, scheme) ? roots[scheme] : undefined;
  if (dir === undefined) {
    const given = Object.keys(roots);
    const known = given.length === 0 ? 'no --docs given' : `--docs gives ${given.map((s) => `${s}=`).join(', ')}`;
    return {
      severity: 'error',
      message: `${shown}: nothing serves the scheme '${scheme}' (${known}): pass --docs ${scheme}=<dir>`,
    };
  }
  if (resolver === undefined || ref.uri.includes('{{')) return undefined;
  try {
    if (ref.kind === 'directive' && isResourcePattern(ref.uri)) {
      const matches = await resolver.list(ref.uri);
      return matches.length > 0
        ? undefined
        : { severity: 'warning', message: `${shown} matches no document under --docs ${scheme}=${dir}` };
    }
    const found = await resolver.read(ref.uri);
    return found !== undefined
      ? undefined
      : { severity: 'error', message: `${shown}: no such document under --docs ${scheme}=${dir}` };
  } catch (error) {
    return { severity: 'error', message: `${shown}: ${isPromptError(error) ? error.message : String(error)}` };
  }
}

/** Diagnostics for the references nothing serves, placed at each reference in its prompt's file. */
export async function checkReferences(
  prompts: readonly ReferencingPrompt[],
  resolver: FileResourceResolver | undefined,
): Promise<PromptFileDiagnostic[]> {
  const diagnostics: PromptFileDiagnostic[] = [];
  const texts = new Map<string, Promise<{ text: string; lines: LineIndex } | undefined>>();
  for (const prompt of prompts) {
    for (const ref of referencesOf(prompt.definition)) {
      const problem = await problemOf(ref, resolver);
      if (problem === undefined) continue;
      if (!texts.has(prompt.file)) {
        const read = readFile(prompt.file, 'utf8').then(
          (text) => ({ text, lines: new LineIndex(text) }),
          () => undefined,
        );
        texts.set(prompt.file, read);
      }
      const at = place(await texts.get(prompt.file), ref);
      const d: PromptFileDiagnostic = { file: prompt.file, message: problem.message, severity: problem.severity };
      if (at !== undefined) {
        d.line = at.line;
        d.column = at.column;
      }
      diagnostics.push(d);
    }
  }
  return diagnostics;
}
