// A loopback TCP relay to a real service (PostgreSQL, later Redis) that a test can cut and restore, to show outage behaviour without mocks.
import { once } from 'node:events';
import net from 'node:net';

/** A relay on an ephemeral loopback port. */
export interface TcpCut {
  /** The relay's port: point the client here instead of the service. */
  port: number;
  /** Resets new connections at once and destroys open ones, as a stopped service would (the port stays the relay's). */
  cut(): Promise<void>;
  /** Keeps connections open but relays nothing more, as a hung server would. */
  hang(): void;
  /**
   * Stops relaying on the connections open now, silently and for good, while new connections are relayed: as a
   * firewall, NAT or load balancer that dropped idle connections without a reset would.
   */
  stall(): void;
  /** Relays new connections again (after `cut`), or drops the hung connections (after `hang`). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a relay from an ephemeral port to `host:port`.
 * @example
 * const relay = await tcpCut('127.0.0.1', 5432); // postgres://postgres@127.0.0.1:${relay.port}/test
 */
export async function tcpCut(host: string, port: number): Promise<TcpCut> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let hanging = false;
  // Cut: the port stays bound (so no other process can take it before restore) and every connection is reset at once.
  let refusing = false;
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    if (refusing) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    track(client);
    if (hanging) return; // accepted, never answered
    const upstream = net.connect(port, host);
    track(upstream);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    client.on('close', () => (upstream.destroy(), pairs.delete(pair)));
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const relayPort = (server.address() as net.AddressInfo).port;
  const relay: TcpCut = {
    port: relayPort,
    async cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    hang() {
      hanging = true;
      relay.stall();
    },
    stall() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      if (hanging) {
        hanging = false;
        for (const socket of sockets) socket.destroy();
      }
      refusing = false;
    },
    async close() {
      await relay.cut();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
  return relay;
}
