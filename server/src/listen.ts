/** What `npm start` and `npm run demo` tell a person when they listen, or cannot. */
import net, { type AddressInfo } from 'node:net';

/** Bound addresses that mean every interface: no browser opens them, so the URL names this machine. */
const ALL_INTERFACES = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/**
 * The URL a person can open for a server bound to `bound` (the real address, so PORT=0 shows the port
 * it got), started with HOST `host`. A host name (HOST=localhost) is kept as written; bound to every
 * interface, the URL is localhost's and `allInterfaces` says the server is reachable on the others too.
 */
export function openableUrl(host: string, bound: AddressInfo): { url: string; allInterfaces: boolean } {
  const allInterfaces = ALL_INTERFACES.has(bound.address);
  const name = allInterfaces ? 'localhost' : net.isIP(host) === 0 && host !== '' ? host : bound.address;
  return { url: `http://${net.isIPv6(name) ? `[${name}]` : name}:${bound.port}`, allInterfaces };
}

/** The one line printed once the server listens: where to open it. */
export function listeningLine(host: string, bound: AddressInfo | string | null): string {
  if (bound === null || typeof bound === 'string') return `Auction platform at ${String(bound)}`;
  const { url, allInterfaces } = openableUrl(host, bound);
  return `Auction platform at ${url}${allInterfaces ? ` (reachable on all network interfaces, port ${bound.port})` : ''}`;
}

/**
 * One line for a listen failure a person can fix (the port taken or not allowed, HOST not an address of
 * this machine), with `otherPort(port)` saying how to pick another port; null for any other error.
 */
export function listenProblem(err: unknown, host: string, port: number, otherPort: (suggested: number) => string): string | null {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  const suggested = port >= 65535 ? 3000 : port + 1;
  switch (code) {
    case 'EADDRINUSE':
      return `Port ${port} is in use: stop what uses it or ${otherPort(suggested)}`;
    case 'EACCES':
      return `Port ${port} is not allowed for this user (ports below 1024 need privileges): ${otherPort(port < 1024 ? 3000 : suggested)}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST=${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them`;
    default:
      return null;
  }
}

/**
 * Resolves once `host:port` could be bound (and is free again), rejects with the bind error otherwise:
 * checked before the store is opened, so a second server started on a taken port never touches the
 * database (nor settles its auctions) before it finds out. Port 0 (any free port) always resolves.
 */
export function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
