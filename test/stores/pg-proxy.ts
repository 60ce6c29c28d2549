/**
 * A TCP relay on 127.0.0.1 in front of PostgreSQL, for connections that stop answering without closing (a frozen
 * server, a dropped route): `freeze()` stops relaying on every open connection while new ones still go through;
 * `kill()` closes every open connection at once (a restarted proxy), while new ones still go through; and for a
 * database that is down: `refuse()` drops every connection and refuses new ones (nothing listens on the port) until
 * `accept()` listens on the same port again.
 */
import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Relay {
  /** Connection string of `url`'s database through the relay. */
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Stops relaying on the connections open now (they stay open, silent); returns how many there were. */
  freeze(): number;
  /** Closes the connections open now, both ends; returns how many there were. */
  kill(): number;
  /** Closes every connection and stops listening: connecting is refused (ECONNREFUSED). */
  refuse(): Promise<void>;
  /** Listens again on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(url: string): Promise<Relay> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const pairs: [Socket, Socket][] = [];
  let accepted = 0;
  const server = createServer((client) => {
    accepted++;
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    pairs.push([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  const stopListening = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: relayed.toString(),
    get accepted() {
      return accepted;
    },
    freeze() {
      let frozen = 0;
      for (const [client, upstream] of pairs.splice(0)) {
        if (!client.destroyed) frozen++;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      return frozen;
    },
    kill() {
      let killed = 0;
      for (const [client, upstream] of pairs.splice(0)) {
        if (!client.destroyed) killed++;
        client.destroy();
        upstream.destroy();
      }
      return killed;
    },
    refuse: stopListening,
    async accept() {
      if (!server.listening) await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: stopListening,
  };
}
