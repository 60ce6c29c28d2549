/** Shared benchmark fixtures: the `review_code` prompt and generated catalogues. */
import type { PromptDefinition } from '../src/index.js';

export const LANGUAGES = ['typescript', 'python', 'go', 'rust', 'java'] as const;

const guidance = [
  'You are a careful senior reviewer. Read the code below and report problems in order of severity.',
  'For each problem give the line, what is wrong, why it matters, and a concrete fix.',
  'Check naming, error handling, input validation, resource cleanup, concurrency, and test coverage.',
  'Do not rewrite the whole file; keep suggestions minimal and explain trade-offs when there are any.',
  'If the code is fine, say so plainly and point out one thing that could make it even clearer.',
].join('\n');

/** ~1 KB of template text over two messages. */
export const REVIEW_USER_TEMPLATE =
  `${guidance}\n\nLanguage: {{language}}\n\n\`\`\`{{language}}\n{{code}}\n\`\`\`\n` +
  `{{#focus}}\nFocus especially on: {{focus}}\n{{/focus}}` +
  `\nAnswer with a short summary first, then the list of findings, then a verdict (approve / request changes).\n` +
  `Keep the tone constructive; the author is a colleague. Mention security issues first if you find any.`;
export const REVIEW_ASSISTANT_TEMPLATE =
  'Understood. I will review the {{language}} code for correctness, clarity and safety, and report findings by severity.';

export function reviewCodeDefinition(name = 'review_code', userTemplate = REVIEW_USER_TEMPLATE): PromptDefinition {
  return {
    name,
    description: 'Review code against our guidelines',
    arguments: [
      { name: 'code', description: 'The code to review', required: true, maxLength: 10_000 },
      { name: 'language', description: 'Programming language', required: true, enum: [...LANGUAGES] },
      { name: 'focus', description: 'Optional focus' },
    ],
    messages: [
      { role: 'user', content: userTemplate },
      { role: 'assistant', content: REVIEW_ASSISTANT_TEMPLATE },
    ],
  };
}

/** A 2,000-character code argument. */
export const CODE_2000 = (() => {
  const line = 'const total = items.reduce((sum, item) => sum + item.price * item.qty, 0); // <b>&"\'\n';
  let s = '';
  while (s.length < 2000) s += line;
  return s.slice(0, 2000);
})();

export const REVIEW_ARGS = { code: CODE_2000, language: 'typescript', focus: 'error handling' };

/** 10,000 prompts of one shape: distinct names and argument objects, one shared template text. */
export function sameShapeCatalogue(n: number): PromptDefinition[] {
  return Array.from({ length: n }, (_, i) => reviewCodeDefinition(`review_code_${i}`));
}

const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(
    ' ',
  );

/** A distinct ~1 KB template for prompt i (mustache placeholders and a section, like real prompts). */
export function distinctTemplate(i: number): string {
  let words = '';
  let x = i * 2654435761;
  while (words.length < 820) {
    x = (Math.imul(x ^ (x >>> 15), 2246822507) + 1) >>> 0;
    words += `${WORDS[x % WORDS.length]} `;
  }
  return `Prompt #${i}: ${words}\nTopic: {{topic}}\n{{#detail}}Detail: {{detail}}\n{{/detail}}Answer for case ${i} in {{language}}.`;
}

export function distinctCatalogue(templates: readonly string[]): PromptDefinition[] {
  return templates.map((template, i) => ({
    name: `distinct_${i}`,
    arguments: [{ name: 'topic', required: true }, { name: 'detail' }, { name: 'language' }],
    messages: [{ role: 'user' as const, content: template }],
  }));
}

/** A word of letters only, distinct for every i (base 26). */
function distinctWord(i: number): string {
  let word = '';
  let n = i + 1;
  while (n > 0) {
    word = String.fromCharCode(97 + ((n - 1) % 26)) + word;
    n = Math.floor((n - 1) / 26);
  }
  return word;
}

/**
 * The review_code definition whose user template has a distinct word at the end of every line (a real-looking
 * multi-line template).
 */
export function distinctMultilineDefinition(i: number): PromptDefinition {
  const word = distinctWord(i);
  const text = REVIEW_USER_TEMPLATE.split('\n')
    .map((line) => (line === '' ? line : `${line} ${word}`))
    .join('\n');
  return reviewCodeDefinition(`distinct_multiline_${i}`, text);
}
