/**
 * The conformance suite's resource fixtures as an `attachResources` source: a text and a binary document, the
 * document the suite subscribes to, and `test://template/{id}/data`, read with its `id` substituted.
 */
import { PromptError } from '../../src/index.js';
import type { ResourceContents } from '../../src/index.js';
import type { ListedResource, ResourceSource } from '../../src/mcp/index.js';

/** A 2x2 PNG (the suite only checks that a blob comes back). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

const DOCUMENTS: readonly ResourceContents[] = [
  { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
  { uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 },
  { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'A resource clients may subscribe to.' },
  { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
];

/** `test://template/{id}/data`: an id of letters, digits, `-` and `_` (up to 64). */
const TEMPLATE = /^test:\/\/template\/([A-Za-z0-9_-]{1,64})\/data$/;

export const conformanceResourceSource: ResourceSource = {
  listResources: (): ListedResource[] =>
    DOCUMENTS.map(({ uri, mimeType }) => ({ uri, name: uri.slice('test://'.length), mimeType })),
  readResource(uri) {
    const document = DOCUMENTS.find((d) => d.uri === uri);
    if (document !== undefined) return { contents: [{ ...document }] };
    const id = TEMPLATE.exec(uri)?.[1];
    if (id === undefined) throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`);
    const text = JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  },
};
