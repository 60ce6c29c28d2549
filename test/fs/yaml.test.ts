import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { formatDiagnostic, loadPromptDirectory } from '../../src/fs/index.js';
import { findBlockScalar } from '../../src/fs/yaml-block.js';
import { leastIndent, plainStandIn, quotedStandIns } from '../../src/fs/yaml-quoted.js';
import { checkYamlShape } from '../../src/fs/yaml-shape.js';
import { parseYamlSource, parseYamlWithLibrary } from '../../src/fs/yaml-source.js';
import type { YamlSource } from '../../src/fs/yaml-source.js';
import { tempDir, writeFiles } from './temp.js';
import { generatedCases } from '../support/processes.js';
import { prng } from '../support/schedule.js';

async function lines(files: Record<string, string>, options = {}): Promise<{ lines: string[]; names: string[] }> {
  const dir = await tempDir();
  await writeFiles(dir, files);
  const result = await loadPromptDirectory(dir, options);
  return {
    lines: result.diagnostics.map((d) => formatDiagnostic({ ...d, file: d.file.slice(dir.length + 1) })),
    names: result.definitions.map((d) => d.name),
  };
}

const HEAD = 'name: p\nmessages: [{role: user, content: hi}]\n';

/**
 * Holds `text` to the YAML library: refused when it refuses, else its value when we read it (we may refuse for our own
 * reasons: duplicate keys, unknown tags). Whether we read it.
 */
function readsAsLibrary(text: string): boolean {
  const library = parseDocument(text, { uniqueKeys: false, schema: 'core', merge: false, strict: true });
  const ours = parseYamlSource(text);
  if (library.errors.length > 0) {
    expect('value' in ours, JSON.stringify(text)).toBe(false);
    return false;
  }
  if (!('value' in ours)) return false;
  expect(ours.value, JSON.stringify(text)).toEqual(library.toJS());
  return true;
}

describe('YAML prompt files: bounded shape', () => {
  it('refuses a mapping wider than maxYamlNodes at the key that crosses the limit, before parsing it', async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `  k${i}: ${i}\n`).join('');
    const { lines: found, names } = await lines(
      { 'wide.yaml': `${HEAD}_meta:\n${keys}` },
      { limits: { maxYamlNodes: 100 } },
    );
    expect(names).toEqual([]);
    // name, its value, messages, [, {, role, user, content, hi, _meta: 10 nodes; then two per key: k45 is the 101st.
    expect(found).toEqual([
      'wide.yaml:49:3: invalid YAML: more than 100 YAML nodes (keys, values and entries): the file is too large to parse safely',
    ]);
  });

  it('counts sequence entries, flow items and front matter nodes against the same limit', async () => {
    const entries = Array.from({ length: 200 }, (_, i) => `  - ${i}\n`).join('');
    const flow = Array.from({ length: 200 }, (_, i) => i).join(', ');
    const { lines: found } = await lines(
      {
        'a.yaml': `${HEAD}_meta:\n x:\n${entries}`,
        'b.yaml': `${HEAD}_meta: {x: [${flow}]}\n`,
        'c.md': `---\nname: c\n_meta:\n  x:\n${entries}---\nHi\n`,
      },
      { limits: { maxYamlNodes: 100 } },
    );
    expect(found.map((l) => l.replace(/: more than.*/, ''))).toEqual([
      'a.yaml:49:5: invalid YAML',
      'b.yaml:3:351: invalid YAML',
      'c.md:53:3: invalid YAML',
    ]);
  });

  it('refuses nesting deeper than 256 levels, block or flow, at the level that crosses it', async () => {
    const block = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i + 1)}a:\n`).join('');
    const { lines: found } = await lines({
      'block.yaml': `${HEAD}_meta:\n${block}${' '.repeat(301)}1\n`,
      'flow.yaml': `${HEAD}_meta: ${'['.repeat(300)}${']'.repeat(300)}\n`,
      'dashes.yaml': `${HEAD}_meta:\n${'- '.repeat(300)}1\n`,
    });
    expect(found).toEqual([
      'block.yaml:259:257: invalid YAML: nesting deeper than 256 levels',
      'dashes.yaml:4:511: invalid YAML: nesting deeper than 256 levels',
      'flow.yaml:3:263: invalid YAML: nesting deeper than 256 levels',
    ]);
  });

  it('refuses more than 100 aliases at the 101st, without expanding any', async () => {
    const aliases = Array.from({ length: 150 }, () => '  - *a\n').join('');
    const { lines: found } = await lines({ 'many.yaml': `${HEAD}_meta:\n a: &a [1, 2, 3]\n x:\n${aliases}` });
    expect(found).toEqual([
      'many.yaml:106:5: invalid YAML: more than 100 aliases: the file is refused rather than expanded',
    ]);
  });

  it('refuses aliases of a large node that expand past maxYamlNodes, at the alias that crosses the limit', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `    k${i}: ${i}\n`).join('');
    const copies = '    - *b\n'.repeat(5);
    const text = `meta:\n  base: &b\n${keys}  copies:\n${copies}`;
    // 81 nodes for the base mapping: the 2nd copy crosses 200, the 1st does not.
    const ours = parseYamlSource(text, 0, 200);
    expect(ours).toMatchObject({ line: 45, column: 7 });
    expect('message' in ours ? ours.message : '').toContain('aliases that expand to more than 200 YAML nodes');
    expect(parseYamlSource(text, 0, 1_000)).toMatchObject({ value: parseDocument(text).toJS() });
  });

  it('refuses an alias inside the node it names', () => {
    const ours = parseYamlSource('a: &x\n  b: 1\n  c: *x\n');
    expect('message' in ours ? ours.message : '').toContain('the alias *x is inside the node it names');
  });

  it('finds a duplicate key in a wide mapping, naming both lines', async () => {
    const keys = Array.from({ length: 4_000 }, (_, i) => `  k${i}: ${i}\n`).join('');
    const { lines: found } = await lines({
      'dup.yaml': `${HEAD}_meta:\n${keys}  k17: again\n`,
      'typed.yaml': `${HEAD}_meta:\n  1: number\n  "1": string\n`,
      'complex.yaml': `${HEAD}_meta:\n  ? [a, b]\n  : value\n`,
    });
    expect(found).toEqual([
      'complex.yaml:4:5: invalid YAML: a mapping key must be a plain value, not a mapping, list or alias',
      "dup.yaml:4004:3: invalid YAML: duplicate key 'k17' (first at line 21)",
      "typed.yaml:5:3: invalid YAML: duplicate key '1' (first at line 4)",
    ]);
  });

  /** The value, or the refusal's place and message. */
  function read(text: string, maxNodes: number): unknown {
    const found = parseYamlSource(text, 0, maxNodes);
    return 'value' in found ? found.value : `${found.line}:${found.column}: ${found.message}`;
  }

  const words = (count: number, indent: string): string =>
    Array.from({ length: count }, (_, i) => `${indent}word ${i}`).join('\n');

  it('counts a scalar over more lines than maxYamlNodes as one node, as the YAML library reads it', () => {
    const texts = [
      `a: first\n${words(300, '  ')}\nb: 1\n`,
      `a:\n${words(300, '  ')}\nb: 1\n`,
      `- first\n${words(300, '  ')}\n- 2\n`,
      `- key: first\n${words(300, '   ')}\n  other: 1\n`,
      `- - first\n${words(300, '   ')}\n`,
      `a: first\n${Array.from({ length: 300 }, (_, i) => `  - item ${i}`).join('\n')}\n`,
      `a: first\n${Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? '' : `  ? [${i}] {x} &y *z !t | > % @ \``)).join('\n')}\n`,
      `a: first\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(2 + i)}w${i}`).join('\n')}\n`,
      `a: first\n${Array.from({ length: 300 }, (_, i) => `  w${i}\t \t`).join('\n')}\n`,
      `a: first\r\n${words(300, '  ').replace(/\n/g, '\r\n')}\r\n`,
      `? first\n${words(300, '  ')}\n: value\n`,
      `first\n${words(300, '')}\n`,
      `--- first\n${words(300, '')}\n`,
      `a: [first\n${words(300, '  ')}, second\n  third]\n`,
      `a: {k: first\n${words(300, '  ')}, j: 1}\n`,
      `a: "first\n${words(300, '  ')}"\n`,
      `a: 'first\n${words(300, '  ')}'\n`,
      `a: |\n${words(300, '  ')}\n`,
      `a: >-\n${words(300, '  ')}\n`,
    ];
    for (const text of texts) {
      const library = parseDocument(text);
      expect(library.errors, text).toEqual([]);
      expect(read(text, 100), text).toEqual(library.toJS());
    }
  });

  it('still counts the nodes on lines a plain scalar cannot go on over', () => {
    const many = (line: (i: number) => string): string => Array.from({ length: 300 }, (_, i) => line(i)).join('\n');
    const refused = 'more than 100 YAML nodes (keys, values and entries): the file is too large to parse safely';
    // Entries of the enclosing collections, at or left of where the scalar's lines must be.
    expect(read(`a: b\n${many((i) => `k${i}: ${i}`)}\n`, 100)).toBe(`51:1: invalid YAML: ${refused}`);
    expect(read(`- b\n${many((i) => `- ${i}`)}\n`, 100)).toBe(`51:1: invalid YAML: ${refused}`);
    expect(read(`- key: b\n${many((i) => `  k${i}: ${i}`)}\n`, 100)).toBe(`50:8: invalid YAML: ${refused}`);
    // Explicit values, lines after a comment, flow items after a line break, keys over several lines.
    expect(read(`a: b\n${many((i) => `  : ${i}`)}\n`, 100)).toMatch(/^\d+:\d+: invalid YAML: more than 100 YAML nodes/);
    // After a comment the lines are one new scalar (out of place: the library reports it).
    expect(read(`a: b # note\n${many((i) => `  w${i}`)}\n`, 100)).toBe(
      '2:1: invalid YAML: All mapping items must start at the same column',
    );
    expect(read(`a: b # note\n${many((i) => `  w${i}: ${i}`)}\n`, 100)).toMatch(
      /^\d+:\d+: invalid YAML: more than 100 YAML nodes/,
    );
    expect(read(`a: b\n  #\n${many((i) => `  w${i}: ${i}`)}\n`, 100)).toMatch(
      /^\d+:\d+: invalid YAML: more than 100 YAML nodes/,
    );
    expect(read(`a: [b\n${many((i) => `  , ${i}`)}]\n`, 100)).toMatch(
      /^\d+:\d+: invalid YAML: more than 100 YAML nodes/,
    );
    expect(read(`a: b\n${many((i) => `  k${i}: ${i}`)}\n`, 100)).toMatch(
      /^\d+:\d+: invalid YAML: more than 100 YAML nodes/,
    );
    // A document marker ends the scalar, and a second document is refused there; a tab for indentation.
    expect(read(`b\n${many((i) => `---\nw${i}`)}\n`, 100)).toBe(
      '2:1: invalid YAML: Source contains multiple documents; please use YAML.parseAllDocuments()',
    );
    expect(read(`a: b\n${many((i) => `\tk${i}: ${i}`)}\n`, 100)).toMatch(
      /^\d+:\d+: invalid YAML: more than 100 YAML nodes/,
    );
  });

  it('does not take the indentation of the lines a plain scalar goes on over for nesting', () => {
    const text = `a: b\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i + 1)}w`).join('\n')}\n`;
    expect(read(text, 100)).toEqual(parseDocument(text).toJS());
  });

  it('loads a 1 MB plain scalar over many lines', async () => {
    const text = Array.from({ length: 21_000 }, (_, i) => `line ${i} of a long block of prose text`);
    const dir = await tempDir();
    await writeFiles(dir, {
      'big.yaml': `name: big\nmessages:\n  - role: user\n    content: ${text.join('\n      ')}\n`,
    });
    const { definitions, diagnostics } = await loadPromptDirectory(dir);
    expect(diagnostics).toEqual([]);
    expect(definitions[0]?.messages?.[0]?.content).toEqual({ type: 'text', text: text.join(' ') });
  });

  it('refuses a plain scalar inside a flow collection over 1000 lines, blank ones too, at the line that crosses', async () => {
    const words = (count: number): string => Array.from({ length: count }, (_, i) => `  w${i}`).join('\n');
    const { lines: found, names } = await lines({
      'ok.yaml': `name: ok\nmessages: [{role: user, content: w\n${words(999)}}]\n`,
      'long.yaml': `name: long\nmessages: [{role: user, content: w\n${words(1_000)}}]\n`,
      'blank.yaml': `name: blank\nmessages: [{role: user, content: w${'\n'.repeat(999)}\n  x}]\n`,
    });
    const message =
      'a plain scalar inside a flow collection over more than 1000 lines (quote it, or write it as a block scalar)';
    expect(found).toEqual([
      `blank.yaml:1002:3: invalid YAML: ${message}`,
      `long.yaml:1002:3: invalid YAML: ${message}`,
    ]);
    expect(names).toEqual(['ok']);
  });

  it("refuses a second document at its marker, after the first one's own errors, as the YAML library does", () => {
    const texts = [
      'a: 1\n---\nb: 2\n',
      '---\na: 1\n---\n',
      '# c\n---\na: 1\n',
      'a: |\n  x\n---\n',
      'a: [1,\n---\nb: 2\n',
      'a: 1\n  b: 2\n---\n',
      '*x\n---\n',
      'a: 1\na: 2\n---\n',
      'a: 1\n...\n---\nb: 2\n',
      'a: 1\n...\nb: 2\n',
      '%YAML 1.2\n---\na: 1\n',
      '---\n'.repeat(200_000),
    ];
    for (const text of texts) {
      const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
      const ours = parseYamlSource(text);
      const first = doc.errors[0];
      if (first === undefined) continue;
      const at = first.linePos![0];
      expect(ours, JSON.stringify(text.slice(0, 40))).toEqual({
        message: `invalid YAML: ${first.message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        line: at.line,
        column: at.col,
      });
    }
    // The shape scan stops at the second marker: nothing after it is parsed.
    expect(
      checkYamlShape('a: 1\n' + '---\n'.repeat(200_000), { maxNodes: 10, maxDepth: 256, maxAliases: 100 }),
    ).toEqual({
      problem: expect.objectContaining({ offset: 5, secondDocument: true }),
    });
  });

  it('refuses an implicit key longer than 1024 characters', async () => {
    const { lines: found } = await lines({ 'key.yaml': `${HEAD}_meta:\n  "${'k'.repeat(2_000)}": 1\n` });
    expect(found).toEqual(['key.yaml:4:3: invalid YAML: a mapping key longer than 1024 characters']);
  });
});

describe('YAML prompt files: blank and comment lines', () => {
  it('leaves runs of blank and comment lines outside scalars out of what the YAML library parses', () => {
    const text = `name: p\n${'# note\n\n'.repeat(500)}messages:\n  - role: user\n${'\n'.repeat(500)}    content: hi\n`;
    const shape = checkYamlShape(text, { maxNodes: 100, maxDepth: 256, maxAliases: 100 });
    const quiet = 'quiet' in shape ? shape.quiet : [];
    const first = text.indexOf('#');
    // After the comment line that ends the plain scalar `p` (kept), the rest of the run; the blank lines after `user`
    // (a plain scalar the `content:` line ends).
    expect(quiet).toEqual([
      [first + '# note\n'.length, text.indexOf('messages')],
      [text.indexOf('user') + 5, text.indexOf('    content')],
    ]);
    expect(parseYamlSource(text)).toMatchObject({ value: parseDocument(text).toJS() });
    expect((parseYamlSource(text) as YamlSource).locate('/messages/0/content')).toEqual({ line: 1504, column: 5 });
  });

  it('reads texts with blank and comment lines exactly as the YAML library does', () => {
    const next = prng(41);
    const pieces = [
      'a: 1',
      'b:',
      '  c: 2',
      '- x',
      '  - y',
      'k: plain',
      '  more',
      '    deeper',
      'l: |',
      '  text',
      '   more text',
      'm: >+',
      'n: "quoted',
      '  rest"',
      'o: [1,',
      '  2]',
      '? key',
      ': value',
      '---',
      '...',
      '  # indented note',
      '\t',
      '#',
      '',
      '   ',
      'p: &a 1',
      'q: *a',
      'r: !!str x',
    ];
    let read = 0;
    const texts = generatedCases(1_500);
    for (let n = 0; n < texts; n++) {
      const lines: string[] = [];
      const count = 3 + Math.floor(next() * 12);
      for (let i = 0; i < count; i++) {
        const r = next();
        lines.push(r < 0.25 ? '' : r < 0.4 ? '# c' : pieces[Math.floor(next() * pieces.length)]!);
      }
      const eol = next() < 0.1 ? '\r\n' : '\n';
      const text = lines.join(eol) + eol;
      if (readsAsLibrary(text)) read++;
    }
    expect(read).toBeGreaterThan(texts / 5);
  });
});

describe('YAML prompt files: blank and comment lines inside flow collections', () => {
  it('reads them exactly as the YAML library does, leaving them out of its parse', () => {
    const next = prng(43);
    const pieces = [
      'a: [1,',
      'b: {c: 1,',
      '  x,',
      '  y',
      '  "q',
      '  r",',
      "  's',",
      '  {d: 2},',
      '  ]',
      '  }',
      '  , z]',
    ];
    const quiet = ['', '   ', '# c', '  # note', '\t# t'];
    let read = 0;
    const texts = generatedCases(1_500);
    for (let n = 0; n < texts; n++) {
      const lines: string[] = [];
      for (let i = 3 + Math.floor(next() * 10); i > 0; i--) {
        const r = next();
        lines.push(r < 0.45 ? quiet[Math.floor(next() * quiet.length)]! : pieces[Math.floor(next() * pieces.length)]!);
      }
      const text = `${lines.join('\n')}\n`;
      if (readsAsLibrary(text)) read++;
    }
    expect(read).toBeGreaterThan(texts / 15);
  });

  it("leaves the blank and comment lines between a flow collection's entries out of what the library parses", () => {
    const text = `name: p\nmessages: [{role: user,${'\n'.repeat(400)}${'  # c\n'.repeat(300)}  content: hi}]\n`;
    const shape = checkYamlShape(text, { maxNodes: 100, maxDepth: 256, maxAliases: 100 });
    const start = text.indexOf('user,') + 6;
    expect('quiet' in shape ? shape.quiet : []).toEqual([[start, text.indexOf('  content')]]);
    const read = parseYamlSource(text) as YamlSource;
    expect(read.value).toEqual(parseDocument(text).toJS());
    expect(read.locate('/messages/0/content')).toEqual({ line: 702, column: 3 });
  });
});

describe('YAML prompt files: long quoted strings', () => {
  const pieces = [
    'word',
    ' ',
    '  ',
    '\t',
    '\n',
    '\n\n',
    '\n   ',
    ' \n',
    '\\n',
    '\\t',
    '\\\\',
    '\\"',
    '\\x41',
    '\\u00e9',
    '\\U0001F600',
    '\\\n   ',
    "''",
    'é',
    '\r\n',
  ];

  it('reads long double- and single-quoted strings exactly as the YAML library does', () => {
    const next = prng(7);
    const texts = generatedCases(1_000);
    for (let n = 0; n < texts; n++) {
      const double = next() < 0.5;
      let body = '';
      while (body.length < 600) {
        const piece = pieces[Math.floor(next() * pieces.length)]!;
        if (double && piece === "''") continue;
        if (!double && piece.startsWith('\\')) continue;
        body += piece;
      }
      const quote = double ? '"' : "'";
      const prefix = ['x: ', 'a:\n  x: ', 'a:\n  - x: ', 'a:\n  - '][Math.floor(next() * 4)]!;
      const text = `${prefix}${quote}${body}${quote}\n${prefix.startsWith('a') ? '' : 'y: after\n'}`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      if (library.errors.length > 0) expect('value' in ours, JSON.stringify(text)).toBe(false);
      else expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
    }
  });

  it('reads long double-quoted strings without escapes, or with JSON escapes on one line, exactly as the YAML library does', () => {
    const plain = [
      'word',
      ' ',
      '  ',
      '\t',
      '\n      ',
      '\n\n      ',
      '\n        ',
      ' \n      ',
      '\t\n      \t',
      'é',
      '\r\n      ',
      '\r',
      ' \r\n \r\n      ',
      '\n\t\n      ',
    ];
    const json = [
      'word',
      ' ',
      '\\n',
      '\\t',
      '\\\\',
      '\\"',
      '\\/',
      '\\b',
      '\\u00e9',
      '\\ud83d\\ude00',
      '\\ud800',
      'é',
      '\\\\x',
    ];
    // One of these in a line makes it a general case (YAML-only escapes, a raw tab).
    const breakers = ['\\x41', '\\e', '\t', '\\N'];
    const next = prng(13);
    const texts = generatedCases(1_000);
    for (let n = 0; n < texts; n++) {
      const multiLine = next() < 0.5;
      const pieces = multiLine ? plain : json;
      let body = '';
      while (body.length < 400) body += pieces[Math.floor(next() * pieces.length)]!;
      if (!multiLine && next() < 0.2) body += breakers[Math.floor(next() * breakers.length)]!;
      const prefix = ['x: ', 'a:\n  x: ', 'a:\n  - x: ', 'a:\n  - '][Math.floor(next() * 4)]!;
      const text = `${prefix}"${body}"\n${prefix.startsWith('a') ? '' : 'y: after\n'}`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      if (library.errors.length > 0) expect('value' in ours, JSON.stringify(text)).toBe(false);
      else expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
    }
  });

  it('hands the parser one stand-in line per run of alike lines of a quoted string it refuses', () => {
    const body = Array.from({ length: 3_000 }, (_, i) => ['a', 'bb', 'ccc'][i % 3]).join('\n');
    const text = `content: "${body}"\nname: p\n`;
    const start = text.indexOf('"');
    const end = text.indexOf('"', start + 1) + 1;
    const [stretch] = quotedStandIns(text, [[start, end]]);
    // Two lines of the run (the first among them), then the last line: not one line (and one parser error) per line.
    expect(stretch?.standIn).toBe('"x\nx\nx"');
    const ours = parseYamlWithLibrary(text);
    const library = parseDocument(text);
    expect(library.errors.length).toBeGreaterThan(0);
    expect(ours).toMatchObject({ line: 1, column: 10 });
    expect(library.errors[0]?.message).toContain('Missing closing');
    expect('message' in ours ? ours.message : '').toContain('Missing closing');
  });

  it('reads many long quoted strings on one line (with and without escapes) as the YAML library does', () => {
    const items = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? `"${'x'.repeat(300)}"` : i % 3 === 1 ? `'${'y'.repeat(300)}'` : `"${'z\\t'.repeat(100)}\\x41"`,
    );
    const text = `list: [${items.join(', ')}]\nafter: "${'w'.repeat(300)}\n  two"\n`;
    expect(parseYamlSource(text)).toMatchObject({ value: parseDocument(text).toJS() });
  });

  it('keeps the lines and columns of everything after a long string', async () => {
    const long = `"${'word '.repeat(100)}\n  ${'more '.repeat(100)}"`;
    const { lines: found } = await lines({
      'p.yaml': `name: p\ndescription: ${long}\nmessages:\n  - role: system\n    content: hi\n`,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^p\.yaml:5:5: \/messages\/0\/role: /);
  });

  it('places an invalid escape inside a long string', async () => {
    const { lines: found } = await lines({
      'p.yaml': `name: p\ndescription: "${'a'.repeat(300)}\\q"\nmessages: [{role: user, content: hi}]\n`,
    });
    expect(found).toEqual(['p.yaml:2:315: invalid YAML: Invalid escape sequence \\q']);
  });

  it('loads a 1 MB double-quoted template', async () => {
    const text = 'word '.repeat(200_000).trim();
    const dir = await tempDir();
    await writeFiles(dir, { 'big.yaml': `name: big\nmessages:\n  - role: user\n    content: "${text}"\n` });
    const { definitions, diagnostics } = await loadPromptDirectory(dir);
    expect(diagnostics).toEqual([]);
    expect(definitions[0]?.messages?.[0]?.content).toEqual({ type: 'text', text });
  });
});

describe('YAML prompt files: long plain scalars', () => {
  it('finds the extent of a long plain scalar over several lines, for a one-line stand-in', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} of prose`);
    for (const [head, sep] of [
      ['a:\n  - x: ', '\n      '],
      ['a:\n  ', '\n  '],
      ['- ', '\n  '],
    ] as const) {
      const body = lines.join(sep);
      const text = `${head}${body}   # note\nb: 1\n`;
      const shape = checkYamlShape(text, { maxNodes: 100, maxDepth: 256, maxAliases: 100 });
      expect(shape.problem, head).toBeUndefined();
      const indent = sep.length - 1;
      expect('longPlain' in shape ? shape.longPlain : [], head).toEqual([[head.length, head.length + body.length]]);
      expect(leastIndent(text, head.length, head.length + body.length), head).toBe(indent);
      expect(plainStandIn(text, head.length, indent), head).toBe(`lx\n${' '.repeat(indent)}x`);
    }
  });

  it('finds the extent of a plain scalar of many short lines (colons and hashes inside words, CRLF, blank lines) as the YAML library reads it', () => {
    const words = ['a', 'bb', 'c:d', 'e#f', 'g\th', ':i', '---', '...', 'j: k', 'l #m', '#n', '\to'];
    for (let w = 0; w < words.length; w++) {
      for (const eol of ['\n', '\r\n']) {
        const lines = Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? '' : i === 200 ? words[w]! : words[i % 2]!));
        const head = 'a:\n  x:';
        const text = `${head}${eol}${lines.map((l) => (l === '' ? '' : `    ${l}`)).join(eol)}${eol}b: 1${eol}`;
        const library = parseDocument(text);
        const ours = parseYamlSource(text);
        const label = JSON.stringify(words[w]) + JSON.stringify(eol);
        if (library.errors.length > 0) {
          expect('value' in ours, label).toBe(false);
          continue;
        }
        expect('value' in ours ? ours.value : ours, label).toEqual(library.toJS());
        const scalar = (library.contents as { items: { value: { items: { value: { range: number[] } }[] } }[] })
          .items[0]!.value.items[0]!.value;
        const shape = checkYamlShape(text, { maxNodes: 100, maxDepth: 256, maxAliases: 100 });
        const plain = 'longPlain' in shape ? shape.longPlain : [];
        // One scalar, over every line up to where the library ends it (its range ends after its last line's text).
        expect(plain, label).toEqual([[scalar.range[0]!, scalar.range[1]!]]);
      }
    }
  });

  it('reads long plain scalars over several lines exactly as the YAML library does', () => {
    const next = prng(23);
    const prefixes = [
      'x: ',
      'a:\n  x: ',
      'a:\n  - x: ',
      'a:\n  - ',
      '- ',
      '',
      'a:\n  ',
      'a:\n  x:\n      ',
      'a:\n  - x:\n      ',
      '? ',
      'a: &n ',
      'a: !!str ',
      '- - ',
    ];
    const pieces = [
      'word',
      ' ',
      '  ',
      '\t',
      'a:b',
      '-',
      '- ',
      '? ',
      'a#b',
      '"q"',
      "'s'",
      '[x]',
      '{y}',
      '*z',
      '&w',
      '!t',
      ',',
      'é',
    ];
    let read = 0;
    const texts = generatedCases(1_000);
    for (let n = 0; n < texts; n++) {
      const prefix = prefixes[Math.floor(next() * prefixes.length)]!;
      const lines: string[] = [];
      let length = 0;
      while (length < 400) {
        const kind = next();
        let line = '';
        if (kind < 0.05) line = '';
        else if (kind < 0.08) line = ' '.repeat(Math.floor(next() * 8));
        else {
          line =
            ' '.repeat(kind < 0.09 ? Math.floor(next() * 7) : 6 + Math.floor(next() * 3)) + (kind < 0.095 ? '\t' : '');
          while (line.trim().length < 20) line += pieces[Math.floor(next() * pieces.length)]!;
          if (next() < 0.005) line += ' # note';
          if (next() < 0.005) line += ': v';
          if (next() < 0.01) line += '\r';
        }
        lines.push(line);
        length += line.length + 1;
      }
      const after = ['', 'y: after\n', '- after\n', '# end\n'][Math.floor(next() * 4)]!;
      const first = ['first', 'f', 'f x', 'f\tx'][Math.floor(next() * 4)]!;
      const text = `${prefix}${first}${lines.map((l) => `\n${l}`).join('')}\n${after}`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      if (library.errors.length > 0) expect('value' in ours, JSON.stringify(text)).toBe(false);
      else {
        read++;
        expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
      }
    }
    expect(read).toBeGreaterThan(texts / 10);
  });
});

describe('YAML prompt files: plain scalars of many short lines', () => {
  it("finds the least indentation of a plain scalar's lines however often it drops, as a loop over the lines would", () => {
    const next = prng(5);
    for (let n = 0; n < 20; n++) {
      const indents = Array.from({ length: 300 }, (_, i) => (n % 2 === 0 ? 300 - i : Math.floor(next() * 90)));
      const body = `first\n${indents.map((k) => `${' '.repeat(k)}w${next() < 0.1 ? '\n' : ''}`).join('\n')}`;
      const text = `x: ${body}\n`;
      expect(leastIndent(text, 3, 3 + body.length)).toBe(Math.min(...indents));
    }
  });

  it('names the quote a long quoted string misses, as the YAML library does', () => {
    for (const quote of ['"', "'"]) {
      const body = Array.from({ length: 300 }, (_, i) => ['a', 'bb', 'ccc'][i % 3]).join('\n');
      const text = `content: ${quote}${body}${quote}\nname: p\n`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      expect(library.errors[0]?.message).toContain(`Missing closing ${quote}quote`);
      expect('message' in ours ? ours.message : '').toContain(`Missing closing ${quote}quote`);
    }
  });

  it('reads a plain scalar of 100,000 one-character lines below its key through a two-line stand-in, equal to the yaml library', () => {
    const words = Array.from({ length: 100_000 }, (_, i) => 'abc'[i % 3]!);
    const text = `a:\n  x:\n${words.map((w) => `      ${w}\n`).join('')}b: 1\n`;
    const shape = checkYamlShape(text, { maxNodes: 100, maxDepth: 256, maxAliases: 100 });
    const plain = 'longPlain' in shape ? shape.longPlain : [];
    expect(plain).toEqual([[text.indexOf('a\n', 8), text.lastIndexOf('\nb: 1')]]);
    expect(leastIndent(text, plain[0]![0], plain[0]![1])).toBe(6);
    expect(plainStandIn(text, plain[0]![0], 6)).toBe('a\n      x');
    expect(parseYamlSource(text)).toMatchObject({ value: parseDocument(text).toJS() });
  });
});

describe('YAML prompt files: long block scalars', () => {
  const headers = [
    '|',
    '>',
    '|-',
    '>-',
    '|+',
    '>+',
    '|2',
    '>1',
    '|-2',
    '>2+',
    '|+1',
    '|4',
    '| # note',
    '>- #note',
    '|#tight',
    '|0',
    '|22',
    '|x',
    '|  ',
  ];
  const prefixes = ['x: ', 'a:\n  x: ', 'a:\n  - x: ', 'a:\n  - ', '- ', '', '--- ', 'a:\n  - - '];

  /** A block scalar's lines at `column` + 1..3 spaces, with more- and less-indented lines, blanks, tabs and CRLF. */
  function body(next: () => number, column: number): string {
    // Half the scalars are regular (no CR, no less-indented line, trailing blanks not more indented).
    const regular = next() < 0.5;
    const indent = column + 1 + Math.floor(next() * 3);
    const kinds = [
      () => `${' '.repeat(indent)}some words here`,
      () => `${' '.repeat(indent + 2)}more indented`,
      () => `${' '.repeat(indent + 4)}  deeper # not a comment`,
      () => '',
      () => ' '.repeat(Math.floor(next() * (indent + 4))),
      () => `${' '.repeat(indent)}\tstarts with a tab`,
      () => `${' '.repeat(indent)}ends with a CR\r`,
      () => `${' '.repeat(Math.max(0, indent - 1))}less indented`,
      () => `${' '.repeat(indent)}- looks: like yaml`,
    ];
    const lines: string[] = [];
    let length = 0;
    while (length < 300) {
      let kind = next() < 0.6 ? 0 : Math.floor(next() * kinds.length);
      if (regular && (kind === 6 || kind === 7)) kind = 0;
      if (regular && kind === 4 && lines.length === 0) kind = 0;
      const line = kinds[kind]!();
      lines.push(line);
      length += line.length + 1;
    }
    const trailing = Array.from({ length: Math.floor(next() * 4) }, () =>
      ' '.repeat(Math.floor(next() * (regular ? indent : indent + 3))),
    );
    return [...lines, ...trailing].join('\n');
  }

  it('reads long block scalars exactly as the YAML library does', () => {
    const next = prng(11);
    let standIns = 0;
    const texts = generatedCases(1_500);
    for (let n = 0; n < texts; n++) {
      const prefix = prefixes[Math.floor(next() * prefixes.length)]!;
      const header = headers[Math.floor(next() * headers.length)]!;
      const lastLine = prefix.slice(prefix.lastIndexOf('\n') + 1);
      const column =
        prefix === '' || prefix === '--- '
          ? 0
          : lastLine.replace(/[^ -]/g, ' ').length - (lastLine.endsWith(': ') ? 1 : 0);
      const after = ['', '\n', 'y: after\n', '\n\nz: 1\n', '  \tz: 1\n'][Math.floor(next() * 5)]!;
      const text = `${prefix}${header}\n${body(next, Math.max(0, column - 1))}\n${prefix.startsWith('a') || prefix === 'x: ' ? after : ''}`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      const at = text.indexOf(header[0]!, prefix.length);
      if (findBlockScalar(text, at) !== undefined) standIns++;
      if (library.errors.length > 0) expect('value' in ours, JSON.stringify(text)).toBe(false);
      else expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
    }
    // Most generated scalars take the linear path (the rest are left to the library whole).
    expect(standIns).toBeGreaterThan(texts / 3);
  });

  it('reads long regular block scalars (every line at one indentation) exactly as the YAML library does', () => {
    const next = prng(17);
    const texts = generatedCases(300);
    for (let n = 0; n < texts; n++) {
      const header = ['|', '>', '|-', '>-', '|+', '>+', '|2', '>2', '>-2', '|+2'][n % 10]!;
      const lineCount = 20 + Math.floor(next() * 20);
      const words = ['word', 'two words', '#hash', 'a: b', '- dash', 'x\ty'];
      const content = Array.from(
        { length: lineCount },
        () => `      ${words[Math.floor(next() * words.length)]!}`,
      ).join('\n');
      const trailing = '\n'.repeat(1 + Math.floor(next() * 3));
      const text = `messages:\n  - content: ${header}\n${content}${trailing}  - content: next\n`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      expect(library.errors, text).toEqual([]);
      expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
    }
  });

  it('reads block scalars of many short lines, blank and less indented blank ones among them, exactly as the YAML library does', () => {
    const next = prng(23);
    const texts = generatedCases(300);
    for (let n = 0; n < texts; n++) {
      const header = ['|', '>', '|-', '>-', '|+', '>+', '|2', '>2', '>-2', '|+2'][n % 10]!;
      const lines = ['a', 'bb', 'c d', '#', 'x\ty', '', '   ', '        e'];
      const content = Array.from({ length: 40 + Math.floor(next() * 80) }, (_, i) => {
        const line = lines[Math.floor(next() * (n % 3 === 0 ? 5 : lines.length))]!;
        return i === 0 || (line !== '' && line !== '   ' && !line.startsWith(' ')) ? `      ${line || 'f'}` : line;
      }).join('\n');
      const text = `messages:\n  - content: ${header}\n${content}\n  - content: next\n`;
      const ours = parseYamlSource(text);
      const library = parseDocument(text);
      if (library.errors.length > 0) expect('value' in ours, JSON.stringify(text)).toBe(false);
      else expect('value' in ours ? ours.value : ours, JSON.stringify(text)).toEqual(library.toJS());
    }
  });

  it('keeps the lines and columns of everything after a long block scalar', async () => {
    const block = Array.from({ length: 50 }, (_, i) => `    line ${i} of the description`).join('\n');
    const { lines: found } = await lines({
      'p.yaml': `name: p\ndescription: >-\n${block}\nmessages:\n  - role: system\n    content: hi\n`,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^p\.yaml:54:5: \/messages\/0\/role: /);
  });

  it('places an error inside a long block scalar where the YAML library does', async () => {
    const block = Array.from({ length: 50 }, (_, i) => `    line ${i}`).join('\n');
    const { lines: found } = await lines({
      'p.yaml': `name: p\ndescription: |\n${block}\n   less\n  \tbad\nmessages: [{role: user, content: hi}]\n`,
    });
    const library = parseDocument(
      `name: p\ndescription: |\n${block}\n   less\n  \tbad\nmessages: [{role: user, content: hi}]\n`,
    );
    expect(library.errors.length).toBeGreaterThan(0);
    const [line, col] = library.errors[0]!.linePos![0]
      ? [library.errors[0]!.linePos![0].line, library.errors[0]!.linePos![0].col]
      : [0, 0];
    expect(found).toEqual([expect.stringMatching(new RegExp(`^p\\.yaml:${line}:${col}: invalid YAML: `))]);
  });

  it('reads a long block scalar through a short stand-in', () => {
    const block = Array.from({ length: 1_000 }, (_, i) => `      line ${i} of a long block of prose text`).join('\n');
    for (const header of ['|', '>-', '|+', '>2', '|-2 # comment']) {
      const text = `messages:\n  - content: ${header}\n${block}\n\n  - content: next\n`;
      const found = findBlockScalar(text, text.indexOf(header));
      expect(found?.standIn.length, header).toBeLessThan(40);
      expect(found?.end, header).toBe(text.indexOf('\n  - content: next') + (header.includes('+') ? 1 : 0));
    }
  });

  it('loads a 1 MB block scalar template', async () => {
    const text = Array.from({ length: 21_000 }, (_, i) => `line ${i} of a long block of prose text`);
    const dir = await tempDir();
    await writeFiles(dir, {
      'big.yaml': `name: big\nmessages:\n  - role: user\n    content: |-\n${text.map((l) => `      ${l}\n`).join('')}`,
    });
    const { definitions, diagnostics } = await loadPromptDirectory(dir);
    expect(diagnostics).toEqual([]);
    expect(definitions[0]?.messages?.[0]?.content).toEqual({ type: 'text', text: text.join('\n') });
  });
});
