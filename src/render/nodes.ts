/**
 * The render loop over a compiled template's nodes (./tag-node.ts): it walks the nodes once, concatenating into one
 * string: no parsing, no cache lookups, no escaping, no closures per call.
 *
 * @module
 */
import { PromptError } from '../errors.js';
import { forecastSection } from './forecast.js';
import type { RenderBudget } from './limits.js';
import { lookupName, valueText } from './values.js';
import { DIRECTIVE, INVERTED, SECTION, VARIABLE } from './tag-node.js';
import type { TemplateNode } from './tag-node.js';

function unresolved(uri: string): PromptError {
  return new PromptError('INTERNAL_ERROR', `Resource directive '${uri}' was not resolved before rendering`);
}

/**
 * Renders nodes against a context stack (mustache section rules, functions never called), counting every node, append
 * and repetition against `budget`; a section over a list whose certain work is over the budget is refused before it
 * starts.
 */
export function renderNodes(
  nodes: readonly TemplateNode[],
  stack: unknown[],
  depth: number,
  resources: ReadonlyMap<string, string> | undefined,
  budget: RenderBudget,
): string {
  budget.step(nodes.length * (depth + 1));
  let out = '';
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as TemplateNode;
    if (typeof node === 'string') {
      budget.spend(node);
      out += node;
      continue;
    }
    switch (node.kind) {
      case VARIABLE: {
        const value = lookupName(stack, depth, node.key, node.rest);
        if (typeof value === 'string') {
          budget.spend(value);
          out += value;
        } else if (value !== undefined && value !== null) {
          out += valueText(value, budget);
        }
        break;
      }
      case SECTION: {
        const value = lookupName(stack, depth, node.key, node.rest);
        if (!value) break;
        const children = node.children as readonly TemplateNode[];
        if (Array.isArray(value)) {
          if (value.length > 1) forecastSection(children, value, stack, depth, resources, budget);
          for (let j = 0; j < value.length; j++) {
            budget.repeat();
            stack[depth + 1] = value[j];
            out += renderNodes(children, stack, depth + 1, resources, budget);
          }
        } else if (typeof value === 'object' || typeof value === 'string' || typeof value === 'number') {
          stack[depth + 1] = value;
          out += renderNodes(children, stack, depth + 1, resources, budget);
        } else if (typeof value !== 'function') {
          out += renderNodes(children, stack, depth, resources, budget);
        }
        break;
      }
      case INVERTED: {
        const value = lookupName(stack, depth, node.key, node.rest);
        if (!value || (Array.isArray(value) && value.length === 0)) {
          out += renderNodes(node.children as readonly TemplateNode[], stack, depth, resources, budget);
        }
        break;
      }
      default: {
        const text = resources?.get(node.key);
        if (text === undefined) throw unresolved(node.key);
        budget.spend(text);
        out += text;
      }
    }
  }
  return out;
}

/**
 * Adds the directive URIs a render with this stack would reach to `found` (same section rules and budgets as
 * renderNodes).
 */
export function collectDirectives(
  nodes: readonly TemplateNode[],
  stack: unknown[],
  depth: number,
  found: Set<string>,
  budget: RenderBudget,
): void {
  budget.step(nodes.length * (depth + 1));
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as TemplateNode;
    if (typeof node === 'string' || node.kind === VARIABLE) continue;
    if (node.kind === DIRECTIVE) {
      found.add(node.key);
      continue;
    }
    const value = lookupName(stack, depth, node.key, node.rest);
    const children = node.children as readonly TemplateNode[];
    if (node.kind === INVERTED) {
      if (!value || (Array.isArray(value) && value.length === 0))
        collectDirectives(children, stack, depth, found, budget);
    } else if (!value) {
    } else if (Array.isArray(value)) {
      if (value.length > 1) forecastSection(children, value, stack, depth, undefined, budget);
      for (let j = 0; j < value.length; j++) {
        budget.repeat();
        stack[depth + 1] = value[j];
        collectDirectives(children, stack, depth + 1, found, budget);
      }
    } else if (typeof value === 'object' || typeof value === 'string' || typeof value === 'number') {
      stack[depth + 1] = value;
      collectDirectives(children, stack, depth + 1, found, budget);
    } else if (typeof value !== 'function') {
      collectDirectives(children, stack, depth, found, budget);
    }
  }
}
