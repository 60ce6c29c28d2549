/**
 * Author patterns run on a linear-time engine: an ECMAScript (`u` mode) pattern is translated into RE2 syntax with
 * the same meaning and compiled with re2js, so no argument can make a pattern backtrack. What is supported, and why:
 * docs/arguments.md.
 *
 * @module
 */
import type { CodeOptions } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { quote } from '../definition/raw-data.js';
import { PatternBudget } from './pattern-budget.js';

/** A pattern RE2 cannot run as ECMAScript means it (a lookaround, a backreference, ...); the message says why. */
export class UnsupportedPatternError extends Error {}

/** A compiled pattern, shaped as ajv's engine expects (`toString` keys ajv's per-instance scope: one per source). */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/** RE2 allows at most this many repetitions in a `{n,m}` (and in nested ones, multiplied). */
const MAX_REPEAT = 1000;

const ENGINE = 'patterns run on a linear-time engine (RE2)';

/** `what: patterns run on a linear-time engine (RE2), which …`. */
function unsupported(what: string, which: string): UnsupportedPatternError {
  return new UnsupportedPatternError(`${what}: ${ENGINE}, which ${which}`);
}

const LONE_SURROGATE = 'contains a lone surrogate (half of a UTF-16 pair)';

/** ECMAScript `\s`: WhiteSpace and LineTerminator code points (RE2's `\s` is ASCII only, without `\v`). */
const SPACE_RANGES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function hex(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/** A code point as RE2 text that means itself anywhere (in or out of a class). */
function literal(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)
    ? String.fromCharCode(cp)
    : hex(cp);
}

function rangeItems(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');
}

function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

const SPACE = rangeItems(SPACE_RANGES);
const NOT_SPACE = rangeItems(complement(SPACE_RANGES));
const ANY = `${hex(0)}-${hex(0x10ffff)}`;
/** ECMAScript `.` without the `s` flag: anything but a line terminator (RE2's `.` excludes `\n` only). */
const DOT = `[^${rangeItems([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;

/** General_Category values and aliases ECMAScript accepts, to the short names RE2 knows. */
const GENERAL_CATEGORY: Readonly<Record<string, string>> = (() => {
  const table: Record<string, string> = {};
  const rows: readonly (readonly string[])[] = [
    ['C', 'Other'],
    ['Cc', 'Control', 'cntrl'],
    ['Cf', 'Format'],
    ['Cn', 'Unassigned'],
    ['Co', 'Private_Use'],
    ['Cs', 'Surrogate'],
    ['L', 'Letter'],
    ['LC', 'Cased_Letter'],
    ['Ll', 'Lowercase_Letter'],
    ['Lm', 'Modifier_Letter'],
    ['Lo', 'Other_Letter'],
    ['Lt', 'Titlecase_Letter'],
    ['Lu', 'Uppercase_Letter'],
    ['M', 'Mark', 'Combining_Mark'],
    ['Mc', 'Spacing_Mark'],
    ['Me', 'Enclosing_Mark'],
    ['Mn', 'Nonspacing_Mark'],
    ['N', 'Number'],
    ['Nd', 'Decimal_Number', 'digit'],
    ['Nl', 'Letter_Number'],
    ['No', 'Other_Number'],
    ['P', 'Punctuation', 'punct'],
    ['Pc', 'Connector_Punctuation'],
    ['Pd', 'Dash_Punctuation'],
    ['Pe', 'Close_Punctuation'],
    ['Pf', 'Final_Punctuation'],
    ['Pi', 'Initial_Punctuation'],
    ['Po', 'Other_Punctuation'],
    ['Ps', 'Open_Punctuation'],
    ['S', 'Symbol'],
    ['Sc', 'Currency_Symbol'],
    ['Sk', 'Modifier_Symbol'],
    ['Sm', 'Math_Symbol'],
    ['So', 'Other_Symbol'],
    ['Z', 'Separator'],
    ['Zl', 'Line_Separator'],
    ['Zp', 'Paragraph_Separator'],
    ['Zs', 'Space_Separator'],
  ];
  for (const [short, ...aliases] of rows) {
    for (const name of [short, ...aliases]) table[name as string] = short as string;
  }
  return table;
})();

/** Binary properties (and aliases) whose RE2 table is the same set as ECMAScript's. */
const BINARY: Readonly<Record<string, string>> = (() => {
  const table: Record<string, string> = { Any: 'Any', ASCII: 'Ascii', Assigned: 'Assigned' };
  for (const name of ['Dash', 'Emoji', 'Math']) table[name] = name;
  const rows: readonly (readonly [string, string])[] = [
    ['Alphabetic', 'Alpha'],
    ['ASCII_Hex_Digit', 'AHex'],
    ['Emoji_Component', 'EComp'],
    ['Emoji_Modifier', 'EMod'],
    ['Emoji_Modifier_Base', 'EBase'],
    ['Emoji_Presentation', 'EPres'],
    ['Extended_Pictographic', 'ExtPict'],
    ['Hex_Digit', 'Hex'],
    ['Lowercase', 'Lower'],
    ['Quotation_Mark', 'QMark'],
    ['Terminal_Punctuation', 'Term'],
    ['Uppercase', 'Upper'],
    ['White_Space', 'space'],
  ];
  for (const [name, alias] of rows) table[name] = table[alias] = name;
  return table;
})();

/** Whether RE2 knows `\p{name}` (script names: RE2 knows the long ones, `Greek`, not `Grek`). */
function re2Knows(name: string): boolean {
  try {
    RE2JS.compile(`\\p{${name}}`);
    return true;
  } catch {
    return false;
  }
}

/** `\p{…}` / `\P{…}` body to an RE2 class item, or why not. */
function property(body: string, negated: boolean): string {
  const sign = negated ? 'P' : 'p';
  const eq = body.indexOf('=');
  const shown = `\\${sign}{${body}}`;
  let name: string | undefined;
  if (eq < 0) {
    name = Object.hasOwn(GENERAL_CATEGORY, body)
      ? GENERAL_CATEGORY[body]
      : Object.hasOwn(BINARY, body)
        ? BINARY[body]
        : undefined;
    if (name === undefined) {
      throw unsupported(`uses ${shown}`, 'does not have that Unicode property');
    }
  } else {
    const key = body.slice(0, eq);
    const value = body.slice(eq + 1);
    if (key === 'General_Category' || key === 'gc') {
      name = GENERAL_CATEGORY[value];
    } else if (key === 'Script' || key === 'sc') {
      if (re2Knows(value)) return `\\${sign}{${value}}`;
      throw unsupported(`uses ${shown}`, 'knows scripts by their long names only (Greek, not Grek)');
    }
    if (name === undefined) {
      throw unsupported(`uses ${shown}`, `has no ${key} property (use Script=)`);
    }
  }
  return `\\${sign}{${name}}`;
}

/** One pass over a pattern the native engine accepts with the `u` flag (so its grammar is the strict one). */
class Translator {
  private i = 0;
  /** Open groups, and whether a `|` splits the whole pattern (then `^…$` does not anchor all of it). */
  private depth = 0;
  split = false;
  constructor(private readonly p: string) {}

  run(): string {
    const p = this.p;
    let out = '';
    while (this.i < p.length) {
      const c = p[this.i] as string;
      switch (c) {
        case '\\':
          this.i++;
          out += this.escape(false);
          break;
        case '[':
          out += this.charClass();
          break;
        case '(':
          out += this.group();
          break;
        case '.':
          this.i++;
          out += DOT;
          break;
        case '{':
          out += this.repeat();
          break;
        case '|':
          if (this.depth === 0) this.split = true;
          this.i++;
          out += c;
          break;
        case ')':
          this.depth--;
          this.i++;
          out += c;
          break;
        case '^':
        case '$':
        case '*':
        case '+':
        case '?':
          this.i++;
          out += c;
          break;
        default:
          out += literal(this.codePoint());
      }
    }
    return out;
  }

  /** The code point at the cursor (a lone surrogate is refused), advancing past it. */
  private codePoint(): number {
    const cp = this.p.codePointAt(this.i) as number;
    this.i += cp > 0xffff ? 2 : 1;
    if (cp >= 0xd800 && cp <= 0xdfff) throw unsupported(LONE_SURROGATE, 'matches whole code points');
    return cp;
  }

  private group(): string {
    const p = this.p;
    this.i++;
    this.depth++;
    if (p[this.i] !== '?') return '(?:';
    const next = p[this.i + 1];
    if (next === ':') {
      this.i += 2;
      return '(?:';
    }
    if (next === '=' || next === '!') {
      throw unsupported('uses a lookahead', 'has no lookarounds');
    }
    if (next === '<' && (p[this.i + 2] === '=' || p[this.i + 2] === '!')) {
      throw unsupported('uses a lookbehind', 'has no lookarounds');
    }
    if (next === '<') {
      // A named group: only test() runs, so a plain group means the same (and keeps RE2's name rules out of it).
      this.i = p.indexOf('>', this.i) + 1;
      return '(?:';
    }
    throw unsupported(`uses a modifier group (${p.slice(this.i - 1, this.i + 4)}…)`, 'does not take them');
  }

  /** `{n}`, `{n,}` or `{n,m}` (u mode has no literal braces), with RE2's bound. */
  private repeat(): string {
    const end = this.p.indexOf('}', this.i);
    const body = this.p.slice(this.i + 1, end);
    this.i = end + 1;
    const counts = body.split(',').map((n) => (n === '' ? '' : String(Number(n))));
    if (counts.some((n) => n !== '' && Number(n) > MAX_REPEAT)) {
      throw unsupported(`repeats more than ${MAX_REPEAT} times ({${body}})`, `allows at most ${MAX_REPEAT}`);
    }
    return `{${counts.join(',')}}`;
  }

  /** After a backslash: an RE2 atom (outside a class) or class items (inside one). */
  private escape(inClass: boolean): string {
    const p = this.p;
    const c = p[this.i] as string;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        this.i++;
        return `\\${c}`;
      case 's':
        this.i++;
        return inClass ? SPACE : `[${SPACE}]`;
      case 'S':
        this.i++;
        return inClass ? NOT_SPACE : `[^${SPACE}]`;
      case 'b':
        this.i++;
        return inClass ? hex(0x08) : '\\b';
      case 'B':
        this.i++;
        return '\\B';
      case 'p':
      case 'P': {
        const end = p.indexOf('}', this.i);
        const item = property(p.slice(this.i + 2, end), c === 'P');
        this.i = end + 1;
        return item;
      }
      case 'k':
        throw unsupported(`uses a backreference (${p.slice(this.i - 1, p.indexOf('>', this.i) + 1)})`, 'has none');
      default:
        if (c >= '1' && c <= '9') {
          throw unsupported(`uses a backreference (\\${/^\d+/.exec(p.slice(this.i))?.[0] ?? c})`, 'has none');
        }
        return literal(this.characterEscape());
    }
  }

  /** The code point of a character escape (the cursor is past the backslash). */
  private characterEscape(): number {
    const p = this.p;
    const c = p[this.i] as string;
    this.i++;
    switch (c) {
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case '0':
        return 0;
      case 'c':
        return (p.charCodeAt(this.i++) as number) % 32;
      case 'x':
        this.i += 2;
        return parseInt(p.slice(this.i - 2, this.i), 16);
      case 'u':
        return this.unicodeEscape();
      default:
        // An identity escape (a syntax character, `/`, or `-` in a class): the character itself.
        this.i--;
        return this.codePoint();
    }
  }

  /** `\uXXXX` (two of them may be a surrogate pair) or `\u{X…}`; the cursor is past the `u`. */
  private unicodeEscape(): number {
    const p = this.p;
    let cp: number;
    if (p[this.i] === '{') {
      const end = p.indexOf('}', this.i);
      cp = parseInt(p.slice(this.i + 1, end), 16);
      this.i = end + 1;
    } else {
      cp = parseInt(p.slice(this.i, this.i + 4), 16);
      this.i += 4;
      if (cp >= 0xd800 && cp <= 0xdbff && p.startsWith('\\u', this.i) && p[this.i + 2] !== '{') {
        const low = parseInt(p.slice(this.i + 2, this.i + 6), 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          this.i += 6;
          return 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) throw unsupported(LONE_SURROGATE, 'matches whole code points');
    return cp;
  }

  /** One class atom: a code point, or (an escape like `\d`) class items already in RE2 form. */
  private classAtom(): number | string {
    if (this.p[this.i] !== '\\') return this.codePoint();
    this.i++;
    const c = this.p[this.i] as string;
    return 'bdDwWsSpP'.includes(c) ? this.escape(true) : this.characterEscape();
  }

  private charClass(): string {
    const p = this.p;
    this.i++;
    const negated = p[this.i] === '^';
    if (negated) this.i++;
    let items = '';
    while (p[this.i] !== ']') {
      const atom = this.classAtom();
      if (typeof atom === 'string') {
        items += atom;
      } else if (p[this.i] === '-' && p[this.i + 1] !== ']') {
        this.i++;
        const to = this.classAtom() as number;
        items += `${literal(atom)}-${literal(to)}`;
      } else {
        items += literal(atom);
      }
    }
    this.i++;
    // `[]` matches nothing and `[^]` anything (RE2 would read `[]…]` as a class holding `]`).
    if (items === '') return negated ? `[${ANY}]` : `[^${ANY}]`;
    return negated ? `[^${items}]` : `[${items}]`;
  }
}

/**
 * An ECMAScript `u`-mode pattern in RE2 syntax, same meaning. Throws the native SyntaxError of a pattern that is not
 * valid ECMAScript, and {@link UnsupportedPatternError} for one RE2 cannot run (lookarounds, backreferences, ...).
 */
export function translatePattern(pattern: string): string {
  return translate(pattern).source;
}

/** The RE2 source, and `inner` when it is `^inner$` with no top-level `|` (anchored at both ends: testExact). */
function translate(pattern: string): { source: string; inner: string | undefined } {
  new RegExp(pattern, 'u');
  const translator = new Translator(pattern);
  const source = translator.run();
  // A `^` or `$` in the RE2 text is an anchor: literal ones are written as \x{5E} and \x{24}.
  const whole = !translator.split && source.length >= 2 && source.startsWith('^') && source.endsWith('$');
  return { source, inner: whole ? source.slice(1, -1) : undefined };
}

const UNMETERED = new PatternBudget();

/** Compiles `pattern` (ECMAScript, `u` mode) for linear-time `test` (unanchored, as `RegExp#test`); throws why not. */
export function compilePattern(pattern: string, budget: PatternBudget = UNMETERED): LinearPattern {
  const { source, inner } = translate(pattern);
  let re: RE2JS;
  try {
    re = RE2JS.compile(inner ?? source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason.includes('invalid repeat count')) {
      throw unsupported(`repeats more than ${MAX_REPEAT} times in all (nested counts multiply)`, 'allows no more');
    }
    throw unsupported('cannot be compiled', `says: ${reason}`);
  }
  const key = `/${pattern}/u`;
  const size = re.programSize();
  // Anchored at both ends, testExact runs the same match two to three times faster.
  if (inner !== undefined) {
    return {
      test: (text) => (budget.charge((text.length + 1) * size), re.testExact(text)),
      toString: () => key,
    };
  }
  return { test: (text) => (budget.charge((text.length + 1) * size), re.test(text)), toString: () => key };
}

/** Why `pattern` cannot be used (an invalid or unsupported pattern, quoted), or undefined. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof UnsupportedPatternError)) return reason;
    return `pattern ${quote(pattern)} ${reason}`;
  }
}

type RegExpEngine = NonNullable<CodeOptions['regExp']>;

/** An ajv `code.regExp` engine: every pattern on RE2, each source compiled once per engine (one per ajv instance). */
export function createPatternEngine(budget: PatternBudget): RegExpEngine {
  const compiled = new Map<string, LinearPattern>();
  const engine = (pattern: string, flags: string): LinearPattern => {
    if (flags !== 'u') throw new UnsupportedPatternError(`flags "${flags}" are not supported (only "u")`);
    let re = compiled.get(pattern);
    if (re === undefined) compiled.set(pattern, (re = compilePattern(pattern, budget)));
    return re;
  };
  // ajv names the engine by `code` in standalone code, which this library never generates.
  return Object.assign(engine, { code: 'linearPattern' });
}
