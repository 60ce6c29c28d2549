/** JUnit XML of a case run, for CI: one testsuite per prompt, no timings (the same run gives the same bytes). */
import type { PromptCaseReport, PromptCaseResult } from '../cases/types.js';

/** Characters XML 1.0 cannot hold at all (controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF): written as text. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function visible(text: string): string {
  return text.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text for an element's content. */
export function xmlText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a double-quoted attribute (line breaks and tabs kept as character references). */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function testcase(r: PromptCaseResult): string[] {
  const attrs = [`classname="${xmlAttribute(r.prompt)}"`, `name="${xmlAttribute(r.case)}"`];
  if (r.file !== undefined) attrs.push(`file="${xmlAttribute(r.file)}"`);
  if (r.line !== undefined) attrs.push(`line="${r.line}"`);
  if (r.status === 'pass') return [`    <testcase ${attrs.join(' ')}/>`];
  const element = r.status === 'fail' ? 'failure' : 'error';
  const message = r.failures.map((f) => f.message).join('; ');
  const body = r.failures
    .map((f) =>
      [f.message, f.diff ?? (f.actual === undefined ? '' : `actual:\n${f.actual}`)].filter(Boolean).join('\n'),
    )
    .join('\n\n');
  return [
    `    <testcase ${attrs.join(' ')}>`,
    `      <${element} message="${xmlAttribute(message)}" type="${r.failures[0]?.check ?? 'render'}">${xmlText(body)}</${element}>`,
    '    </testcase>',
  ];
}

/** The report as JUnit XML (suites by prompt, in run order). */
export function junitXml(report: PromptCaseReport): string {
  const suites = new Map<string, PromptCaseResult[]>();
  for (const r of report.results) suites.set(r.prompt, [...(suites.get(r.prompt) ?? []), r]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-prompt-kit test" tests="${report.total}" failures="${report.failed}" errors="${report.errored}">`,
  ];
  for (const [prompt, results] of suites) {
    const failures = results.filter((r) => r.status === 'fail').length;
    const errors = results.filter((r) => r.status === 'error').length;
    lines.push(
      `  <testsuite name="${xmlAttribute(prompt)}" tests="${results.length}" failures="${failures}" errors="${errors}">`,
    );
    for (const r of results) lines.push(...testcase(r));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
