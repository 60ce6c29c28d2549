import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { createDefinitionError } from '../../src/definition/index.js';
import { toJsonPointer } from '../../src/json.js';

describe('createDefinitionError', () => {
  it('builds the same INVALID_PROMPT_DEFINITION shape for problems found outside the parser', () => {
    const error = createDefinitionError(
      [{ path: '/messages/0/content/text', message: 'unclosed section "items"', line: 7, column: 3 }],
      { source: 'prompts/list.md' },
    );
    expect(error).toBeInstanceOf(PromptError);
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.message).toBe(
      'prompts/list.md: invalid prompt definition\n  /messages/0/content/text: unclosed section "items" (line 7, column 3)',
    );
    expect(error.data).toEqual({
      source: 'prompts/list.md',
      problems: [{ path: '/messages/0/content/text', message: 'unclosed section "items"', line: 7, column: 3 }],
    });
  });

  it('does not change the problems it is given', () => {
    const problems = [{ path: '/name', message: 'bad' }];
    const error = createDefinitionError(problems, { locate: () => ({ line: 1, column: 2 }) });
    expect(problems).toEqual([{ path: '/name', message: 'bad' }]);
    expect(error.data).toEqual({ problems: [{ path: '/name', message: 'bad', line: 1, column: 2 }] });
  });

  it('locates and carries at most 100 problems, the last entry counting the rest', () => {
    const problems = Array.from({ length: 5_000 }, (_, i) => ({ path: `/k${i}`, message: 'unknown property' }));
    let located = 0;
    const error = createDefinitionError(problems, { locate: () => (located++, { line: 1, column: 1 }) });
    const carried = (error.data as { problems: { path: string; message: string }[] }).problems;
    expect(located).toBe(100);
    expect(carried).toHaveLength(101);
    expect(carried[100]).toEqual({ path: '', message: '4900 more problems not shown' });
  });

  it("says 'and 1 more problem' after the first 50", () => {
    const problems = Array.from({ length: 51 }, (_, i) => ({ path: `/x/${i}`, message: 'bad' }));
    expect(createDefinitionError(problems).message.split('\n').at(-1)).toBe('  and 1 more problem');
  });
});

describe('toJsonPointer', () => {
  it("escapes '~' and '/' as RFC 6901 requires", () => {
    expect(toJsonPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(toJsonPointer([])).toBe('');
  });
});
