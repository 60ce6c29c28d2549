/**
 * The preview page as a person uses it, in real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * one browser launch, one page load. Also writes docs/preview.png, the screenshot in docs/cli.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview } from '../../../src/cli/preview.js';
import type { RunningPreview } from '../../../src/cli/preview.js';

const SCREENSHOT = fileURLToPath(new URL('../../../docs/preview.png', import.meta.url));
/** Generous: only a broken build waits this long. */
const WAIT = { timeout: 30_000 };

/** The Chromium binary: CHROMIUM_PATH, else `chromium` on PATH; a missing one fails the run, never skips it. */
function chromiumPath(): string {
  const given = process.env['CHROMIUM_PATH'];
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist`);
    return given;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'The preview browser tests need Chromium: apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary)',
    );
  }
}

const REVIEW = (template: string, extra = '') => `name: review
title: Review a change
description: Reviews code in the language given
tags: [code, review]
arguments:
  - name: code
    required: true
    description: The code to review
  - name: language
    enum: [typescript, python, go]
    default: typescript
  - name: focus
    description: What to look at first
  - name: max_issues
    type: integer
    minimum: 1
    maximum: 20
  - name: strict
    type: boolean
    default: false
  - name: ticket
    pattern: "^[A-Z]+-[0-9]+$"
${extra}messages:
  - role: user
    content: "${template}"
`;

const CASES = `cases:
  - name: names the language
    arguments: { code: x, language: go }
    contains: go code
  - name: says Review first
    arguments: { code: x, language: go }
    messages:
      - role: user
        content: { type: text, text: "Review this go code: x (focus: )" }
`;

const HOSTILE = `name: hostile
title: "<img src=x onerror=\\"document.body.dataset.owned='yes'\\">"
description: "<script>document.body.dataset.owned='yes'</script>"
arguments:
  - name: payload
messages:
  - role: user
    content: "{{payload}}"
`;

describe('preview page in Chromium', () => {
  let dir: string;
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    dir = await mkdtemp(join(tmpdir(), 'mpk-preview-browser-'));
    await writeFile(join(dir, 'review.yaml'), REVIEW('Review this {{language}} code: {{code}} (focus: {{focus}})'));
    await writeFile(join(dir, 'hostile.yaml'), HOSTILE);
    await writeFile(join(dir, 'review.cases.yaml'), CASES);
    await writeFile(
      join(dir, 'other.json'),
      JSON.stringify({ name: 'other', tags: ['misc'], messages: [{ role: 'user', content: 'Other' }] }),
    );
    preview = await startPreview({ dir, debounceMs: 20 });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(preview.server.url);
    await page.locator('#status[data-kind="live"]').waitFor(WAIT);
  });
  afterAll(async () => {
    await browser?.close();
    await preview?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('lists the prompts, filters them by tag, and takes the token out of the address bar', async () => {
    await expect
      .poll(() => page.locator('.prompt-name').allTextContents(), WAIT)
      .toEqual(['hostile', 'other', 'review']);
    await page.fill('#filter', '#review');
    await expect.poll(() => page.locator('.prompt-name').allTextContents(), WAIT).toEqual(['review']);
    expect(new URL(page.url()).search).toBe('');
  });

  it('builds the form from the argument schema', async () => {
    await page.click('.prompt-link[data-name="review"]');
    await page.locator('#prompt[data-name="review"]').waitFor(WAIT);
    const field = (name: string) => page.locator(`.field[data-arg="${name}"]`);
    expect(await field('language').locator('select option').allTextContents()).toEqual([
      '(not given)',
      'typescript',
      'python',
      'go',
    ]);
    expect(await field('language').locator('select').inputValue()).toBe('typescript');
    expect(await field('max_issues').locator('input').getAttribute('type')).toBe('number');
    expect(await field('max_issues').locator('input').getAttribute('step')).toBe('1');
    expect(await field('strict').locator('input').getAttribute('type')).toBe('checkbox');
    expect(await field('ticket').locator('.hint').textContent()).toContain('pattern: ^[A-Z]+-[0-9]+$');
    expect(await field('code').locator('.required').count()).toBe(1);
  });

  it('shows a -32602 on the offending field, then the messages once the form is complete', async () => {
    await page.click('#render');
    await page.locator('.field[data-arg="code"].invalid').waitFor(WAIT);
    expect(await page.locator('.field[data-arg="code"] .field-error').textContent()).toContain('missing');
    expect(await page.locator('#error').textContent()).toContain('-32602');
    await page.fill('.field[data-arg="code"] textarea', 'let x = 1;');
    await page.selectOption('.field[data-arg="language"] select', 'python');
    await page.click('#render');
    await expect
      .poll(() => page.locator('#messages .message').allTextContents(), WAIT)
      .toEqual(['userReview this python code: let x = 1; (focus: )']);
    await page.check('#raw-toggle');
    const raw = JSON.parse((await page.locator('#raw').textContent()) ?? '');
    expect(raw.messages[0]).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Review this python code: let x = 1; (focus: )' },
    });
    await page.uncheck('#raw-toggle');
  });

  it('follows an edit on disk, keeping what is typed, and diffs against the previous version', async () => {
    // Typed but not submitted: must survive the reload.
    await page.fill('.field[data-arg="focus"] textarea', 'naming');
    await writeFile(
      join(dir, 'review.yaml'),
      REVIEW('Please review this {{language}} code: {{code}} (focus: {{focus}})'),
    );
    await expect
      .poll(() => page.locator('#messages .message').allTextContents(), WAIT)
      .toEqual(['userPlease review this python code: let x = 1; (focus: naming)']);
    expect(await page.locator('.field[data-arg="focus"] textarea').inputValue()).toBe('naming');
    expect(await page.locator('.field[data-arg="code"] textarea').inputValue()).toBe('let x = 1;');
    const diff = page.locator('.diff[data-against="previous"]');
    await diff.waitFor(WAIT);
    expect(await diff.locator('.del').allTextContents()).toEqual([
      '- 1. User: Review this python code: let x = 1; (focus: naming)\n',
    ]);
    expect(await diff.locator('.add').allTextContents()).toEqual([
      '+ 1. User: Please review this python code: let x = 1; (focus: naming)\n',
    ]);
  });

  it('adds a field an edit declares without losing the values typed in the others', async () => {
    await writeFile(
      join(dir, 'review.yaml'),
      REVIEW('Please review this {{language}} code: {{code}} (focus: {{focus}})', '  - name: audience\n'),
    );
    await page.locator('.field[data-arg="audience"]').waitFor(WAIT);
    expect(await page.locator('.field[data-arg="focus"] textarea').inputValue()).toBe('naming');
    expect(await page.locator('.field[data-arg="language"] select').inputValue()).toBe('python');
  });

  it('runs the cases beside the prompt from the page, and again after an edit', async () => {
    await page.click('#run-cases');
    await expect.poll(() => page.locator('#cases-summary').textContent(), WAIT).toBe('1 of 2 passed, 1 failed');
    const failing = page.locator('.case[data-case="says Review first"]');
    expect(await failing.getAttribute('data-status')).toBe('fail');
    const added = await failing.locator('.case-diff .add').allTextContents();
    expect(added.filter((line) => line.includes('Please review this go code: x (focus: )'))).toHaveLength(1);
    expect(added.filter((line) => line.startsWith('+++'))).toEqual([]);
    expect(await page.locator('.case[data-case="names the language"]').getAttribute('data-status')).toBe('pass');
    await writeFile(
      join(dir, 'review.yaml'),
      REVIEW('Review this {{language}} code: {{code}} (focus: {{focus}})', '  - name: audience\n'),
    );
    await expect.poll(() => page.locator('#cases-summary').textContent(), WAIT).toBe('2 of 2 passed');
  });

  it('shows a broken edit as file:line:col where the prompt is, keeps the last good version, and clears it when fixed', async () => {
    await writeFile(join(dir, 'review.yaml'), 'name: review\nmessages: [\n  - role: user\n');
    const diagnostics = page.locator('#diagnostics');
    await expect.poll(() => diagnostics.textContent(), WAIT).toMatch(/review\.yaml:\d+:\d+: /);
    expect(await diagnostics.textContent()).toContain('last good version');
    expect(await page.locator('#cases-body').textContent()).toBe(
      'The file has errors: its cases run again once it is fixed.',
    );
    // Nothing absent is ever written out as text.
    expect(await page.locator('#detail').textContent()).not.toMatch(/null|undefined/);
    await page.locator('.prompt-link[data-name="review"] .badge.error').waitFor(WAIT);
    await page.click('#render');
    await expect
      .poll(() => page.locator('#messages .message').allTextContents(), WAIT)
      .toEqual(['userReview this python code: let x = 1; (focus: naming)']);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    await writeFile(join(dir, 'review.yaml'), REVIEW('Fixed: {{code}}'));
    await expect
      .poll(() => page.locator('#messages .message').allTextContents(), WAIT)
      .toEqual(['userFixed: let x = 1;']);
    expect(await diagnostics.isHidden()).toBe(true);
    // The fixed prompt's cases run again: its new text fails both.
    await expect.poll(() => page.locator('#cases-summary').textContent(), WAIT).toBe('0 of 2 passed, 2 failed');
  });

  it('puts prompt text and arguments into the page as text, never as markup', async () => {
    await page.fill('#filter', '');
    await page.click('.prompt-link[data-name="hostile"]');
    await page.locator('#prompt[data-name="hostile"]').waitFor(WAIT);
    await page.fill('.field[data-arg="payload"] textarea', '<img src=x onerror="document.body.dataset.owned=1">');
    await page.click('#render');
    await expect
      .poll(() => page.locator('#messages .message pre').textContent(), WAIT)
      .toBe('<img src=x onerror="document.body.dataset.owned=1">');
    expect(await page.locator('#prompt-title').textContent()).toContain('<img');
    expect(await page.locator('#detail img, #detail script').count()).toBe(0);
    expect(await page.evaluate(() => document.body.dataset['owned'])).toBeUndefined();
  });
});
