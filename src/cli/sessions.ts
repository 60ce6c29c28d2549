/**
 * 2025-era streamable HTTP sessions for `serve --http`: one SDK transport and server per `Mcp-Session-Id`, so the GET
 * stream carries `list_changed` to clients of that era (one sent while no GET stream is open is held and sent when one
 * opens). Bounded: at most `maxSessions` at once (at the limit the session idle the longest makes room; when none is
 * idle, 503), and a session with no request in flight and no stream open for `idleTimeoutMs` is closed.
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { PromptError } from '../errors.js';
import { errorResponse } from './http.js';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** Options of {@link SessionTable}. */
export interface SessionTableOptions {
  sdk: ServerSdk;
  /** A fresh server for a new session (prompts and resources attached). */
  createServer: () => McpServer;
  /** Called when a session's server is closed (by DELETE, idle timeout or shutdown). */
  onClosed: (server: McpServer) => void;
  maxSessions: number;
  idleTimeoutMs: number;
  log: (line: string) => void;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Requests in flight plus response streams still open (the GET stream among them). */
  busy: number;
  /** When `busy` last fell to 0 (the oldest idle session makes room for a new one at the limit). */
  idleSince: number;
  idle: ReturnType<typeof setTimeout> | undefined;
  closed: boolean;
  /** GET streams open: the only way a notification not tied to a request reaches a 2025-era client. */
  listening: number;
  /** list_changed notifications sent while no GET stream was open: sent when one opens. */
  readonly held: Set<string>;
}

/** Notifications that say "list again": a later one repeats an earlier one, so one held copy of each stands for all. */
const HELD_METHODS: ReadonlySet<string> = new Set([
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
]);

/** The method of a notification to hold while no GET stream is open (undefined for anything else). */
function heldMethod(message: JSONRPCMessage, relatedRequestId: unknown): string | undefined {
  if (relatedRequestId !== undefined || 'id' in message || !('method' in message)) return undefined;
  return HELD_METHODS.has(message.method) ? message.method : undefined;
}

/** A short, loggable form of a session id. */
function short(id: string): string {
  return id.slice(0, 8);
}

/** The response with `onEnd` called once its body is finished or cancelled (or at once when it has none). */
function tracked(response: Response, onEnd: () => void): Response {
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  if (response.body === null) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The sessions of one `serve --http` endpoint. */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  /** Sessions being created (counted against the limit before they have an id). */
  #opening = 0;
  #closing = false;

  constructor(private readonly options: SessionTableOptions) {}

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Serves a 2025-era request: `parsedBody` is the POST body already read and parsed (undefined for GET and DELETE).
   */
  async handle(request: Request, parsedBody: unknown): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.#sessions.get(id);
      if (session === undefined) {
        return errorResponse(
          new PromptError(
            'SESSION_NOT_FOUND',
            'Session not found (closed, timed out or never opened): send initialize to start a new one',
          ),
        );
      }
      return this.#serve(session, request, parsedBody);
    }
    if (request.method !== 'POST' || !this.options.sdk.isInitializeRequest(parsedBody)) {
      return errorResponse(
        new PromptError(
          'INVALID_REQUEST',
          'Mcp-Session-Id header required: start a session with an initialize request first',
        ),
      );
    }
    const { maxSessions, idleTimeoutMs } = this.options;
    if (!this.#closing && this.#sessions.size + this.#opening >= maxSessions) await this.#evictIdle();
    if (this.#closing || this.#sessions.size + this.#opening >= maxSessions) {
      this.options.log(`refused a new session: ${maxSessions} session(s) open (--max-sessions)`);
      return errorResponse(
        new PromptError(
          'TOO_MANY_SESSIONS',
          `Too many sessions: this server holds at most ${maxSessions} at once and all are in use (a session closes ` +
            `after ${idleTimeoutMs} ms without requests or an open stream, or when its client sends DELETE /mcp); retry later`,
        ),
      );
    }
    this.#opening++;
    let session: Session;
    try {
      session = this.#create();
      await session.server.connect(session.transport);
    } finally {
      this.#opening--;
    }
    const response = await this.#serve(session, request, parsedBody);
    // An initialize the transport refused (406, 415, ...) never got a session id: nothing to keep.
    if (session.transport.sessionId === undefined) await this.#close(session, undefined);
    return response;
  }

  /** Closes every session (at shutdown). */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all([...this.#sessions.values()].map((s) => this.#close(s, 'server stopping')));
  }

  #create(): Session {
    const transport: WebStandardStreamableHTTPServerTransport =
      new this.options.sdk.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.#sessions.set(id, session);
          this.options.log(`session ${short(id)} opened (${this.#sessions.size} open)`);
        },
      });
    const session: Session = {
      transport,
      server: this.options.createServer(),
      busy: 0,
      idleSince: 0,
      idle: undefined,
      closed: false,
      listening: 0,
      held: new Set(),
    };
    // The SDK transport drops a notification that finds no GET stream (one sent before the client opened it, or while
    // it reconnects): a list_changed is held instead, and sent when a stream opens.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const method = session.listening === 0 ? heldMethod(message, options?.relatedRequestId) : undefined;
      if (method === undefined) return send(message, options);
      if (session.held.size === 0 && transport.sessionId !== undefined)
        this.options.log(
          `session ${short(transport.sessionId)}: no GET stream open; list_changed held until one opens`,
        );
      session.held.add(method);
      return Promise.resolve();
    };
    return session;
  }

  /** A GET stream opened: counts it until it ends, and sends what was held meanwhile. */
  #listening(session: Session): () => void {
    session.listening++;
    const held = [...session.held];
    session.held.clear();
    for (const method of held)
      session.transport.send({ jsonrpc: '2.0', method }).catch(() => {
        /* the stream closed again: nothing to tell */
      });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.listening--;
    };
  }

  async #serve(session: Session, request: Request, parsedBody: unknown): Promise<Response> {
    session.busy++;
    if (session.idle !== undefined) clearTimeout(session.idle);
    session.idle = undefined;
    let response: Response;
    try {
      response = await session.transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } catch (error) {
      this.#release(session);
      throw error;
    }
    // A DELETE closed the transport: the session is gone.
    if (request.method === 'DELETE' && response.ok) await this.#close(session, 'ended by the client (DELETE)');
    if (request.method === 'GET' && response.status === 200 && response.body !== null) {
      const stopped = this.#listening(session);
      return tracked(response, () => {
        stopped();
        this.#release(session);
      });
    }
    return tracked(response, () => this.#release(session));
  }

  /** At the limit: closes the session idle the longest (no request in flight, no stream open), if there is one. */
  async #evictIdle(): Promise<void> {
    let oldest: Session | undefined;
    for (const session of this.#sessions.values()) {
      if (session.busy === 0 && !session.closed && (oldest === undefined || session.idleSince < oldest.idleSince))
        oldest = session;
    }
    if (oldest !== undefined)
      await this.#close(
        oldest,
        `idle the longest, closed to make room for a new session (--max-sessions ${this.options.maxSessions})`,
      );
  }

  #release(session: Session): void {
    session.busy--;
    if (session.busy > 0 || session.closed) return;
    session.idleSince = performance.now();
    const ms = this.options.idleTimeoutMs;
    session.idle = setTimeout(() => void this.#close(session, `idle for ${ms} ms`), ms);
    session.idle.unref();
  }

  async #close(session: Session, why: string | undefined): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    if (session.idle !== undefined) clearTimeout(session.idle);
    const id = session.transport.sessionId;
    if (id !== undefined && this.#sessions.get(id) === session) this.#sessions.delete(id);
    try {
      await session.server.close();
    } catch {
      /* a transport that is already closed */
    }
    this.options.onClosed(session.server);
    if (id !== undefined && why !== undefined)
      this.options.log(`session ${short(id)} closed: ${why} (${this.#sessions.size} open)`);
  }
}
