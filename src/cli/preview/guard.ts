/**
 * Who may talk to the preview page's server: a request must name the bound host and port in Host (DNS rebinding),
 * carry the session token (query, header or cookie), and, when a browser says where it comes from (Origin,
 * Sec-Fetch-Site), come from the page itself. A non-GET request must send an Origin; the event stream an Origin or
 * `Sec-Fetch-Site: same-origin`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PromptError, echoed } from '../../errors.js';

/** The header a script may send the token in. */
export const TOKEN_HEADER = 'x-preview-token';
/** The query parameter of the URL the command prints. */
export const TOKEN_PARAMETER = 'token';

/** A fresh token: 32 random bytes (256 bits), base64url. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What a request is checked against. */
export interface PreviewGate {
  token: string;
  /** Host header values accepted (`127.0.0.1:5173`, `localhost:5173`), lower case. */
  hosts: ReadonlySet<string>;
  /** Origins accepted (`http://127.0.0.1:5173`). */
  origins: ReadonlySet<string>;
  /** The cookie the page gets after its first load (per port: browsers share cookies across ports). */
  cookieName: string;
}

/** The gate of a server bound to `host:port` (loopback: also the localhost names at that port). */
export function createPreviewGate(host: string, port: number, loopback: boolean, token = createToken()): PreviewGate {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const named = bare.includes(':') ? `[${bare}]` : bare;
  const names = new Set([named]);
  if (loopback) for (const n of ['127.0.0.1', 'localhost', '[::1]']) names.add(n);
  const hosts = new Set([...names].map((n) => `${n}:${port}`));
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  return { token, hosts, origins, cookieName: `mcp_prompt_kit_preview_${port}` };
}

/** The parts of a request the gate reads. */
export interface GateInput {
  method: string;
  /** Path and query, as the request line has it. */
  url: string;
  header(name: string): string | undefined;
  /** Whether the request opens the event stream. */
  stream: boolean;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token a request carries: the query's, else the header's, else the cookie's. */
function givenToken(input: GateInput, gate: PreviewGate): string | undefined {
  const query = input.url.indexOf('?');
  if (query !== -1) {
    const value = new URLSearchParams(input.url.slice(query + 1)).get(TOKEN_PARAMETER);
    if (value !== null) return value;
  }
  const header = input.header(TOKEN_HEADER);
  if (header !== undefined) return header;
  for (const part of (input.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === gate.cookieName) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Throws FORBIDDEN (403) naming what is wrong; returns normally for a request the page may make. */
export function checkRequest(gate: PreviewGate, input: GateInput): void {
  const host = input.header('host')?.toLowerCase();
  if (host === undefined || host === '') throw new PromptError('FORBIDDEN', 'Missing Host header');
  if (!gate.hosts.has(host)) throw new PromptError('FORBIDDEN', `Host not allowed: ${echoed(host)}`);
  const origin = input.header('origin');
  if (origin !== undefined && !gate.origins.has(origin.toLowerCase())) {
    throw new PromptError('FORBIDDEN', `Origin not allowed: ${echoed(origin)}`);
  }
  const site = input.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new PromptError('FORBIDDEN', `Cross-site request refused (Sec-Fetch-Site: ${echoed(site)})`);
  }
  // A browser sends Origin on every non-GET; a same-origin EventSource sends Sec-Fetch-Site instead.
  if (origin === undefined && input.method !== 'GET') {
    throw new PromptError('FORBIDDEN', `Missing Origin header (required on ${echoed(input.method)} requests)`);
  }
  if (origin === undefined && input.stream && site !== 'same-origin') {
    throw new PromptError('FORBIDDEN', 'Missing Origin header (the event stream needs Origin or Sec-Fetch-Site)');
  }
  const token = givenToken(input, gate);
  if (token === undefined)
    throw new PromptError('FORBIDDEN', 'Missing preview token: open the URL the command printed');
  if (!same(token, gate.token))
    throw new PromptError('FORBIDDEN', 'Wrong preview token: open the URL the command printed');
}

/** The Set-Cookie header that lets the page's later requests (the event stream) carry the token. */
export function tokenCookie(gate: PreviewGate): string {
  return `${gate.cookieName}=${gate.token}; Path=/; HttpOnly; SameSite=Strict`;
}
