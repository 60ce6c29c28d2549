/** Which Host headers `serve --http` accepts: loopback names on a loopback interface, an explicit list off it. */
import { lookup } from 'node:dns/promises';
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ServeFailure, UsageError } from './args.js';

/** Whether an IP address is a loopback one (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 4) return ip.startsWith('127.');
  if (isIP(ip) === 6) return ip === '::1' || ip === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(ip);
  return false;
}

/** The address `listen(port, host)` binds: the host itself when it is an IP, else what the resolver gives first. */
export async function boundAddress(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return bare;
  return (await lookup(bare)).address;
}

/**
 * An `--allowed-host` value as the SDK compares Host headers (lower case, IPv6 in brackets); a usage error if it is not
 * a host name.
 */
export function allowedHostname(value: string): string {
  const candidate = isIP(value) === 6 ? `[${value}]` : value;
  let url: URL | undefined;
  try {
    url = new URL(`http://${candidate}`);
  } catch {
    url = undefined;
  }
  // Only the host: nothing the URL parser would take as a port (even a default one), path, query or credentials.
  const extra = isIP(value) === 6 || /^\[[0-9a-f:.]+\]$/i.test(value) ? /[/?#@\\\s]/ : /[:/?#@\\\s]/;
  if (url === undefined || url.hostname === '' || extra.test(value)) {
    throw new UsageError(
      `serve: --allowed-host expects a host name or IP address without scheme, port or path (for example 192.168.1.10 or prompts.example.com), got '${value}'`,
    );
  }
  return url.hostname;
}

/** What `--http` serves on: the bound host and the Host header names it accepts. */
export interface HttpPlan {
  port: number;
  host: string;
  /** Host names accepted: the listed ones, and on loopback also the localhost names and the bound host. */
  hosts(localhostNames: readonly string[]): string[];
  /** Off loopback: the warning to print. */
  warning?: string;
}

/** Checks the HTTP options: off loopback an explicit --allowed-host list is required, and only it is accepted. */
export async function planHttp(port: number, host: string, allowed: readonly string[]): Promise<HttpPlan> {
  const extra = [...new Set(allowed.map(allowedHostname))];
  let address: string;
  try {
    address = await boundAddress(host);
  } catch (error) {
    throw new ServeFailure(`cannot resolve --host ${host} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (isLoopbackAddress(address)) {
    // DNS-rebinding protection: a browser page can only reach a loopback server under a loopback name (or one listed).
    const bound = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return { port, host, hosts: (localhostNames) => [...new Set([...localhostNames, bound.toLowerCase(), ...extra])] };
  }
  if (extra.length === 0) {
    throw new UsageError(
      `serve: --host ${host} is not a loopback address, so other machines can reach the server: pass --allowed-host <name> ` +
        '(repeatable) for each host name or address clients use to reach it (for example --allowed-host 192.168.1.10 ' +
        '--allowed-host prompts.example.com); only those Host headers are accepted, localhost included',
    );
  }
  return {
    port,
    host,
    hosts: () => extra,
    warning: `warning: listening on ${host}, reachable from other machines without authentication; accepting Host: ${extra.join(', ')}`,
  };
}

/** Listens on `host`:`port` (0: any free port); resolves with the bound address and its URL host (IPv6 bracketed). */
export async function listenOn(
  server: Server,
  port: number,
  host: string,
): Promise<{ address: string; port: number; urlHost: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const urlHost = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { address: bound.address, port: bound.port, urlHost };
}
