import { describe, expect, it } from 'vitest';
import type { PromptError } from '../../src/errors.js';
import { normalizeLegacyPrompt, parsePromptDefinition } from '../../src/definition/index.js';
import type { InvalidDefinitionData, NormalizeLegacyPromptOptions } from '../../src/definition/index.js';
import { thrownBy } from '../support/errors.js';

function legacyError(record: unknown, options?: NormalizeLegacyPromptOptions): PromptError {
  return thrownBy(() => normalizeLegacyPrompt(record, options));
}

const problemsOf = (error: PromptError): InvalidDefinitionData['problems'] =>
  (error.data as InvalidDefinitionData).problems;
const text = (t: string): { type: 'text'; text: string } => ({ type: 'text', text: t });

describe('normalizeLegacyPrompt', () => {
  it("turns {name, content} into one 'assistant' text message", () => {
    expect(normalizeLegacyPrompt({ name: 'greet', description: 'Greets', content: 'Say hello' })).toEqual({
      name: 'greet',
      description: 'Greets',
      messages: [{ role: 'assistant', content: text('Say hello') }],
    });
  });

  it('keeps a valid stored role', () => {
    expect(normalizeLegacyPrompt({ name: 'greet', role: 'user', content: 'hi' }).messages).toEqual([
      { role: 'user', content: text('hi') },
    ]);
  });

  it("treats a NULL stored role as unset ('assistant') but rejects an empty one", () => {
    expect(normalizeLegacyPrompt({ name: 'g', role: null, content: 'hi' }).messages?.[0]?.role).toBe('assistant');
    expect(problemsOf(legacyError({ name: 'g', role: '', content: 'hi' }))).toEqual([
      { path: '/role', message: "invalid role '': must be 'user' or 'assistant'" },
    ]);
  });

  it('splits content given as an array of chunks into consecutive messages of the same role', () => {
    const def = normalizeLegacyPrompt({
      name: 'p',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'one' }, 'two'] },
        { role: 'assistant', content: 'three' },
        { content: [{ type: 'text', text: 'four' }] },
      ],
    });
    expect(def.messages).toEqual([
      { role: 'user', content: text('one') },
      { role: 'user', content: text('two') },
      { role: 'assistant', content: text('three') },
      { role: 'assistant', content: text('four') },
    ]);
  });

  it('splits a top-level chunk array too', () => {
    expect(normalizeLegacyPrompt({ name: 'p', role: 'user', content: [text('a'), text('b')] }).messages).toEqual([
      { role: 'user', content: text('a') },
      { role: 'user', content: text('b') },
    ]);
  });

  it("maps legacy system messages to user only when systemRole is 'user'", () => {
    const record = { name: 'p', role: 'system', content: ['a', 'b'] };
    expect(problemsOf(legacyError(record))).toEqual([
      { path: '/role', message: "invalid role 'system': must be 'user' or 'assistant'" },
      { path: '/role', message: "invalid role 'system': must be 'user' or 'assistant'" },
    ]);
    expect(problemsOf(legacyError(record, { systemRole: 'reject' }))).toHaveLength(2);
    expect(normalizeLegacyPrompt(record, { systemRole: 'user' }).messages).toEqual([
      { role: 'user', content: text('a') },
      { role: 'user', content: text('b') },
    ]);
  });

  it("never changes any other invalid role, even with systemRole 'user'", () => {
    const error = legacyError(
      {
        name: 'p',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'model', content: 'b' },
        ],
      },
      { systemRole: 'user', source: 'db:prompts/7' },
    );
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toBe(
      "db:prompts/7: invalid prompt definition\n  /messages/1/role: invalid role 'model': must be 'user' or 'assistant'",
    );
  });

  it('reports problems at JSON pointers into the legacy record, not the expanded messages', () => {
    const error = legacyError({
      name: 'p',
      messages: [
        { role: 'user', content: ['a', { type: 'video' }, ['nested']] },
        { role: 'system', content: 'x', weight: 2 },
      ],
    });
    expect(problemsOf(error).map((p) => p.path)).toEqual([
      '/messages/1/weight',
      '/messages/0/content/1/type',
      '/messages/0/content/2',
      '/messages/1/role',
    ]);
  });

  it('locates problems in the legacy source text', () => {
    const error = legacyError(
      { name: 'p', role: 'system', content: 'x' },
      { locate: (pointer) => (pointer === '/role' ? { line: 2, column: 11 } : undefined) },
    );
    expect(problemsOf(error)).toEqual([
      { path: '/role', message: "invalid role 'system': must be 'user' or 'assistant'", line: 2, column: 11 },
    ]);
  });

  it('rejects empty chunk arrays, content beside messages, and a top-level role beside messages', () => {
    expect(problemsOf(legacyError({ name: 'p', content: [] }))).toEqual([
      { path: '/content', message: 'content must not be an empty array' },
    ]);
    expect(problemsOf(legacyError({ name: 'p', content: 'a', messages: [] }))).toContainEqual({
      path: '',
      message: "a legacy prompt has either 'content' or 'messages', not both",
    });
    expect(problemsOf(legacyError({ name: 'p', role: 'user', messages: [{ role: 'user', content: 'a' }] }))).toEqual([
      { path: '/role', message: "a top-level 'role' is only allowed with a legacy 'content'" },
    ]);
  });

  it('reports the other definition problems the way parsePromptDefinition does', () => {
    const error = legacyError({ name: 'bad name', content: 'x', id: 7 });
    expect(problemsOf(error).map((p) => p.path)).toEqual(['/id', '/name']);
    expect(problemsOf(legacyError('text'))).toEqual([
      { path: '', message: 'a prompt definition must be an object (got a string)' },
    ]);
  });

  it('does not mutate the record', () => {
    const record = { name: 'p', messages: [{ role: 'system', content: [text('a'), 'b'] }] };
    const before = structuredClone(record);
    normalizeLegacyPrompt(record, { systemRole: 'user' });
    expect(record).toEqual(before);
  });

  it('returns a definition that parsePromptDefinition accepts unchanged', () => {
    const def = normalizeLegacyPrompt({ name: 'p', role: 'system', content: ['a', 'b'] }, { systemRole: 'user' });
    expect(parsePromptDefinition(def)).toEqual(def);
    expect(Object.isFrozen(def.messages)).toBe(true);
  });
});
