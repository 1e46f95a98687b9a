/**
 * A TCP proxy between the apps under test and the real Redis, so a test can take Redis away from
 * them (and give it back) without touching the service that other test runs share.
 *
 * - `cut()`: every proxied connection is destroyed and new ones are refused (closed at once): Redis
 *   stopped or unreachable.
 * - `hang()`: connections stay open but nothing passes any more, and new ones are accepted and never
 *   answered: Redis hung (or a black-holing network).
 * - `restore()`: new connections reach Redis again; connections held by `hang` are closed, as a
 *   hung server that is restarted closes them.
 */
import net from 'node:net';

type Mode = 'open' | 'cut' | 'hang';

export interface RedisProxy {
  url: string;
  cut(): void;
  hang(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function redisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port } = new URL(target);
  let mode: Mode = 'open';
  /** Every client socket, with its upstream when it has one. */
  const pairs = new Map<net.Socket, net.Socket | null>();
  const drop = (client: net.Socket) => {
    const upstream = pairs.get(client);
    pairs.delete(client);
    client.destroy();
    upstream?.destroy();
  };

  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    pairs.set(client, null);
    client.on('close', () => drop(client));
    // Accepted, never answered.
    if (mode === 'hang') return;
    const upstream = net.connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, ''));
    pairs.set(client, upstream);
    upstream.on('error', () => undefined);
    upstream.on('close', () => drop(client));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as net.AddressInfo;

  return {
    url: `redis://127.0.0.1:${own}`,
    cut() {
      mode = 'cut';
      for (const client of [...pairs.keys()]) drop(client);
    },
    hang() {
      mode = 'hang';
      for (const [client, upstream] of pairs) {
        if (!upstream) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      const was = mode;
      mode = 'open';
      if (was === 'hang') for (const client of [...pairs.keys()]) drop(client);
    },
    async close() {
      mode = 'cut';
      for (const client of [...pairs.keys()]) drop(client);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
