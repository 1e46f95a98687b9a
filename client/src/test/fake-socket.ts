/**
 * A stand-in for socket.io-client, so tests drive the live store's real socket handling. In a test file:
 *   vi.mock('socket.io-client', () => import('<path>/test/fake-socket'));
 * then `useLive.getState().connect(token)` creates a FakeSocket, and the test plays the server with
 * `open()` (a connect), `drop()` (the process died), `reconnect()` (both, then the re-reads start) and
 * `resync()` (the server's `live:resync`: the re-reads start, the socket stays) and `hello(protocol)`
 * (the server's `live:hello`).
 */
type Handler = (...args: unknown[]) => void;

export class FakeSocket {
  connected = false;
  /** Everything the client emitted, in order. */
  readonly emitted: { event: string; args: unknown[] }[] = [];
  /** With holdAcks set, the server's answers wait here until the test calls them. */
  holdAcks = false;
  readonly pendingAcks: (() => void)[] = [];
  private readonly handlers = new Map<string, Handler[]>();

  constructor(readonly url: string, readonly options: unknown) {}

  on(event: string, fn: Handler): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    this.emitted.push({ event, args });
    const ack = args.at(-1);
    if (typeof ack === 'function') {
      const answer = () => (ack as Handler)({ status: 'ok', data: { auction_id: args[0], watchers: 1 } });
      if (this.holdAcks) this.pendingAcks.push(answer);
      else answer();
    }
    return this;
  }

  disconnect(): this {
    this.connected = false;
    return this;
  }

  /** The auction ids the client asked to watch, in order. */
  watches(): unknown[] {
    return this.emitted.filter((e) => e.event === 'auction:watch').map((e) => e.args[0]);
  }

  /** The server accepted the connection. */
  open(): void {
    this.connected = true;
    this.fire('connect');
  }

  /** The connection dropped (its server process died). */
  drop(): void {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }

  /** The server says its process may have missed events of other processes: re-read. */
  resync(): void {
    this.fire('live:resync', { server_time: new Date().toISOString() });
  }

  /** The server's first event on a connection: the live protocol it speaks. */
  hello(protocol: number): void {
    this.fire('live:hello', { protocol, server_time: new Date().toISOString() });
  }

  /** The server sends an event outside frames (a personal, card or control event). */
  send(event: string, data: unknown): void {
    this.fire(event, data);
  }

  /** The card ids of the client's last `catalogue:watch`, or undefined when it sent none. */
  cardWatch(): unknown {
    return this.emitted.filter((e) => e.event === 'catalogue:watch').at(-1)?.args[0];
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
}

export const sockets: FakeSocket[] = [];

/** What `io(url, options)` returns under the mock. */
export function io(url: string, options: unknown): FakeSocket {
  const s = new FakeSocket(url, options);
  sockets.push(s);
  return s;
}

export function lastSocket(): FakeSocket {
  const s = sockets.at(-1);
  if (!s) throw new Error('fake-socket: no socket was created (is socket.io-client mocked, and connect called?)');
  return s;
}

/** Drops the newest socket and connects it again (the client's reconnection, maybe to another process). */
export function reconnect(): void {
  const s = lastSocket();
  s.drop();
  s.open();
}

