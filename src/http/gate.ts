/**
 * What a request must be before it is served: a Host the handler serves (DNS rebinding), an Origin that is the same
 * origin or an allowed one (cross-site requests), and a JSON body type for POST (so a browser must preflight).
 * Hostnames are compared port-agnostic, as the MCP SDK's `hostHeaderValidation` / `validateOriginHeader` do.
 */
import { PromptError, echoed } from '../errors.js';

/** Hostnames a loopback connection may name in Host when no `allowedHosts` is given (the SDK's localhost list). */
const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** @internal The checked `allowedHosts` / `allowedOrigins` options. */
export interface Gate {
  /** Hostnames (lowercase, IPv6 in brackets); `undefined`: the loopback default; `'any'`: no check. */
  hosts: ReadonlySet<string> | 'any' | undefined;
  /** Hostnames allowed as Origin whatever the scheme and port. */
  originHostnames: ReadonlySet<string>;
  /** Exact origins (`https://app.example:8443`). */
  origins: ReadonlySet<string>;
}

/** @internal Reads the options once (a malformed entry throws a TypeError naming it). */
export function createGate(
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: readonly string[] | undefined,
): Gate {
  let hosts: Gate['hosts'];
  if (allowedHosts !== undefined) {
    if (!Array.isArray(allowedHosts))
      throw new TypeError('mcp-prompt-kit/http: allowedHosts must be an array of hostnames');
    hosts = allowedHosts.includes('*') ? 'any' : new Set(allowedHosts.map((h) => hostnameEntry(h, 'allowedHosts')));
  }
  const originHostnames = new Set<string>();
  const origins = new Set<string>();
  if (allowedOrigins !== undefined && !Array.isArray(allowedOrigins)) {
    throw new TypeError('mcp-prompt-kit/http: allowedOrigins must be an array of hostnames or origins');
  }
  for (const entry of allowedOrigins ?? []) {
    if (typeof entry === 'string' && entry.includes('://')) {
      let origin: string;
      try {
        origin = new URL(entry).origin;
      } catch {
        origin = 'null';
      }
      if (origin === 'null')
        throw new TypeError(
          `mcp-prompt-kit/http: allowedOrigins: '${echoed(entry)}' is not an origin (scheme://host[:port])`,
        );
      origins.add(origin);
    } else originHostnames.add(hostnameEntry(entry, 'allowedOrigins'));
  }
  return { hosts, originHostnames, origins };
}

function hostnameEntry(entry: unknown, option: string): string {
  const hostname = typeof entry === 'string' && entry !== '' ? hostnameOf(entry) : undefined;
  if (hostname === undefined || hostname !== (entry as string).toLowerCase()) {
    throw new TypeError(
      `mcp-prompt-kit/http: ${option}: '${echoed(String(entry))}' is not a hostname (no scheme, no port; IPv6 in brackets)`,
    );
  }
  return hostname;
}

/** The hostname of a Host header value (`localhost:3000` -> `localhost`, `[::1]:80` -> `[::1]`), or undefined. */
function hostnameOf(host: string): string | undefined {
  if (/[\s/?#@\\]/.test(host)) return undefined;
  try {
    const hostname = new URL(`http://${host}`).hostname;
    return hostname === '' ? undefined : hostname;
  } catch {
    return undefined;
  }
}

/** @internal Whether an address the connection arrived at is a loopback one (127.0.0.0/8, ::1, IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.toLowerCase();
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

/**
 * @internal Refuses (403) a Host the handler does not serve: any Host not in `allowedHosts` when that is given; on a
 * connection that arrived at a loopback address without it, any but localhost, 127.0.0.1 and [::1].
 */
export function checkHost(gate: Gate, host: string | undefined, loopback: boolean): void {
  if (gate.hosts === 'any' || (gate.hosts === undefined && !loopback)) return;
  if (host === undefined || host === '') throw new PromptError('FORBIDDEN', 'Missing Host header');
  const hostname = hostnameOf(host);
  if (hostname === undefined) throw new PromptError('FORBIDDEN', `Invalid Host header: ${echoed(host)}`);
  const allowed = gate.hosts === undefined ? LOOPBACK_HOSTNAMES.includes(hostname) : gate.hosts.has(hostname);
  if (!allowed) throw new PromptError('FORBIDDEN', `Invalid Host: ${echoed(hostname)}`);
}

/**
 * @internal Refuses (403) a present Origin that is neither the request's own (its host and port are the Host
 * header's) nor allowed; an unparsable one (`null` from a sandboxed page) too. No Origin: not a browser's
 * cross-site request, nothing to check.
 */
export function checkOrigin(gate: Gate, origin: string | undefined, host: string | undefined): void {
  if (origin === undefined || origin === '') return;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new PromptError('FORBIDDEN', `Invalid Origin header: ${echoed(origin)}`);
  }
  if (url.hostname === '' || url.origin === 'null')
    throw new PromptError('FORBIDDEN', `Invalid Origin header: ${echoed(origin)}`);
  if (host !== undefined && sameHost(url, host)) return;
  if (gate.origins.has(url.origin) || gate.originHostnames.has(url.hostname)) return;
  throw new PromptError('FORBIDDEN', `Origin not allowed: ${echoed(url.origin)}`);
}

/** Whether the Origin's host and port are the Host header's (the scheme is not known behind a proxy). */
function sameHost(origin: URL, host: string): boolean {
  if (hostnameOf(host) === undefined) return false;
  // The Host header's port is explicit or the default of the Origin's scheme.
  const scheme = origin.protocol === 'https:' ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${host}`).host === origin.host;
  } catch {
    return false;
  }
}

/**
 * @internal Refuses (415) a POST body that is not JSON: the media type must be `application/json` or
 * `application/<subtype>+json`, with no charset but UTF-8; a missing Content-Type too (even for an empty body), so a
 * browser can only send one after a CORS preflight.
 */
export function checkJsonContentType(contentType: string | undefined): void {
  if (contentType === undefined || !isJsonMediaType(contentType)) {
    const got = contentType === undefined || contentType.trim() === '' ? 'none was sent' : `got ${echoed(contentType)}`;
    throw new PromptError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json (UTF-8); ${got}`);
  }
}

const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const MEDIA_TYPE = new RegExp(`^application/(?:json|${TOKEN}\\+json)$`);
const PARAMETER = new RegExp(`^(${TOKEN})=(?:(${TOKEN})|"((?:[^"\\\\]|\\\\.)*)")$`);

function isJsonMediaType(header: string): boolean {
  const parts = header.toLowerCase().split(';');
  if (!MEDIA_TYPE.test(parts[0]!.trim())) return false;
  for (let i = 1; i < parts.length; i++) {
    const parameter = parts[i]!.trim();
    if (parameter === '') continue;
    const m = PARAMETER.exec(parameter);
    if (m === null) return false;
    if (m[1] === 'charset' && (m[2] ?? m[3]) !== 'utf-8' && (m[2] ?? m[3]) !== 'utf8') return false;
  }
  return true;
}
