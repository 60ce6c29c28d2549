/**
 * Writing one prompt file: a definition as file text (JSON, YAML or Markdown), image/audio paths made relative to the
 * file, and an atomic write that the loader has read back before it replaces anything.
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { stringify } from 'yaml';
import { createDefinitionError } from '../definition/problems.js';
import type { PromptDefinition, TemplatePromptDefinition } from '../definition/types.js';
import { readPromptFile } from './prompt-file.js';
import type { ParsedPromptFile, PromptFileContext, PromptFileFormat } from './prompt-file.js';

/** @internal Image/audio paths are relative to the directory in a definition, relative to their file on disk. */
export function pathsRelativeTo(definition: TemplatePromptDefinition, rel: string): TemplatePromptDefinition {
  const base = posix.dirname(rel);
  if (base === '.') return definition;
  const messages = definition.messages.map((m) =>
    typeof m.content === 'object' && 'path' in m.content && typeof m.content.path === 'string'
      ? { ...m, content: { ...m.content, path: posix.relative(base, m.content.path) } }
      : m,
  );
  return { ...definition, messages } as TemplatePromptDefinition;
}

/** @internal The file text of a definition in a format (JSON is the only one that keeps every value's type exactly). */
export function serializePromptFile(
  format: PromptFileFormat,
  given: TemplatePromptDefinition,
  cases?: unknown,
): string {
  // A file's example cases are not part of the prompt: a rewrite keeps them after the definition's fields.
  const definition = (cases === undefined ? given : { ...given, cases }) as TemplatePromptDefinition;
  if (format === 'json') return `${JSON.stringify(definition, null, 2)}\n`;
  if (format === 'yaml') return stringify(definition);
  // One user text message can be the body; anything else stays in the front matter.
  const only = definition.messages.length === 1 ? definition.messages[0] : undefined;
  const content = only?.role === 'user' ? only.content : undefined;
  const text = typeof content === 'object' && content.type === 'text' ? content.text : undefined;
  if (text !== undefined && text !== '' && text === text.trim()) {
    const { messages: _body, ...front } = definition;
    return `---\n${stringify(front)}---\n${text}\n`;
  }
  return `---\n${stringify(definition)}---\n`;
}

let temps = 0;

/**
 * @internal Writes `text` to `rel` under the context's directory atomically (a hidden temporary file beside it,
 * renamed over it) once the loader has read the temporary file as a valid prompt; otherwise nothing is replaced and
 * it throws INVALID_PROMPT_DEFINITION with the loader's problems. Returns what the loader read and the written file's
 * stats. `expect` may refuse what was read back (a problem message): then too nothing is replaced.
 */
export async function writePromptFile(
  context: PromptFileContext,
  rel: string,
  text: string,
  name: string,
  expect?: (definition: PromptDefinition) => string | undefined,
): Promise<{ parsed: ParsedPromptFile & { definition: PromptDefinition }; stats: Stats }> {
  const dir = context.dir;
  const target = join(dir, rel);
  await mkdir(join(dir, posix.dirname(rel)), { recursive: true });
  const temp = join(dir, posix.dirname(rel), `.${basename(rel)}.${process.pid}.${++temps}.tmp`);
  try {
    await writeFile(temp, text);
    const written = await stat(temp);
    const checked = await readPromptFile({ rel, path: temp, stats: written }, context);
    if (checked.definition === undefined) {
      const problems = checked.diagnostics.map((d) => ({ path: d.pointer ?? '', message: d.message }));
      throw createDefinitionError(problems.length > 0 ? problems : [{ path: '', message: 'the file does not load' }], {
        name,
      });
    }
    const problem = expect?.(checked.definition);
    if (problem !== undefined) throw createDefinitionError([{ path: '', message: problem }], { name });
    await rename(temp, target);
    return { parsed: checked as ParsedPromptFile & { definition: PromptDefinition }, stats: written };
  } finally {
    await rm(temp, { force: true });
  }
}
