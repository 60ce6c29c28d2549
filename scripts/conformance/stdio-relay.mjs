/**
 * A streamable HTTP front for a stdio MCP server, so that the conformance suite (which only speaks streamable HTTP)
 * can test a server over stdio: each session the suite opens (its `initialize`) starts one child with the given
 * command, and the session's JSON-RPC messages pass between the two transports as they are. Closing the session
 * (DELETE, or the child exiting) closes the other side. Binds 127.0.0.1 on a free port.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request body as JSON (undefined for an empty body); throws on malformed JSON or more than 1 MiB. */
async function jsonBody(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function refuse(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Starts the relay for `{ command, args }`; resolves with its URL (`http://127.0.0.1:<port>/mcp`) and `close()`,
 * which ends every session and its child.
 */
export async function startStdioRelay({ command, args }) {
  /** Live sessions by id: the HTTP side and the child's stdio side. */
  const sessions = new Map();
  const open = new Set();

  const openSession = async () => {
    let stderr = '';
    const stdio = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'pipe' });
    stdio.stderr?.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4096)));
    const http = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, session),
    });
    const session = { http, stdio };
    open.add(session);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      open.delete(session);
      if (http.sessionId !== undefined) sessions.delete(http.sessionId);
      void http.close().catch(() => {});
      void stdio.close().catch(() => {});
    };
    http.onmessage = (message) => void stdio.send(message).catch(close);
    stdio.onmessage = (message) => void http.send(message).catch(() => {});
    http.onclose = close;
    stdio.onclose = close;
    stdio.onerror = (error) => console.error(`stdio relay: ${error.message}\n${stderr.trimEnd()}`);
    await stdio.start();
    await http.start();
    return session;
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found');
      let body;
      if (req.method === 'POST') {
        try {
          body = await jsonBody(req);
        } catch (error) {
          return refuse(res, 400, `Parse error: ${error.message}`);
        }
      }
      const id = req.headers['mcp-session-id'];
      let session = typeof id === 'string' ? sessions.get(id) : undefined;
      if (session === undefined) {
        if (typeof id === 'string') return refuse(res, 404, 'Session not found');
        if (req.method !== 'POST' || !isInitializeRequest(body))
          return refuse(res, 400, 'No session: initialize first');
        session = await openSession();
      }
      await session.http.handleRequest(req, res, body);
    })().catch((error) => {
      if (!res.headersSent) refuse(res, 500, `relay: ${error.message}`);
      else res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const session of [...open]) await session.stdio.close().catch(() => {});
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
