/** MIME types of documents by file extension (whether a type is served as text: `isTextMimeType` of the core). */
export { isTextMimeType } from '../resources.js';

const BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.adoc': 'text/asciidoc',
  '.rst': 'text/x-rst',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.toml': 'application/toml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.py': 'text/x-python',
  '.go': 'text/x-go',
  '.java': 'text/x-java',
  '.rs': 'text/x-rust',
  '.sql': 'application/sql',
  '.sh': 'text/x-shellscript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.pdf': 'application/pdf',
});

/** The MIME type of a file name by its extension (`application/octet-stream` when unknown). */
export function mimeTypeOf(name: string, overrides?: Readonly<Record<string, string>>): string {
  const dot = name.lastIndexOf('.');
  if (dot === -1 || dot < name.lastIndexOf('/')) return 'application/octet-stream';
  const ext = name.slice(dot).toLowerCase();
  if (overrides !== undefined && Object.hasOwn(overrides, ext)) return overrides[ext]!;
  return Object.hasOwn(BY_EXTENSION, ext) ? BY_EXTENSION[ext]! : 'application/octet-stream';
}
