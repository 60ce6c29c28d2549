/**
 * Render limits: how many resources one render may embed, how many UTF-8 bytes a rendered prompt may have and how
 * many template steps one render may take.
 *
 * @module
 */
import { PromptError } from '../errors.js';

/** Limits applied to one render (one prompt: all its templates together). */
export interface RenderLimits {
  /** Most documents one render may embed (each glob match counts; default 50). */
  maxResources: number;
  /**
   * Most UTF-8 bytes of rendered text per prompt (default 1,048,576), enforced while rendering; sections may also
   * repeat at most this many times in one render.
   */
  maxRenderedBytes: number;
  /**
   * Most template steps per render (default 1,048,576): every node visited costs one step per context a name may be
   * looked up in (1 at the top level, 2 inside one section, ...), whether it writes anything or not; each section
   * repetition and each item or key of a value written as a list or JSON costs one more.
   */
  maxRenderSteps: number;
  /** Milliseconds one render may wait for its resources and assets in total (default 10,000). */
  resourceTimeoutMs: number;
  /** Milliseconds a programmatic `render` function may take (default 30,000). */
  renderTimeoutMs: number;
}

/**
 * The default limits: 50 resources, 1 MiB of rendered text, 1 Mi template steps, 10 s for resources, 30 s for renders.
 */
export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxResources: 50,
  maxRenderedBytes: 1_048_576,
  maxRenderSteps: 1_048_576,
  resourceTimeoutMs: 10_000,
  renderTimeoutMs: 30_000,
});

/** Argument values nested deeper than this are not rendered (LIMIT_EXCEEDED). */
export const MAX_VALUE_DEPTH = 100;

/** One render's running budget, checked on every append: a render over the limit stops there, not at the end. */
export class RenderBudget {
  /** UTF-16 units still allowed: a lower bound of UTF-8 bytes, so going below zero means the byte limit is crossed. */
  units: number;
  /** Section repetitions still allowed (so empty bodies over huge arrays are bounded too). */
  repeats: number;
  /** Template steps still allowed (so bodies that render nothing are bounded too). */
  steps: number;

  constructor(
    readonly maxBytes: number,
    readonly maxSteps: number = DEFAULT_RENDER_LIMITS.maxRenderSteps,
  ) {
    this.units = maxBytes;
    this.repeats = maxBytes;
    this.steps = maxSteps;
  }

  /** Counts `steps` template steps as taken; throws LIMIT_EXCEEDED past the limit. */
  step(steps: number): void {
    if ((this.steps -= steps) < 0) throw tooManySteps(this.maxSteps);
  }

  /** Counts `text` as written; throws LIMIT_EXCEEDED past the limit. */
  spend(text: string): void {
    if ((this.units -= text.length) < 0) throw tooManyBytes(this.maxBytes);
  }

  /** Counts `units` UTF-16 code units as written; throws LIMIT_EXCEEDED past the limit. */
  spendUnits(units: number): void {
    if ((this.units -= units) < 0) throw tooManyBytes(this.maxBytes);
  }

  /** Counts one section repetition (and one step); throws LIMIT_EXCEEDED past either limit. */
  repeat(): void {
    if (--this.repeats < 0) throw tooManyRepeats(this.maxBytes);
    if (--this.steps < 0) throw tooManySteps(this.maxSteps);
  }
}

/**
 * The UTF-8 byte length of `text` without encoding it (no `Buffer`, no allocation). Lone surrogates count as 3 bytes
 * (they encode as U+FFFD), like `TextEncoder`.
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // 4 bytes for 2 code units
        i++;
      } else {
        bytes += 2;
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/** The LIMIT_EXCEEDED error for too many embedded resources. */
export function tooManyResources(max: number): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `Prompt embeds more than ${max} resources`, {
    data: { limit: 'maxResources', max },
  });
}

/** The LIMIT_EXCEEDED error for too much rendered text. */
export function tooManyBytes(max: number): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `Rendered prompt exceeds ${max} bytes`, {
    data: { limit: 'maxRenderedBytes', max },
  });
}

/** The LIMIT_EXCEEDED error for sections repeating more than `max` (the byte limit) times in one render. */
export function tooManyRepeats(max: number): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `Template sections repeat more than ${max} times in one render`, {
    data: { limit: 'maxRenderedBytes', max },
  });
}

/** The LIMIT_EXCEEDED error for a render that takes too many template steps. */
export function tooManySteps(max: number): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `Template rendering takes more than ${max} steps`, {
    data: { limit: 'maxRenderSteps', max },
  });
}

/**
 * Throws LIMIT_EXCEEDED when the texts (or a byte count) exceed `maxRenderedBytes`; measures UTF-8 only when UTF-16
 * length cannot decide.
 */
export function assertRenderedSize(
  rendered: number | string | readonly string[],
  limits: Pick<RenderLimits, 'maxRenderedBytes'> = DEFAULT_RENDER_LIMITS,
): void {
  const max = limits.maxRenderedBytes;
  if (typeof rendered === 'number') {
    if (rendered > max) throw tooManyBytes(max);
    return;
  }
  const texts: readonly string[] = typeof rendered === 'string' ? [rendered] : rendered;
  let units = 0;
  for (let i = 0; i < texts.length; i++) units += (texts[i] as string).length;
  if (units * 3 <= max) return;
  if (units > max) throw tooManyBytes(max);
  let bytes = 0;
  for (let i = 0; i < texts.length; i++) {
    bytes += utf8ByteLength(texts[i] as string);
    if (bytes > max) throw tooManyBytes(max);
  }
}
