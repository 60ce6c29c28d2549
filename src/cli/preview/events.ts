/** Server-sent events to the open pages: each event is one `data:` line of JSON; a comment keeps idle streams open. */
import type { ServerResponse } from 'node:http';

/** Streams held at once; one more is refused (a page reconnects on its own when another closes). */
export const MAX_STREAMS = 32;
/** A comment line this often, so proxies and browsers keep an idle stream. */
const KEEPALIVE_MS = 15_000;

/** The open event streams. */
export class EventHub {
  readonly #streams = new Set<ServerResponse>();
  readonly #keepalive: ReturnType<typeof setInterval>;

  constructor() {
    this.#keepalive = setInterval(() => this.#write(': keepalive\n\n'), KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Whether another stream may open. */
  get full(): boolean {
    return this.#streams.size >= MAX_STREAMS;
  }

  /** Starts the stream on `res` with `first` as its first event. */
  open(res: ServerResponse, headers: Record<string, string>, first: unknown): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`retry: 1000\ndata: ${JSON.stringify(first)}\n\n`);
    this.#streams.add(res);
    res.once('close', () => this.#streams.delete(res));
  }

  /** Sends one event to every open stream (a stream whose reader is stuck is closed, never buffered for). */
  send(event: unknown): void {
    this.#write(`data: ${JSON.stringify(event)}\n\n`);
  }

  #write(chunk: string): void {
    for (const res of this.#streams) {
      if (res.writableNeedDrain) {
        res.destroy();
        this.#streams.delete(res);
        continue;
      }
      res.write(chunk);
    }
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.#keepalive);
    for (const res of this.#streams) res.end();
    this.#streams.clear();
  }
}
