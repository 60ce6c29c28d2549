import { compileTemplate, createMemoryResourceResolver, resolveResourceDirectives } from '../../src/render/index.js';
import type { RenderCase } from './cases.js';

/** A null-prototype copy of the arguments, as the registry builds it. */
export function toView(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, args);
}

/** Renders one shared case through the renderer's public API. */
export async function renderCase(c: RenderCase): Promise<string> {
  const partials = c.partials;
  const template = compileTemplate(c.template, {
    partials:
      partials === undefined ? undefined : (name) => (Object.hasOwn(partials, name) ? partials[name] : undefined),
  });
  const view = toView(c.args);
  const resources = await resolveResourceDirectives(
    template.resourceDirectivesFor(view),
    c.resources === undefined ? undefined : createMemoryResourceResolver(c.resources),
    { promptName: 'case' },
  );
  return template.render(view, resources);
}
