/**
 * How the live channel's messages reach every process (docs/architecture.md, "The live hub"). The process that commits a change
 * builds each room's frame once and publishes it once; it delivers it to its own sockets at once, and
 * every other process delivers what it receives to its own. One process needs no relay (`LocalRelay`
 * hands a message straight back); several share Redis pub/sub (`RedisRelay`): one channel, one message
 * per frame, personal event, catalogue event, frame's changed cards or disconnect, never one per
 * socket or slice.
 *
 * Redis delivers one publisher's messages in the order they were published; messages of two
 * publishers may interleave, which is why product events carry versions (hub.ts drops stale ones).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Frame, PersonalEventMap } from '@auction/shared';
import { closeRedis, failFastRedis, reportRedisErrors, withDeadline } from '../redis.js';

export type PersonalEvent = { [K in keyof PersonalEventMap]: { event: K; data: PersonalEventMap[K] } }[keyof PersonalEventMap];

export type Relayed =
  /** A room's frame; `json` is the frame serialised once. */
  | { kind: 'frame'; frame: Frame; json: string }
  | { kind: 'user'; userId: number; message: PersonalEvent }
  /** A catalogue event for every socket. */
  | { kind: 'all'; message: PersonalEvent }
  /**
   * These auctions' Browse cards changed (one frame's worth, merged): each process reads those its
   * own sockets show and sends them (hub.ts). Ids only: a process with no card watchers reads nothing.
   */
  | { kind: 'cards'; auctionIds: string[] }
  /** An account's sockets opened with a token version below `below` close wherever they are. */
  | { kind: 'disconnect'; role: 'user' | 'admin'; id: number; below: number };

/** `fromSelf`: this process published it (only a catalogue change from another process matters to the scheduler). */
export type RelayHandler = (msg: Relayed, fromSelf: boolean) => void;

export interface Relay {
  readonly kind: 'local' | 'redis';
  /** Delivers `msg` to this process at once (the handler, `fromSelf`), and to every other process. */
  publish(msg: Relayed): void;
  /** The one receiver of every message, this process's own included (each delivered once). */
  onMessage(handler: RelayHandler): void;
  /**
   * Calls `listener` when this process may have missed messages of other processes: its subscription
   * was lost and is back, or another process could not publish for a while and says so.
   */
  onGap(listener: () => void): void;
  /** 'ok', or why Redis cannot be reached (for /api/health). */
  check(): Promise<'ok' | 'unreachable'>;
  close(): Promise<void>;
}

/** One process: a message is delivered at once, in this call. */
export class LocalRelay implements Relay {
  readonly kind = 'local';
  private handler: RelayHandler = () => undefined;

  publish(msg: Relayed) {
    this.handler(msg, true);
  }

  onMessage(handler: RelayHandler) {
    this.handler = handler;
  }

  /** Nothing between processes, nothing to lose. */
  onGap() {}

  check() {
    return Promise.resolve('ok' as const);
  }

  close() {
    return Promise.resolve();
  }
}

const CHANNEL_PREFIX = 'auction:live';

/**
 * Wire format: `<kind>|<origin>|<payload>`, kind one letter. A frame's payload is its JSON exactly as
 * the hub serialised it, so the plain WebSocket transport sends it on untouched.
 */
function encode(origin: string, msg: Relayed): string {
  switch (msg.kind) {
    case 'frame': return `f|${origin}|${msg.json}`;
    case 'user': return `u|${origin}|${JSON.stringify({ u: msg.userId, m: msg.message })}`;
    case 'all': return `a|${origin}|${JSON.stringify(msg.message)}`;
    case 'cards': return `c|${origin}|${JSON.stringify(msg.auctionIds)}`;
    case 'disconnect': return `d|${origin}|${JSON.stringify({ r: msg.role, i: msg.id, b: Number.isFinite(msg.below) ? msg.below : null })}`;
  }
}

export function decode(raw: string): { origin: string; msg: Relayed } | null {
  const first = raw.indexOf('|');
  const second = raw.indexOf('|', first + 1);
  if (first !== 1 || second < 0) return null;
  const origin = raw.slice(2, second);
  const payload = raw.slice(second + 1);
  switch (raw[0]) {
    case 'f': return { origin, msg: { kind: 'frame', frame: JSON.parse(payload) as Frame, json: payload } };
    case 'u': {
      const { u, m } = JSON.parse(payload) as { u: number; m: PersonalEvent };
      return { origin, msg: { kind: 'user', userId: u, message: m } };
    }
    case 'a': return { origin, msg: { kind: 'all', message: JSON.parse(payload) as PersonalEvent } };
    case 'c': return { origin, msg: { kind: 'cards', auctionIds: JSON.parse(payload) as string[] } };
    case 'd': {
      const { r, i, b } = JSON.parse(payload) as { r: 'user' | 'admin'; i: number; b: number | null };
      return { origin, msg: { kind: 'disconnect', role: r, id: i, below: b ?? Infinity } };
    }
    default: return null;
  }
}

export interface RedisRelayOptions {
  url: string;
  /**
   * Processes that share a Redis but not a store (tests, several installs) keep apart by namespace;
   * every process of one installation uses the same one.
   */
  namespace: string;
  onError: (err: unknown) => void;
  /** What recovered from a relay gap, for the log. */
  onRecovered?: (what: string) => void;
  /** Seconds from publishing one of this process's messages to hearing it back from Redis (/metrics). */
  onLag?: (seconds: number) => void;
}

/**
 * Publishes sent to Redis and not yet answered, at most: beyond it (Redis slow or hung, and its
 * connection not yet dropped for it) a message reaches only this process's sockets, so nothing piles
 * up in memory.
 */
export const MAX_UNANSWERED_PUBLISHES = 10_000;
/** How long /api/health waits for Redis's answer. */
const CHECK_DEADLINE_MS = 500;
/** How often the subscriber pings Redis: a hung server is then noticed (its connection dropped) within ~3 s. */
const SUBSCRIBER_PING_MS = 1000;

/**
 * Redis pub/sub. Two connections: a subscriber (which can do nothing else) and one for commands,
 * shared with the watcher tally (`commands`). Neither queues anything while Redis is away
 * (server/src/redis.ts): this process's own messages reach its own sockets whatever Redis does, and
 * what could not be published is counted (`unrelayed`), not kept.
 *
 * Gaps (docs/live-protocol.md#re-reading-after-a-relay-gap): when the subscriber's connection was
 * lost, what others published meanwhile never arrives; once it has subscribed again, `onGap`
 * listeners hear of it. When messages could not be published, the other processes missed them: once
 * the command connection is back, a resync message (`r|<origin>|<count>`) tells them, and their
 * `onGap` listeners hear of it.
 */
export class RedisRelay implements Relay {
  readonly kind = 'redis';
  /** This process, as the origin of what it publishes. */
  readonly node = randomUUID();
  readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  /** The wire prefix after the kind letter of this process's own messages (`|<node>|`). */
  private readonly own: string;
  private handler: RelayHandler = () => undefined;
  private readonly gapListeners: (() => void)[] = [];
  private unanswered = 0;
  /** Messages that reached only this process since the other processes were last told. */
  unrelayed = 0;
  /** Subscribed now; `lost`: the subscription dropped and is not back yet. */
  private subscribed = false;
  private lost = false;
  private readonly pinger: NodeJS.Timeout;
  /**
   * This process's messages on their way through Redis, oldest first, with when each was sent: Redis
   * hands a connection's publishes back in order, so an echo is the oldest one still here that is the
   * same text (those before it were lost with a connection).
   */
  private readonly inFlight: Array<{ raw: string; at: number; lost?: boolean }> = [];
  private inFlightHead = 0;
  private announceTimer: NodeJS.Timeout | null = null;

  private constructor(private readonly opts: RedisRelayOptions) {
    this.channel = `${CHANNEL_PREFIX}:${opts.namespace}`;
    this.own = `|${this.node}|`;
    this.commands = failFastRedis(opts.url, `auction-cmd-${this.node}`, { enableAutoPipelining: true });
    // Subscribing again is this class's own business: it must know when it is done (`resubscribe`).
    this.subscriber = failFastRedis(opts.url, `auction-sub-${this.node}`, { autoResubscribe: false });
    for (const c of [this.commands, this.subscriber]) reportRedisErrors(c, opts.onError);
    this.subscriber.on('close', () => {
      // Echoes of what was on its way are lost with the subscription: none may be timed against a later one.
      this.inFlight.length = 0;
      this.inFlightHead = 0;
      if (!this.subscribed) return;
      this.subscribed = false;
      this.lost = true;
    });
    // After 'ready' has run its course (ioredis still sets the connection up in the same turn).
    this.subscriber.on('ready', () => { if (this.lost) setImmediate(() => this.resubscribe()); });
    this.commands.on('ready', () => this.announceGap());
    this.pinger = setInterval(() => {
      if (this.subscriber.status === 'ready') this.subscriber.ping().catch(() => undefined);
    }, SUBSCRIBER_PING_MS);
    this.pinger.unref();
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      // This process delivered its own messages when it published them: the echo is only timed.
      if (raw.startsWith(this.own, 1)) {
        if (raw[0] !== 'r') this.echoed(raw);
        return;
      }
      if (raw.startsWith('r|')) return this.gap();
      let decoded;
      try {
        decoded = decode(raw);
      } catch (err) {
        opts.onError(err);
        return;
      }
      if (decoded) this.handler(decoded.msg, false);
    });
  }

  /** Connects both connections and subscribes; rejects (with Redis's reason) when Redis is not there. */
  static async open(opts: RedisRelayOptions): Promise<RedisRelay> {
    const relay = new RedisRelay(opts);
    try {
      await Promise.all([relay.commands.connect(), relay.subscriber.connect()]);
      await relay.subscriber.subscribe(relay.channel);
      relay.subscribed = true;
    } catch (err) {
      clearInterval(relay.pinger);
      relay.commands.disconnect();
      relay.subscriber.disconnect();
      throw err;
    }
    return relay;
  }

  private async resubscribe() {
    if (!this.lost || this.subscriber.status !== 'ready') return;
    try {
      await this.subscriber.subscribe(this.channel);
    } catch {
      return; // Lost again before it was done: the next 'ready' tries again.
    }
    if (!this.lost) return;
    this.lost = false;
    this.subscribed = true;
    this.opts.onRecovered?.('the live channel is subscribed to Redis again; messages of other processes published meanwhile are lost, sockets re-read');
    this.gap();
  }

  private gap() {
    for (const listener of this.gapListeners) listener();
  }

  /** Tells the other processes that messages of this one did not reach them (and may never). */
  private announceGap() {
    if (this.unrelayed === 0 || this.commands.status !== 'ready') return;
    const missed = this.unrelayed;
    this.unrelayed = 0;
    this.commands.publish(this.channel, `r|${this.node}|${missed}`).then(() => {
      this.opts.onRecovered?.(`${missed} live messages reached only this process while Redis was away or slow; the other processes were told to re-read`);
    }, () => {
      this.unrelayed += missed;
    });
  }

  publish(msg: Relayed) {
    // This process's sockets first, at once: they never wait for (or miss out on) Redis.
    this.handler(msg, true);
    this.send(encode(this.node, msg));
  }

  private send(raw: string) {
    if (this.commands.status !== 'ready' || this.unanswered >= MAX_UNANSWERED_PUBLISHES) return this.dropped();
    this.unanswered++;
    const timed = this.opts.onLag && this.subscribed && this.inFlight.length - this.inFlightHead < MAX_UNANSWERED_PUBLISHES ? { raw, at: performance.now(), lost: false } : null;
    if (timed) this.inFlight.push(timed);
    this.commands.publish(this.channel, raw).then(() => {
      this.unanswered--;
    }, () => {
      if (timed) timed.lost = true;
      // The connection closed (or was dropped as hung) before Redis answered: the message may be lost.
      this.unanswered--;
      this.dropped();
    });
  }

  private echoed(raw: string) {
    const q = this.inFlight;
    while (this.inFlightHead < q.length) {
      const sent = q[this.inFlightHead]!;
      q[this.inFlightHead++] = undefined as never;
      if (!sent.lost && sent.raw === raw) {
        this.opts.onLag?.((performance.now() - sent.at) / 1000);
        break;
      }
    }
    // Compact now and then rather than shifting on every echo.
    if (this.inFlightHead > 1024 && this.inFlightHead * 2 > q.length) {
      q.splice(0, this.inFlightHead);
      this.inFlightHead = 0;
    }
  }

  /**
   * A message reached only this process. The others are told once the connection is back ('ready'),
   * or within a second if it never went (Redis answered with an error, or too many were unanswered).
   */
  private dropped() {
    this.unrelayed++;
    this.announceTimer ??= setTimeout(() => {
      this.announceTimer = null;
      this.announceGap();
    }, SUBSCRIBER_PING_MS);
  }

  onMessage(handler: RelayHandler) {
    this.handler = handler;
  }

  onGap(listener: () => void) {
    this.gapListeners.push(listener);
  }

  /** 'ok' when both connections are up and Redis answers a PING within CHECK_DEADLINE_MS. */
  async check(): Promise<'ok' | 'unreachable'> {
    if (this.commands.status !== 'ready' || this.subscriber.status !== 'ready') return 'unreachable';
    try {
      return (await withDeadline(this.commands.ping(), CHECK_DEADLINE_MS)) === 'PONG' ? 'ok' : 'unreachable';
    } catch {
      return 'unreachable';
    }
  }

  async close() {
    clearInterval(this.pinger);
    if (this.announceTimer) clearTimeout(this.announceTimer);
    await Promise.all([closeRedis(this.subscriber), closeRedis(this.commands)]);
  }
}
