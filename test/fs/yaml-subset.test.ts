import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseYamlSource, parseYamlWithLibrary } from '../../src/fs/yaml-source.js';
import type { YamlSource } from '../../src/fs/yaml-source.js';
import { readYamlSubset } from '../../src/fs/yaml-subset.js';
import { resolvePlain } from '../../src/fs/yaml-subset-cursor.js';
import type { SubsetRead } from '../../src/fs/yaml-subset.js';
import { generatedCases } from '../support/processes.js';
import { prng } from '../support/schedule.js';

/** What the subset reader read, or undefined when it gave up or refused the text. */
function subsetOf(text: string, maxNodes = 10_000): SubsetRead | undefined {
  const read = readYamlSubset(text, maxNodes);
  return read === undefined || 'problem' in read ? undefined : read;
}

const KEYS = ['a', 'b', 'name', 'key 1', '"q k"', "'s k'", '1', 'true', 'null', '~', 'x.y', '-k', '?k', ':k', 'k#x'];
const MORE_KEYS = ['k #x', '__proto__', 'toString', 'é', 'a  ', "'it''s'", '"a\\"b"', '"a\\tb"', 'k\tx', '0x1', '.5'];
const WORDS = ['x', 'hello world', '1', '-1', '+2', '0x1F', '0o7', '0o8', '1e3', '1.5e-3', '.5', '1.', '1.50', '-0'];
const MORE_WORDS = [
  ...['.inf', '-.Inf', '.NaN', 'true', 'False', 'TRUE', 'tRue', 'null', 'Null', '~', 'a:b', 'a: b', 'a:', 'a #b'],
  ...['a#b', 'http://x.y/z', '-x', '- x', '@x', '`x', '%x', '!x', '&a x', '*a', '[1, 2]', '{a: 1}', 'x\ty', 'x  '],
  ...['x\t', '"', "'", 'é ü', 'a,b', '? x', ': x', 'x\u00a0', '|x', '>x', '123456789012345678901234567890', '<<'],
];
const ESCAPES = ['\\n', '\\t', '\\"', '\\\\', '\\x41', '\\u00e9', '\\U0001F600', '\\e', '\\N', '\\_', '\\q', '\\\n'];
/** Inside double-quoted strings of many lines: one-character escapes (others are read by the general loop). */
const DENSE_DOUBLE = [
  'a',
  'b c',
  ' ',
  '\t',
  "'",
  '#',
  ': ',
  'é',
  '€',
  '\\n',
  '\\t',
  '\\"',
  '\\\\',
  '\\e',
  '\\N',
  '\\_',
  '\\q',
];
const INSERTS = ['\t', '\r', '#', ':', '- ', ' ', '\n', '"', "'", '\\', '---\n', '...\n', '&a ', '*a', '!t ', '? '];

/**
 * Block YAML of every scalar style, flow collections, keys of every kind, comments and blank lines at any indentation, entries at and
 * past their key's column, some mistakes (a wrong indentation, a key indicator inside a value); a third of the texts
 * with a character inserted or removed anywhere. `dense`: scalars of 34 to 73 short lines (read from bytes).
 */
function generator(seed: number, dense = false): () => string {
  const next = prng(seed);
  const count = (): number => (dense ? 34 + Math.floor(next() * 40) : Math.floor(next() * 5));
  let wild = false;
  const pick = <T>(calm: readonly T[], more: readonly T[] = []): T => {
    const all = wild ? [...calm, ...more] : calm;
    return all[Math.floor(next() * all.length)]!;
  };
  const spaces = (n: number): string => ' '.repeat(Math.max(0, n));
  const lines = (indent: number, line: () => string): string => {
    let s = '';
    for (let i = count(); i > 0; i--) {
      const r = next();
      // Many lines: one in thirty is a blank line or one indented differently, the rest at the indentation.
      if (dense && r > 0.03) s += next() < 0.6 ? `\n${spaces(indent + 1)}` : line();
      else s += r < 0.15 ? '\n' : r < 0.45 ? `\n${spaces(indent + Math.floor(next() * 4) - 1)}` : line();
    }
    return s;
  };
  const quoted = (indent: number, q: string, inner: readonly string[]): string =>
    `${q}${lines(indent, () => pick(inner))}${q}`;
  const block = (indent: number): string => {
    let s = `${pick(['|', '>', '|-', '>-', '|+', '>+', '| # c'], ['|2', '>1', '|  ', '|x', '>\t'])}\n`;
    const base = indent + 1 + Math.floor(next() * 3);
    for (let i = count(); i > 0; i--) {
      const r = dense && next() > 0.03 ? 1 : next();
      if (r < 0.15) s += '\n';
      else if (r < 0.25) s += `${spaces(base + Math.floor(next() * 3))}\n`;
      else if (r < 0.35) s += `${spaces(base + 1 + Math.floor(next() * 2))}${pick(WORDS, MORE_WORDS)}\n`;
      else if (r < 0.4) s += `${spaces(base - 1)}${pick(WORDS, MORE_WORDS)}\n`;
      else s += `${spaces(base)}${pick(WORDS, MORE_WORDS)}\n`;
    }
    return s;
  };
  const plain = (indent: number): string =>
    `${pick(WORDS, MORE_WORDS)}${lines(indent, () => (dense ? '' : pick(['', ' # c', '# c', ...WORDS])) + pick(WORDS, MORE_WORDS))}`;
  const flow = (indent: number, depth: number): string => {
    const item = (): string =>
      depth < 2 && next() < 0.2
        ? flow(indent, depth + 1)
        : next() < 0.7
          ? pick(WORDS, MORE_WORDS)
          : next() < 0.8
            ? pick(['"a b"', "'c''d'", '"x\\ty"', '""', '"a,b"', '"k": v'])
            : quoted(indent + 1, pick(['"', "'"]), ['a', 'b c', ' ', "''", '#', ': ']);
    const comma = (): string =>
      pick(
        [
          ', ',
          ',',
          ' , ',
          `,\n${spaces(indent + Math.floor(next() * 3))}`,
          `,\n${pick(['', ' ', '   '])}\n${spaces(indent + 1)}`,
        ],
        [', # c\n  ', ', ,'],
      );
    const items: string[] = [];
    const mapping = next() < 0.45;
    for (let i = Math.floor(next() * 4); i > 0; i--) {
      items.push(mapping ? `${pick(KEYS, MORE_KEYS)}${pick([': ', ':', ' : ', ':\n  '])}${item()}` : item());
    }
    const close = pick(['', ' ', `\n${spaces(indent + 1)}`, `\n${spaces(indent)}`, `\n${spaces(indent - 1)}`]);
    return mapping ? `{${items.join(comma())}${close}}` : `[${items.join(comma())}${close}]`;
  };
  const scalar = (indent: number): string => {
    const r = next();
    if (r < 0.12) return flow(indent, 0);
    if (r < 0.35) return pick(WORDS, MORE_WORDS);
    if (r < 0.5) return plain(indent + 1);
    if (r < 0.65)
      return quoted(indent + 1, '"', dense ? DENSE_DOUBLE : ['a', 'b c', ' ', '\t', "'", 'é', '#', ': ', ...ESCAPES]);
    if (r < 0.75) return quoted(indent + 1, "'", ["''", 'a', 'b c', ' ', '\t', '"', '\\', '#', ': ']);
    if (r < 0.9) return block(indent);
    return pick(WORDS, MORE_WORDS) + pick([' # c', '  #c', '#c', ' ']);
  };
  const node = (indent: number, depth: number): string => {
    const r = next();
    if (depth > 3 || r < 0.05) return `${spaces(indent)}${scalar(indent - 1)}\n`;
    return r < 0.6 ? mapping(indent, depth) : sequence(indent, depth);
  };
  const mapping = (indent: number, depth: number): string => {
    let s = '';
    for (let i = 1 + Math.floor(next() * 4); i > 0; i--) {
      s += `${spaces(indent)}${pick(KEYS, MORE_KEYS)}${pick([':', ':', ':', ' :'], [':\t'])}`;
      const r = next();
      if (r < 0.55) s += ` ${scalar(indent)}${next() < 0.1 ? ' # c' : ''}\n`;
      else if (r < 0.6) s += `${pick(['', ' ', ' # c'])}\n`;
      else if (r < 0.7) s += `\n${sequence(indent + pick([0, 0, 2, 1]), depth + 1)}`;
      else if (r < 0.95)
        s += `${pick(['', ' # c'])}\n${next() < 0.1 ? '\n# x\n' : ''}${node(indent + pick([2, 1, 4, 0]), depth + 1)}`;
      else s += `\n${spaces(indent + 2)}${scalar(indent)}\n`;
      if (next() < 0.1) s += pick(['\n', '# note\n', `${spaces(indent + 3)}# n\n`, '   \n']);
    }
    return s;
  };
  const sequence = (indent: number, depth: number): string => {
    let s = '';
    for (let i = 1 + Math.floor(next() * 4); i > 0; i--) {
      const r = next();
      const dash = `${spaces(indent)}-`;
      if (r < 0.4) s += `${dash} ${scalar(indent)}\n`;
      else if (r < 0.7) s += `${dash} ${mapping(indent + 2, depth + 1).slice(indent + 2)}`;
      else if (r < 0.75) s += `${dash}\n`;
      else if (r < 0.8) s += `${dash} - x\n`;
      else s += `${dash}${pick(['', ' # c'])}\n${node(indent + pick([2, 1, 3]), depth + 1)}`;
    }
    return s;
  };
  return () => {
    wild = next() < (dense ? 0.15 : 0.3);
    const text = node(0, 0);
    if (!wild || next() < 0.5) return text;
    const at = Math.floor(next() * (text.length + 1));
    return next() < 0.3 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + pick(INSERTS) + text.slice(at);
  };
}

/** Every JSON pointer into a value. */
function pointers(value: unknown, pointer = ''): string[] {
  const found = [pointer];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) found.push(...pointers(v, `${pointer}/${i}`));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      found.push(...pointers(v, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`));
    }
  }
  return found;
}

const PROMPT = `# A prompt file as the README writes them
name: review_code
description: Review code for style and bugs
arguments:
  - name: code
    description: The code to review
    required: true
  - name: language
    enum: [python, typescript]
messages:
  - role: user
    content: |
      Review this {{language}} code:

      {{code}}
  - role: assistant
    content: >-
      I will look at naming,
      structure and tests.
`;

/**
 * Holds `count` generated texts ({@link generatedCases}) to the library path: every text the reader takes to its value
 * (deep equality, prototypes) and to its position for every JSON pointer, every text it refuses to a refusal. Counts
 * both.
 */
function compareWithLibrary(next: () => string, count: number): { read: number; refused: number; texts: number } {
  const texts = generatedCases(count);
  let read = 0;
  let refused = 0;
  for (let i = 0; i < texts; i++) {
    const text = next();
    const subset = readYamlSubset(text, 10_000);
    if (subset === undefined) continue;
    const library = parseYamlWithLibrary(text, 2);
    if ('problem' in subset) {
      refused++;
      if ('value' in library) expect.fail(`the library reads ${JSON.stringify(text)}: ${subset.problem.message}`);
      continue;
    }
    read++;
    if (!('value' in library)) expect.fail(`the library refuses ${JSON.stringify(text)}: ${library.message}`);
    const same =
      isDeepStrictEqual(subset.value, library.value) &&
      Object.getPrototypeOf(subset.value) === Object.getPrototypeOf(library.value);
    if (!same) expect.fail(`${JSON.stringify(text)} reads as ${JSON.stringify(subset.value)}`);
    const ours = parseYamlSource(text, 2) as YamlSource;
    for (const pointer of pointers(library.value)) {
      if (!isDeepStrictEqual(ours.locate(pointer), library.locate(pointer)))
        expect.fail(`${JSON.stringify(text)}: ${pointer} at ${JSON.stringify(ours.locate(pointer))}`);
    }
  }
  return { read, refused, texts };
}

describe('YAML subset reader', () => {
  it('reads generated block YAML exactly as the YAML library does: every value and every position', () => {
    const { read, refused, texts } = compareWithLibrary(generator(7), 4_000);
    expect(refused).toBeGreaterThan(texts / 400);
    // The generator keeps a good share of its texts inside the subset (the rest go to the library).
    expect(read).toBeGreaterThan(texts / 10);
  });

  it('reads generated scalars of many short lines (read from bytes) exactly as the YAML library does', () => {
    const { read, texts } = compareWithLibrary(generator(11, true), 3_000);
    expect(read).toBeGreaterThan(texts / 12);
  });

  it('reads a prompt file as written in the README without the YAML library', () => {
    const read = subsetOf(PROMPT);
    expect(read?.value).toEqual((parseYamlWithLibrary(PROMPT) as YamlSource).value);
    expect(read?.value).toMatchObject({
      arguments: [{ name: 'code', required: true }, { enum: ['python', 'typescript'] }],
      messages: [
        { role: 'user', content: 'Review this {{language}} code:\n\n{{code}}\n' },
        { role: 'assistant', content: 'I will look at naming, structure and tests.' },
      ],
    });
    expect(read?.offsetOf('/messages/1/content')).toBe(PROMPT.indexOf('content: >-'));
    expect(read?.offsetOf('/arguments/1/enum/1')).toBe(PROMPT.indexOf('typescript'));
  });

  it('folds plain scalars over lines as the library does: one indentation or several, blank lines, short lines', () => {
    const words = Array.from({ length: 400 }, (_, i) => ['a', 'bb', 'a longer line of prose text'][i % 3]!);
    const prose = Array.from({ length: 200 }, (_, i) => `line ${i} of a paragraph of prose text`);
    const bodies = [
      prose.join('\n  '),
      prose.map((w, i) => (i % 4 === 3 ? `${w}\n` : w)).join('\n  '),
      prose.map((w, i) => (i % 9 === 8 ? `${w}\n\n` : w)).join('\n  '),
      words.join('\n  '),
      words.map((w, i) => (i % 4 === 3 ? `${w}\n` : w)).join('\n  '),
      words.map((w, i) => (i % 7 === 6 ? `${w}\n\n` : w)).join('\n  '),
      words.map((w, i) => `${' '.repeat(i % 3)}${w}`).join('\n  '),
      words.map((w, i) => (i % 5 === 4 ? `${w}\n   ` : w)).join('\n  '),
    ];
    for (const body of bodies) {
      for (const text of [`k: ${body}\nnext: 1\n`, `k:\n  ${body}\n\n# end\n`, `- ${body}\n- x\n`]) {
        expect(subsetOf(text)?.value, JSON.stringify(text.slice(0, 60))).toEqual(
          (parseYamlWithLibrary(text) as YamlSource).value,
        );
      }
    }
  });

  it('reads generated texts written with CRLF line breaks exactly as the YAML library reads them', () => {
    const next = generator(17);
    const crlf = (): string => next().replaceAll('\r', '').replaceAll('\n', '\r\n');
    const { read, texts } = compareWithLibrary(crlf, 1_500);
    expect(read).toBeGreaterThan(texts / 10);
    const dense = generator(19, true);
    const denseRead = compareWithLibrary(() => dense().replaceAll('\r', '').replaceAll('\n', '\r\n'), 1_000);
    expect(denseRead.read).toBeGreaterThan(denseRead.texts / 12.5);
  });

  it('reads block scalars of many lines (blank, more indented, tab-started, kept) exactly as the YAML library does', () => {
    const next = prng(13);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    const blank = (base: number): string => `${' '.repeat(Math.floor(next() * (base + 1)))}\n`;
    const text = (): string => {
      const base = 2 + Math.floor(next() * 3);
      let s = `k: ${pick(['|', '>', '|-', '>-', '|+', '>+'])}\n`;
      for (let i = Math.floor(next() * 3); i > 0; i--) s += blank(base + (next() < 0.2 ? 2 : 0));
      for (let i = 34 + Math.floor(next() * 20); i > 0; i--) {
        const r = next();
        if (r < 0.12) s += blank(base);
        else if (r < 0.25) s += `${' '.repeat(base + 1 + Math.floor(next() * 2))}${pick(['a', 'b c', 'd '])}\n`;
        else if (r < 0.3) s += `${' '.repeat(base)}\tx\n`;
        else s += `${' '.repeat(base)}${pick(['a', 'bb', 'c c', 'd  '])}\n`;
      }
      for (let i = Math.floor(next() * 3); i > 0; i--) s += blank(base);
      return next() < 0.5 ? `${s}z: 1\n` : s;
    };
    const { read, texts } = compareWithLibrary(text, 2_000);
    expect(read).toBeGreaterThan(texts * 0.75);
  });

  it('ends a scalar of many short lines where the library does: a line not past its parent, a key, a comment', () => {
    const lines = Array.from({ length: 60 }, (_, i) => ['a', 'bb', 'c c'][i % 3]!);
    const ends = ['d', ' d', '  d', '   d', '# c', '  # c', 'k: v', '  k: v', ' \td', '- x', '  - x', '', '   ', 'd:'];
    let read = 0;
    for (const [head, indent] of [
      ['k:', 2],
      ['k: |', 2],
      ['k: >-', 2],
      ['- k: |+', 4],
      ['- k:', 4],
      ['- k: >', 5],
    ] as const) {
      for (const end of ends) {
        const text = `${head}\n${lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n')}\n${end}\nz: 1\n`;
        const subset = subsetOf(text);
        if (subset === undefined) continue;
        read++;
        const library = parseYamlWithLibrary(text);
        expect('value' in library ? library.value : library.message, JSON.stringify(text.slice(-40))).toEqual(
          subset.value,
        );
      }
    }
    expect(read).toBeGreaterThan(20);
  });

  it('leaves a scalar of many short lines to the library path when a later line holds a key indicator or a comment', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `  ${['a', 'bb', 'c c'][i % 3]}`).join('\n');
    for (const stop of ['  a: b', '    a: b', '  a:', '  x #c', '  x: [1']) {
      const text = `k:\n${lines}\n${stop}\nz: 1\n`;
      expect(readYamlSubset(text, 10_000), stop).toBeUndefined();
      const doc = parseDocument(text);
      const ours = parseYamlSource(text);
      if (doc.errors.length === 0) expect('value' in ours ? ours.value : ours, stop).toEqual(doc.toJS());
      else expect(ours, stop).toEqual(expect.objectContaining({ line: doc.errors[0]!.linePos![0].line }));
    }
  });

  it('reads flow collections over lines, closing at the parent indentation only for the outermost one', () => {
    const text = 'a: [\n  1, {b: "c",\n    d: [e]},\n  f\n]\ng: {h: i}\n';
    expect(subsetOf(text)?.value).toEqual({ a: [1, { b: 'c', d: ['e'] }, 'f'], g: { h: 'i' } });
    expect(readYamlSubset('a:\n  b: [\n    1\n]\n', 10_000)).toBeUndefined(); // the library refuses it
    expect(readYamlSubset('a: [[\n  1\n], 2]\n', 10_000)).toBeUndefined();
  });

  it.each([
    ['a comment inside a flow collection', 'a: [1, # c\n  2]\n'],
    ['a trailing comma', 'a: [1, 2,]\n'],
    ['a flow scalar over lines', 'a: [b\n  c]\n'],
    ['a pair inside a flow sequence', 'a: [b: 1]\n'],
    ['a flow key without a value', 'a: {b, c: 1}\n'],
    ['an anchor', 'a: &x 1\n'],
    ['an alias', 'a: 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a tab in the indentation', 'a:\n\tb: 1\n'],
    ['a tab after a colon', 'a:\t1\n'],
    ['a carriage return alone', 'a: 1\rb: 2\r\n'],
    ['a byte order mark', '\ufeffa: 1\n'],
    ['a duplicate key', 'a: 1\nb: 2\na: 3\n'],
    ['a key named twice as numbers', '1: a\n1.0: b\n'],
    ['a document marker', '---\na: 1\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a scalar document', 'just text\n'],
    ['an empty entry', '- a\n-\n- b\n'],
    ['a compact nested sequence', '- - a\n'],
    ['a mistake in the indentation', 'a:\n  b: 1\n c: 2\n'],
    ['a key indicator inside a value', 'a: b: c\n'],
    ['a comment inside a plain scalar over lines', 'a: b\n  c # d\n  e\n'],
    ['a quoted scalar whose closing quote is not indented', 'a: "b\n"\n'],
    ['an explicit block indentation', 'a: |2\n    b\n'],
  ])('leaves %s to the YAML library', (_, text) => {
    expect(readYamlSubset(text, 10_000)).toBeUndefined();
    const library = parseYamlWithLibrary(text);
    expect(parseYamlSource(text)).toEqual('value' in library ? { ...library, locate: expect.any(Function) } : library);
  });

  it('refuses a quoted string whose later line is not indented past its parent, at that line, as the library path does', () => {
    const short = Array.from({ length: 3_000 }, (_, i) => ['a', 'bb', 'ccc'][i % 3]).join('\n');
    const at = (indent: number) =>
      short
        .split('\n', 60)
        .map((l) => `${' '.repeat(indent)}${l}`)
        .join('\n');
    for (const [text, line, column] of [
      ['c: "a\n  b\nc"\n', 3, 1],
      // The least indentation is the line's, however more-indented lines around it are.
      [`k:\n  - "a\n${at(4)}\n  x\n${at(3)}"\n`, 63, 3],
      [`k:\n  - 'a\n${at(3)}\n  x\n${at(4)}'\n`, 63, 3],
      [`c: '${'x'.repeat(300)}\n  b\nc'\n`, 3, 1],
      [`content: "${short}"\nname: x\n`, 2, 1],
      ['k:\n  - "a\n   b\n  c"\n', 4, 3],
    ] as const) {
      expect(readYamlSubset(text, 10_000)).toMatchObject({ problem: { offset: expect.any(Number) } });
      const ours = parseYamlSource(text, 1);
      expect(ours).toMatchObject({
        message: expect.stringMatching(
          /^invalid YAML: Missing closing ["']quote: a line of a quoted string must be indented more than \d spaces here$/,
        ),
        line: line + 1,
        column,
      });
      expect(parseYamlWithLibrary(text)).toMatchObject({
        message: expect.stringMatching(/^invalid YAML: Missing closing/),
      });
    }
    // A crossed bound is still reported first, as the library path reports it.
    expect(parseYamlSource('c: "a\nb"\nd: [1, 2, 3, 4]\n', 0, 3)).toMatchObject({
      message: expect.stringContaining('more than 3 YAML nodes'),
    });
  });

  it('gives up past the node bound, so the library path reports where the text crosses it', () => {
    const text = Array.from({ length: 60 }, (_, i) => `k${i}: ${i}\n`).join('');
    expect(subsetOf(text, 121)).toBeDefined();
    expect(readYamlSubset(text, 120)).toBeUndefined();
    expect(parseYamlSource(text, 0, 100)).toMatchObject({
      message: expect.stringContaining('more than 100 YAML nodes'),
    });
  });

  it('gives up past 64 levels of nesting (the library bounds deeper texts)', () => {
    const deep = (levels: number): string =>
      `${Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}a:\n`).join('')}${' '.repeat(levels)}1\n`;
    expect(subsetOf(deep(60))).toBeDefined();
    expect(readYamlSubset(deep(70), 10_000)).toBeUndefined();
    expect((parseYamlSource(deep(70)) as YamlSource).value).toEqual(
      (parseYamlWithLibrary(deep(70)) as YamlSource).value,
    );
  });

  it('names keys that read as null, booleans or numbers as the library does, and keeps __proto__ a plain key', () => {
    const text = '~: a\ntrue: b\n0x10: c\n1.50: d\n.inf: e\n__proto__: f\nconstructor: g\n';
    const read = subsetOf(text)!.value as Record<string, unknown>;
    expect(read).toEqual((parseYamlWithLibrary(text) as YamlSource).value);
    expect(Object.keys(read)).toEqual(['16', '', 'true', '1.5', 'Infinity', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it('resolves plain scalars with the core schema of the library, in its order', () => {
    const cases: [string, unknown][] = [
      ['~', null],
      ['Null', null],
      ['nULL', 'nULL'],
      ['True', true],
      ['fALSE', 'fALSE'],
      ['0o17', 15],
      ['0o18', '0o18'],
      ['-0', -0],
      ['+12', 12],
      ['0x1f', 31],
      ['0X1F', '0X1F'],
      ['-.INF', Number.NEGATIVE_INFINITY],
      ['.NaN', Number.NaN],
      ['1e3', 1000],
      ['1.', 1],
      ['.5e-1', 0.05],
      ['1_000', '1_000'],
      ['n', 'n'],
    ];
    for (const [text, value] of cases) expect([text, resolvePlain(text)]).toEqual([text, value]);
  });
});
