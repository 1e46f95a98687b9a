/**
 * The live hub: one source of events, any number of transports (socket.io, plain WebSocket).
 * Room events are collected per room and flushed as one `frame` every LIVE_FRAME_MS, serialised once
 * per room; personal and catalogue events go out at once (docs/live-protocol.md). Browse cards that
 * changed are published as ids with the frame; each process reads those its own sockets show and
 * sends them to their `cards:<id>` rooms (docs/live-protocol.md#browse-cards-cataloguewatch).
 *
 * Publishing and delivering are two halves joined by a relay (relay.ts): this process publishes what
 * its own commits caused, and delivers to its own sockets whatever any process published (the relay
 * hands this process's own messages straight back, at once, whatever Redis does). Product events
 * carry versions; the hub remembers the newest it delivered per room and product and drops an older
 * or equal one, so every socket sees a product's versions strictly increase even when two processes'
 * frames interleave.
 *
 * Fan-out is paced: a transport hands back a frame's delivery as a few slices of its sockets, and the
 * hub writes them about a millisecond of work at a time, letting HTTP requests in between. One
 * frame to a thousand sockets is ~12 ms of socket writes; in one piece it would stall every bid that
 * arrives meanwhile. Slices run strictly in order, so frames never overtake each other.
 */
import { auctionRoom, cardsRoom, feedRoom, LIVE_PROTOCOL_VERSION, type CardChangedData, type Frame, type HelloData, type PersonalEventMap, type RoomEvent, type RoomEventName, type SocketEventMap } from '@auction/shared';
import type { Reads } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { iso } from '../presenters/format.js';
import { liveAuction, liveCard } from '../presenters/live.js';
import { deliveriesOf, type CatalogueChange } from './deliveries.js';
import { HEARTBEAT_MS, localTally, type WatcherTally } from './watchers.js';
import { LocalRelay, type Relay, type Relayed } from './relay.js';
import { SocketRegistry } from './sessions.js';
import { CardBudgets } from './card-budget.js';
import { TRANSPORTS, type LiveCounts, type TransportName } from '../metrics.js';

export interface Transport {
  readonly name: TransportName;
  /** This transport's open sockets (authenticated or not). */
  socketCount(): number;
  /**
   * The deliveries of one frame to its room, as slices of the room's sockets, each a call that writes
   * to one slice. `json` is the frame serialised once for every receiver of the room.
   */
  frameSlices(frame: Frame, json: string): Array<() => void>;
  sendToUser<K extends keyof PersonalEventMap>(userId: number, event: K, data: PersonalEventMap[K]): void;
  /** To every authenticated socket of this transport: catalogue events, and `live:resync`. */
  sendToAll<K extends keyof SocketEventMap>(event: K, data: SocketEventMap[K]): void;
  /** `catalogue:card` to the sockets of a `cards:<id>` room, as slices like a frame's (serialised once). */
  cardSlices(room: string, data: CardChangedData): Array<() => void>;
  /** Sockets of this transport in a room. */
  roomSize(room: string): number;
  close(): void;
}

const PUMP_BUDGET_MS = 1;

const zeroes = () => Object.fromEntries(TRANSPORTS.map((t) => [t, 0])) as Record<TransportName, number>;
/** How long an admin room's event that skips a version waits for the missing one (another process's frame). */
export const GAP_WAIT_MS = 250;
/** How long a settled auction room's versions are remembered (late frames of other processes are dropped). */
const FORGET_SETTLED_MS = 10_000;
/**
 * How long after a relay gap its re-read is sent: the gaps a Redis outage leaves (this process's
 * subscription back, other processes' own announcements) come close together and cost one re-read.
 */
export const RESYNC_DELAY_MS = 200;
/** Accounts whose session is read again at once after a relay gap (each read takes a pooled connection). */
const RECHECK_BATCH = 4;

type VersionedEvent = Extract<RoomEvent, { data: { version: number } }>;

/**
 * How a frame merges each room event (docs/live-protocol.md#frames): `lot`, auction rooms keep only a
 * lot's newest (it carries the lot's whole state); `count`, one watcher count per frame, the latest;
 * `keep`, every one, in order. Admin and `feed:` rooms merge only counts.
 */
const MERGE = {
  'bid:placed': 'lot',
  'bid:rolledback': 'lot',
  'product:sold': 'keep',
  'auction:ending': 'keep',
  'auction:extended': 'keep',
  'auction:ended': 'keep',
  'auction:settled': 'keep',
  'auction:watchers': 'count',
} as const satisfies Record<RoomEventName, 'lot' | 'count' | 'keep'>;

type MergedBy<M> = { [K in RoomEventName]: (typeof MERGE)[K] extends M ? K : never }[RoomEventName];
const mergesByLot = (e: RoomEvent): e is Extract<RoomEvent, { event: MergedBy<'lot'> }> => MERGE[e.event] === 'lot';

/**
 * A room's events waiting for the next frame (or, with several processes, frames held for the room's
 * next turn). Merging bids (auction rooms: watchers get state, docs/live-protocol.md#frames), a product's newer
 * `bid:placed` / `bid:rolledback` replaces its older one, which leaves a hole (null): each carries the
 * product's whole state, so the newest is all a watcher needs. Merging counts, a newer
 * `auction:watchers` replaces the older one (at most one per frame, the latest).
 */
class RoomBuffer {
  private readonly events: Array<RoomEvent | null> = [];
  /** Per product, the index of its pending bid event (when merging bids). */
  private readonly bids: Map<string, number> | null;
  private watchers = -1;

  constructor(mergeBids: boolean, private readonly mergeCounts: boolean) {
    this.bids = mergeBids ? new Map() : null;
  }

  add(event: RoomEvent) {
    if (this.mergeCounts && MERGE[event.event] === 'count') {
      if (this.watchers !== -1) this.events[this.watchers] = null;
      this.watchers = this.events.length;
    } else if (this.bids && mergesByLot(event)) {
      const earlier = this.bids.get(event.data.product_id);
      if (earlier !== undefined) this.events[earlier] = null;
      this.bids.set(event.data.product_id, this.events.length);
    }
    this.events.push(event);
  }

  /** The events kept, in order. */
  list(): RoomEvent[] {
    return this.events.filter((e) => e !== null);
  }
}

export interface LiveHubOptions {
  reads: Reads;
  now: () => number;
  frameMs: number;
  onError: (err: unknown) => void;
  /** Several processes: Redis (relay.ts). Default: this process only. */
  relay?: Relay;
  /** Watcher counts over every process (watchers.ts). Default: this process's own. */
  tally?: WatcherTally;
  /**
   * The event loop's utilisation since the last call (0–1); tests pass their own. Default:
   * perf_hooks' eventLoopUtilization.
   */
  utilization?: () => number;
}

/** The key under which the catalogue's changes (announcements, changed cards) are paced like a room's frames. */
const CATALOGUE = '\u0000catalogue';
/** A room due within this much of now is published with the rooms due now (a timer may fire a little early). */
const TIMER_SLACK_MS = 1;

/** The longest a frame may be stretched to under load, as a multiple of LIVE_FRAME_MS. */
export const MAX_FRAME_STRETCH = 8;
/** Utilisation above which frames stretch (×2 per frame), and below which they shrink back. */
export const BUSY_UTILIZATION = 0.85;
export const CALM_UTILIZATION = 0.6;
/** Frames in a row above BUSY_UTILIZATION before the interval stretches. */
export const BUSY_FRAMES = 3;

function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return delta.utilization;
  };
}

/** Cards one socket has just started showing, and how to send it one. */
interface CardShow {
  auctionIds: readonly string[];
  send: (data: CardChangedData) => void;
}

export class LiveHub {
  private readonly transports: Transport[] = [];
  private readonly buffers = new Map<string, RoomBuffer>();
  private timer: NodeJS.Timeout | null = null;
  /** Slice writes not yet done, oldest first. */
  private readonly fanout: Array<() => void> = [];
  private pumping = false;
  readonly relay: Relay;
  /** Every authenticated socket of both transports, by account (token lifetime, per-account limit). */
  readonly sessions = new SocketRegistry();
  /** What the cards both transports' sockets add may cost (card-budget.ts). */
  readonly cardBudgets = new CardBudgets();
  /** What the transports wrote and dropped, for /metrics. */
  readonly counts: LiveCounts = {
    sockets: () => {
      const n = { socketio: 0, websocket: 0 };
      for (const t of this.transports) n[t.name] += t.socketCount();
      return n;
    },
    frames: zeroes(),
    frameBytes: zeroes(),
    slowDrops: zeroes(),
  };
  private readonly tally: WatcherTally;
  /** Per room, per product: the newest version delivered to this process's sockets. */
  private readonly delivered = new Map<string, Map<string, number>>();
  /** Auctions this process has watchers of, with the total it last announced (re-checked by `sweep`). */
  private readonly announced = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout | null = null;
  private readonly foreignCatalogue = new Set<() => void>();
  private readonly foreignRevocations = new Set<(role: 'user' | 'admin', id: number) => void>();
  private readonly gapListeners = new Set<() => void>();
  private resyncTimer: NodeJS.Timeout | null = null;
  /** Relayed frames waiting for their room's next turn, merged (deliverFrame). */
  private readonly held = new Map<string, { buffer: RoomBuffer; serverTime: string; timer: NodeJS.Timeout }>();
  /** When this process last wrote a frame to each room's sockets (performance.now()). */
  private readonly lastFrameAt = new Map<string, number>();
  /** Admin rooms: per room and lot, events that arrived ahead of a missing version. */
  private readonly gaps = new Map<string, { events: Map<number, RoomEvent>; timer: NodeJS.Timeout }>();
  private sweeping = false;
  /** Catalogue changes waiting for the next frame, merged per auction. */
  private readonly catalogue = new Map<string, CatalogueChange>();
  /** Catalogue announcements still reading the auction (awaited before the relay closes). */
  private readonly announcing = new Set<Promise<void>>();
  /** Auctions whose card changed since the last frame (this process's commits), published ids only. */
  private readonly cardChanges = new Set<string>();
  /** Changed cards this process's sockets show, waiting for the next batch read. */
  private readonly cardsDue = new Set<string>();
  /** Cards sockets have just started showing, each sent to its socket alone with the next batch read. */
  private readonly cardShows: CardShow[] = [];
  /** The batch read of cards in flight (one at a time, so cards go out in the order they were read). */
  private cardRead: Promise<void> | null = null;
  private cardTimer: NodeJS.Timeout | null = null;
  private lastCardReadAt = -Infinity;
  private closing = false;
  /** The current frame interval: LIVE_FRAME_MS, stretched while the event loop is saturated. */
  private interval: number;
  private readonly utilization: () => number;
  private busyFrames = 0;
  private lastFlushAt = -Infinity;
  /** When the frame interval was last adapted to the load (performance.now()). */
  private lastAdaptAt = -Infinity;
  /** When each room's last frame was published (performance.now()); the catalogue's changes under CATALOGUE. */
  private readonly publishedAt = new Map<string, number>();
  /** The next turn's publishing of rooms whose interval has passed (the first event after a quiet spell). */
  private immediate: NodeJS.Immediate | null = null;
  /** When `timer` fires (performance.now()), for a room that waits for its interval. */
  private timerAt = Infinity;

  constructor(private readonly opts: LiveHubOptions) {
    this.relay = opts.relay ?? new LocalRelay();
    this.tally = opts.tally ?? localTally;
    this.interval = opts.frameMs;
    this.utilization = opts.utilization ?? loopUtilization();
    this.relay.onMessage(this.deliver);
    this.relay.onGap(this.relayGap);
    if (this.relay.kind !== 'local') {
      // Another process's sockets may have gone (it was killed): totals are re-checked now and then.
      this.sweeper = setInterval(() => { this.sweep().catch(opts.onError); }, HEARTBEAT_MS);
      this.sweeper.unref();
    }
  }

  attach(transport: Transport) {
    this.transports.push(transport);
  }

  /**
   * Calls `listener` when another process announces a catalogue change (the scheduler re-reads), or
   * may have announced one this process missed (after a relay gap).
   */
  onForeignCatalogue(listener: () => void): () => void {
    this.foreignCatalogue.add(listener);
    return () => this.foreignCatalogue.delete(listener);
  }

  /** Calls `listener` when another process revoked an account's tokens (session caches forget it). */
  onForeignRevocation(listener: (role: 'user' | 'admin', id: number) => void): () => void {
    this.foreignRevocations.add(listener);
    return () => this.foreignRevocations.delete(listener);
  }

  /**
   * Calls `listener` after a relay gap, before the sockets are told to re-read: what other processes
   * published meanwhile (revocations among it) may be lost, so caches kept fresh by it are dropped.
   */
  onRelayGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  serverTime() {
    return iso(this.opts.now());
  }

  /** `live:hello`, the first event of every connection: the contract's version (docs/live-protocol.md#connecting). */
  hello(): HelloData {
    return { protocol: LIVE_PROTOCOL_VERSION, server_time: this.serverTime() };
  }

  /** The relay may have lost messages of other processes (relay.ts, `onGap`): re-read soon, once for gaps close together. */
  private readonly relayGap = () => {
    if (this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      this.resync();
    }, RESYNC_DELAY_MS);
  };

  /**
   * After a relay gap: the caches that rely on other processes' news are dropped, every socket of both
   * transports is told to re-read what it shows (`live:resync`, handled as a reconnect), and the
   * sockets whose account was revoked or deactivated meanwhile are closed.
   */
  private resync() {
    for (const listener of this.foreignCatalogue) listener();
    for (const listener of this.gapListeners) listener();
    const data = { server_time: this.serverTime() };
    for (const t of this.transports) t.sendToAll('live:resync', data);
    this.recheckAccounts().catch(this.opts.onError);
  }

  /** Reads the account of every socket here again; closes those opened with a token no longer valid. */
  private async recheckAccounts() {
    const accounts = this.sessions.accounts();
    for (let i = 0; i < accounts.length; i += RECHECK_BATCH) {
      await Promise.all(accounts.slice(i, i + RECHECK_BATCH).map(async ({ role, id }) => {
        const row = await this.opts.reads.session(role, id);
        this.sessions.revoke(role, id, row?.status === 'active' ? row.tokenVersion : Infinity);
      }));
    }
  }

  /** Committed domain events, in commit order. */
  publish = (events: readonly DomainEvent[]) => {
    const serverTime = this.serverTime();
    for (const e of events) {
      for (const d of deliveriesOf(e, serverTime)) {
        if (d.to === 'room') this.enqueue(d.room, d.event);
        else if (d.to === 'user') this.relay.publish({ kind: 'user', userId: d.userId, message: d.event });
        else if (d.to === 'disconnect') this.disconnectAccount(d.role, d.id, d.below);
        else if (d.to === 'card') this.queueCard(d.auctionId);
        else this.queueCatalogue(d.auctionId, d.change);
      }
    }
  };

  /** Reads the auction as committed (after the commit that changed it) and tells every socket. */
  private async announceCatalogue(auctionId: string, change: CatalogueChange, serverTime: string) {
    const view = change === 'auction:deleted' ? null : await this.opts.reads.auction(auctionId);
    if (!view) {
      this.relay.publish({ kind: 'all', message: { event: 'auction:deleted', data: { id: auctionId, server_time: serverTime } } });
      return;
    }
    const summary = liveAuction(view, this.opts.now(), serverTime);
    this.relay.publish({
      kind: 'all',
      message: change === 'auction:extended' ? { event: change, data: { ...summary, auction_id: auctionId } } : { event: change, data: summary },
    });
  }

  enqueue(room: string, event: RoomEvent) {
    const auction = room.startsWith('auction:');
    if (auction) {
      // Scripts and audits with `/api/ws?feed=all` get every event of the auction, unmerged.
      const auctionId = room.slice('auction:'.length);
      if (this.wantsFeed(auctionId)) {
        this.buffer(feedRoom(auctionId), false, false).add(event);
        this.schedule(feedRoom(auctionId));
      }
    }
    // Every room: one watcher count per frame (a watch/unwatch toggle storm is one event per frame).
    this.buffer(room, auction, true).add(event);
    this.schedule(room);
  }

  private buffer(room: string, mergeBids: boolean, mergeCounts: boolean): RoomBuffer {
    let buffer = this.buffers.get(room);
    if (!buffer) this.buffers.set(room, (buffer = new RoomBuffer(mergeBids, mergeCounts)));
    return buffer;
  }

  /** A full feed is built when a socket here takes it, or always with several processes (one elsewhere may). */
  private wantsFeed(auctionId: string): boolean {
    if (this.relay.kind !== 'local') return true;
    const room = feedRoom(auctionId);
    return this.transports.some((t) => t.roomSize(room) > 0);
  }

  /**
   * A room has a new event. Its frame goes out on the next turn when the room published none within
   * the frame interval (a quiet room costs no latency), otherwise once the interval since its last
   * frame has passed, with whatever else arrived meanwhile merged into it. So an event waits at most
   * one interval: LIVE_FRAME_MS, or up to MAX_FRAME_STRETCH × that while the loop is saturated.
   */
  private schedule(room: string) {
    if (this.opts.frameMs === 0) return this.flush();
    const now = performance.now();
    // The first event after a quiet spell: what the loop did meanwhile (reads, say) says nothing of
    // the fan-out, so frames start again at LIVE_FRAME_MS.
    if (!this.immediate && !this.timer && now - this.lastFlushAt > this.opts.frameMs * MAX_FRAME_STRETCH) {
      this.interval = this.opts.frameMs;
      this.busyFrames = 0;
      this.utilization();
    }
    const due = (this.publishedAt.get(room) ?? -Infinity) + this.interval;
    if (due <= now) {
      this.immediate ??= setImmediate(this.tick);
      return;
    }
    this.wakeAt(due);
  }

  private wakeAt(due: number) {
    if (due >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = due;
    this.timer = setTimeout(this.tick, Math.max(0, due - performance.now()));
  }

  /** Publishes the rooms whose interval has passed; wakes again for the earliest of the others. */
  private readonly tick = () => this.publishFrames(false);

  /**
   * Catalogue changes are merged per auction per frame (a burst of edits is one announcement, read
   * as committed when the frame goes out): created stays created, deleted wins.
   */
  private queueCatalogue(auctionId: string, change: CatalogueChange) {
    const before = this.catalogue.get(auctionId);
    this.catalogue.set(auctionId, change === 'auction:deleted' ? change : before === 'auction:created' ? before : change);
    this.schedule(CATALOGUE);
  }

  /** A card changed: merged per auction, its id published with the next frame. */
  private queueCard(auctionId: string) {
    this.cardChanges.add(auctionId);
    this.schedule(CATALOGUE);
  }

  /** Whether a socket of this process shows the auction's card. */
  private showsCard(auctionId: string): boolean {
    const room = cardsRoom(auctionId);
    return this.transports.some((t) => t.roomSize(room) > 0);
  }

  /**
   * Cards changed (by any process): those this process's sockets show are read at the next turn. At
   * most one batch read per frame interval, and one at a time: a read that started later sees a newer
   * commit, so a socket never gets an older card after a newer one. No watchers here, no read.
   */
  private cardsChanged(auctionIds: readonly string[]) {
    for (const id of auctionIds) if (this.showsCard(id)) this.cardsDue.add(id);
    if ((this.cardsDue.size === 0 && this.cardShows.length === 0) || this.cardRead || this.closing) return;
    // A socket waiting for the cards it just started showing is served at once.
    const wait = this.cardShows.length > 0 ? 0 : this.lastCardReadAt + this.interval - performance.now();
    if (wait <= 0) {
      if (this.cardTimer) clearTimeout(this.cardTimer);
      this.cardTimer = null;
      return this.readCards();
    }
    this.cardTimer ??= setTimeout(() => {
      this.cardTimer = null;
      this.readCards();
    }, wait);
  }

  /**
   * A socket started showing these cards: each is read as committed, with the next batch read (at once
   * when none is in flight), and handed to `send` (the socket alone) in the order of the reads, so a
   * change between the page the client read and its list is not lost, and never arrives out of order.
   * An id of no auction sends nothing.
   */
  showCards(auctionIds: readonly string[], send: (data: CardChangedData) => void) {
    if (auctionIds.length === 0 || this.closing) return;
    this.cardShows.push({ auctionIds, send });
    this.cardsChanged([]);
  }

  private readCards() {
    // A socket may have stopped showing a card since it changed.
    const ids = [...this.cardsDue].filter((id) => this.showsCard(id));
    this.cardsDue.clear();
    const shows = this.cardShows.splice(0);
    if (ids.length === 0 && shows.length === 0) return;
    if (ids.length > 0) this.lastCardReadAt = performance.now();
    this.cardRead = this.sendCards(ids, shows).catch(this.opts.onError).finally(() => {
      this.cardRead = null;
      // Changes that arrived during the read: the next read, a frame interval after this one.
      this.cardsChanged([]);
    });
  }

  /** Reads the cards as committed, in one statement, and sends each to the sockets that show it (null: deleted). */
  private async sendCards(ids: string[], shows: CardShow[]) {
    const due = new Set(ids);
    const wanted = new Set(ids);
    for (const show of shows) for (const id of show.auctionIds) wanted.add(id);
    const views = new Map((await this.opts.reads.auctionCards([...wanted])).map((v) => [v.id, v]));
    const now = this.opts.now();
    const serverTime = this.serverTime();
    const cards = new Map<string, CardChangedData>();
    const cardOf = (id: string) => {
      let data = cards.get(id);
      if (!data) {
        const view = views.get(id);
        data = { auction_id: id, card: view ? liveCard(view, now) : null, server_time: serverTime };
        cards.set(id, data);
      }
      return data;
    };
    for (const id of ids) {
      const data = cardOf(id);
      for (const t of this.transports) this.fanout.push(...t.cardSlices(cardsRoom(id), data));
    }
    for (const show of shows) {
      // A card also changed goes to its whole room above, this socket included.
      const own = show.auctionIds.filter((id) => views.has(id) && !due.has(id)).map(cardOf);
      if (own.length > 0) this.fanout.push(() => { for (const data of own) show.send(data); });
    }
    this.pump();
  }

  /** Publishes every room's pending events as one frame each, due or not; a quiet room sends nothing. */
  flush = () => this.publishFrames(true);

  /** Publishes the pending rooms (all, or those whose interval has passed) and the catalogue's changes. */
  private publishFrames(all: boolean) {
    // Whatever wake-up was pending is this one (or superseded by it); wakeForWaiting sets the next.
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now();
    const due = (room: string) => all || (this.publishedAt.get(room) ?? -Infinity) + this.interval <= now + TIMER_SLACK_MS;
    const catalogue = (this.catalogue.size > 0 || this.cardChanges.size > 0) && due(CATALOGUE);
    const rooms = [...this.buffers.keys()].filter(due);
    if (!catalogue && rooms.length === 0) return this.wakeForWaiting();
    // The load is judged over an interval at least: rooms out of step publish several times within
    // one, and windows that short would read the fan-out's own slices as saturation.
    if (all || now - this.lastAdaptAt >= this.interval - TIMER_SLACK_MS) {
      this.lastAdaptAt = now;
      this.adapt();
    }
    this.lastFlushAt = now;
    if (catalogue) {
      this.publishedAt.set(CATALOGUE, now);
      for (const [auctionId, change] of this.catalogue) {
        const announced = this.announceCatalogue(auctionId, change, this.serverTime()).catch(this.opts.onError);
        this.announcing.add(announced);
        void announced.finally(() => this.announcing.delete(announced));
      }
      this.catalogue.clear();
      if (this.cardChanges.size > 0) {
        this.relay.publish({ kind: 'cards', auctionIds: [...this.cardChanges] });
        this.cardChanges.clear();
      }
    }
    if (rooms.length > 0) {
      const serverTime = this.serverTime();
      const frames = rooms.map((room): Frame => {
        const events = this.buffers.get(room)!.list();
        this.buffers.delete(room);
        this.publishedAt.set(room, now);
        return { room, server_time: serverTime, events };
      });
      for (const frame of frames) this.relay.publish({ kind: 'frame', frame, json: JSON.stringify(frame) });
    }
    if (this.publishedAt.size > 10_000) {
      // A room that published nothing for the longest interval publishes its next event at once anyway.
      const before = now - this.opts.frameMs * MAX_FRAME_STRETCH;
      for (const [room, at] of this.publishedAt) if (at < before) this.publishedAt.delete(room);
    }
    this.wakeForWaiting();
  }

  /** Wakes when the earliest room still waiting is due. */
  private wakeForWaiting() {
    let next = Infinity;
    const consider = (room: string) => { next = Math.min(next, (this.publishedAt.get(room) ?? -Infinity) + this.interval); };
    for (const room of this.buffers.keys()) consider(room);
    if (this.catalogue.size > 0 || this.cardChanges.size > 0) consider(CATALOGUE);
    if (next === Infinity) return;
    if (next <= performance.now()) this.immediate ??= setImmediate(this.tick);
    else this.wakeAt(next);
  }

  /**
   * Load shedding for the fan-out. While the event loop is saturated (a bid storm: BUSY_FRAMES frames
   * in a row), each frame to a thousand watchers costs writes the bids need: the interval doubles per frame, up to
   * MAX_FRAME_STRETCH × LIVE_FRAME_MS, and halves back once the loop is calm. Watchers get state, so a
   * longer frame loses nothing, it only updates less often; a calm server keeps LIVE_FRAME_MS.
   */
  private adapt() {
    const { frameMs } = this.opts;
    if (frameMs === 0) return;
    const load = this.utilization();
    // Saturated for BUSY_FRAMES frames in a row: one long pause (a garbage collection) is not a storm.
    this.busyFrames = load > BUSY_UTILIZATION ? this.busyFrames + 1 : 0;
    if (this.busyFrames >= BUSY_FRAMES) this.interval = Math.min(this.interval * 2, frameMs * MAX_FRAME_STRETCH);
    else if (load < CALM_UTILIZATION) this.interval = Math.max(this.interval / 2, frameMs);
  }

  /** The frame interval now (ms), for tests and diagnostics. */
  get frameInterval() {
    return this.interval;
  }

  /** What any process published, to this process's sockets. */
  private readonly deliver = (msg: Relayed, fromSelf: boolean) => {
    switch (msg.kind) {
      case 'frame': {
        // A count another process announced is the one this process's sweep compares with.
        for (const e of msg.frame.events) {
          if (e.event === 'auction:watchers' && this.announced.has(e.data.auction_id)) this.announced.set(e.data.auction_id, e.data.watchers);
        }
        const fresh = this.fresh(msg.frame, msg.json);
        if (fresh) this.deliverFrame(fresh.frame, fresh.json);
        return;
      }
      case 'user':
        for (const t of this.transports) t.sendToUser(msg.userId, msg.message.event, msg.message.data);
        return;
      case 'all':
        // Listeners first: a client re-reading on this event must find caches already invalidated.
        if (!fromSelf) for (const listener of this.foreignCatalogue) listener();
        for (const t of this.transports) t.sendToAll(msg.message.event, msg.message.data);
        return;
      case 'cards':
        this.cardsChanged(msg.auctionIds);
        return;
      case 'disconnect':
        if (!fromSelf) for (const listener of this.foreignRevocations) listener(msg.role, msg.id);
        this.sessions.revoke(msg.role, msg.id, msg.below);
        return;
    }
  };

  /**
   * Several processes each publish a frame per room every LIVE_FRAME_MS, so a room could receive N
   * frames in that time; written as they come, every socket's cost would grow with the number of
   * processes and nothing would scale. So this process writes at most one frame per room per frame
   * interval to its sockets: a frame arriving sooner after the last one waits, merged with any
   * others, until that time has passed (the first after a quiet spell goes out at once). The interval
   * is this process's own, stretched while it is saturated (adapt), as its own frames are: a storm
   * costs each socket what it costs with one process. One process (its own frames already paced)
   * writes each at once.
   */
  private deliverFrame(frame: Frame, json: string) {
    const { frameMs } = this.opts;
    if (this.relay.kind === 'local' || frameMs === 0) return this.fanOut(frame, json);
    const room = frame.room;
    const held = this.held.get(room);
    if (held) {
      for (const e of frame.events) held.buffer.add(e);
      held.serverTime = frame.server_time;
      return;
    }
    // This process's own interval while its frames are recent; once it has flushed nothing for longer
    // than the longest frame (it only relays now), the stretch says nothing: LIVE_FRAME_MS.
    const stretched = performance.now() - this.lastFlushAt <= frameMs * MAX_FRAME_STRETCH;
    const wait = (this.lastFrameAt.get(room) ?? -Infinity) + (stretched ? Math.max(frameMs, this.interval) : frameMs) - performance.now();
    if (this.lastFrameAt.size > 10_000) {
      // Rooms quiet for a second need no memory of their last frame.
      const before = performance.now() - 1000;
      for (const [r, at] of this.lastFrameAt) if (at < before) this.lastFrameAt.delete(r);
    }
    // This process's own frames are published up to TIMER_SLACK_MS early and come back from the relay
    // a little later than they left: not worth a timer.
    if (wait <= TIMER_SLACK_MS) {
      this.lastFrameAt.set(room, performance.now());
      return this.fanOut(frame, json);
    }
    // Several processes' frames of an auction room merge as its own do: one bid event per product, one count.
    const auction = room.startsWith('auction:');
    const buffer = new RoomBuffer(auction, auction);
    for (const e of frame.events) buffer.add(e);
    this.held.set(room, { buffer, serverTime: frame.server_time, timer: setTimeout(() => this.release(room), wait) });
  }

  /** Writes a room's held frames as one. */
  private release(room: string) {
    const held = this.held.get(room);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(room);
    this.lastFrameAt.set(room, performance.now());
    const frame: Frame = { room, server_time: held.serverTime, events: held.buffer.list() };
    this.fanOut(frame, JSON.stringify(frame));
  }

  private fanOut(frame: Frame, json: string) {
    for (const t of this.transports) {
      const n = t.roomSize(frame.room);
      this.counts.frames[t.name] += n;
      this.counts.frameBytes[t.name] += n * json.length;
      this.fanout.push(...t.frameSlices(frame, json));
    }
    this.pump();
  }

  /**
   * The frame as this process's sockets of the room may see it; null when nothing is left. A product
   * event older than (or as old as) one already delivered to the room is dropped: watchers get state,
   * and the newer event carries it. Admin rooms get every event (docs/live-protocol.md#frames) in version order: an event
   * that skips a version waits (GAP_WAIT_MS at most) for the missing one, which another process's
   * frame is still carrying. Serialised again only when something was dropped or held back.
   */
  private fresh(frame: Frame, json: string): { frame: Frame; json: string } | null {
    const { room } = frame;
    let seen = this.delivered.get(room);
    if (!seen) this.delivered.set(room, (seen = new Map<string, number>()));
    const ordered = room.startsWith('admin:') || room.startsWith('feed:');
    const events: RoomEvent[] = [];
    for (const e of frame.events) {
      if (!('version' in e.data)) events.push(e);
      else if (ordered) this.inOrder(room, seen, e as VersionedEvent, events);
      else if (e.data.version > (seen.get(e.data.product_id) ?? -1)) {
        seen.set(e.data.product_id, e.data.version);
        events.push(e);
      }
    }
    // A settled auction's lots change no more: forget them a while later (late frames still dropped).
    if (!room.startsWith('admin:') && frame.events.some((e) => e.event === 'auction:settled')) {
      setTimeout(() => this.delivered.delete(room), FORGET_SETTLED_MS).unref();
    }
    if (events.length === frame.events.length && events.every((e, k) => e === frame.events[k])) return { frame, json };
    if (events.length === 0) return null;
    const kept = { ...frame, events };
    return { frame: kept, json: JSON.stringify(kept) };
  }

  /** Admin rooms: `e` goes out now if it is the next version of its lot (with any that waited on it). */
  private inOrder(room: string, seen: Map<string, number>, e: VersionedEvent, out: RoomEvent[]) {
    const { product_id: product, version } = e.data;
    const last = seen.get(product);
    if (last !== undefined && version <= last) return;
    const key = `${room}\u0000${product}`;
    if (last === undefined || version === last + 1) {
      out.push(e);
      seen.set(product, version);
      const waiting = this.gaps.get(key);
      if (!waiting) return;
      for (let next = version + 1; waiting.events.has(next); next++) {
        out.push(waiting.events.get(next)!);
        waiting.events.delete(next);
        seen.set(product, next);
      }
      for (const v of waiting.events.keys()) if (v <= seen.get(product)!) waiting.events.delete(v);
      if (waiting.events.size === 0) {
        clearTimeout(waiting.timer);
        this.gaps.delete(key);
      }
      return;
    }
    let waiting = this.gaps.get(key);
    if (!waiting) {
      const timer = setTimeout(() => this.skipGap(room, product), GAP_WAIT_MS);
      this.gaps.set(key, (waiting = { events: new Map(), timer }));
    }
    waiting.events.set(version, e);
  }

  /** The missing version never came (its process died before publishing it): go on from the next one. */
  private skipGap(room: string, product: string) {
    const key = `${room}\u0000${product}`;
    const waiting = this.gaps.get(key);
    if (!waiting) return;
    this.gaps.delete(key);
    const seen = this.delivered.get(room) ?? new Map<string, number>();
    this.delivered.set(room, seen);
    const events: RoomEvent[] = [];
    for (const [version, e] of [...waiting.events].sort((a, b) => a[0] - b[0])) {
      if (version <= (seen.get(product) ?? -1)) continue;
      seen.set(product, version);
      events.push(e);
    }
    if (events.length === 0) return;
    const frame: Frame = { room, server_time: this.serverTime(), events };
    this.deliverFrame(frame, JSON.stringify(frame));
  }

  /** Writes slices for about a millisecond, then yields to the event loop until all are written. */
  private readonly pump = () => {
    if (this.pumping || this.fanout.length === 0) return;
    const until = performance.now() + PUMP_BUDGET_MS;
    let next = 0;
    do this.fanout[next++]!();
    while (next < this.fanout.length && performance.now() < until);
    this.fanout.splice(0, next);
    if (this.fanout.length === 0) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.pump();
    });
  };

  /** This process's own sockets watching an auction. */
  private localWatchers(auctionId: string): number {
    const room = auctionRoom(auctionId);
    const feed = feedRoom(auctionId);
    return this.transports.reduce((n, t) => n + t.roomSize(room) + t.roomSize(feed), 0);
  }

  /** The watchers of an auction over every process (this process's own if the tally cannot answer now). */
  async watchers(auctionId: string): Promise<number> {
    const local = this.localWatchers(auctionId);
    try {
      return (await this.tally.report(auctionId, local)) ?? local;
    } catch (err) {
      this.opts.onError(err);
      return local;
    }
  }

  /** Tells an auction room how many watch it now (over every process); resolves with that count. */
  async watchersChanged(auctionId: string): Promise<number> {
    const total = await this.watchers(auctionId);
    if (this.localWatchers(auctionId) > 0) this.announced.set(auctionId, total);
    else this.announced.delete(auctionId);
    this.enqueue(auctionRoom(auctionId), {
      event: 'auction:watchers',
      data: { auction_id: auctionId, watchers: total, server_time: this.serverTime() },
    });
    return total;
  }

  /** Re-reports this process's counts and announces totals that changed meanwhile (a process died). */
  private async sweep() {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepOnce();
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce() {
    for (const [auctionId, last] of [...this.announced]) {
      if (this.localWatchers(auctionId) === 0) {
        this.announced.delete(auctionId);
        continue;
      }
      const total = await this.watchers(auctionId);
      if (total !== last) await this.watchersChanged(auctionId);
    }
  }

  /** Closes the account's sockets here at once (even with Redis away: the relay delivers here first) and everywhere. */
  disconnectAccount(role: 'user' | 'admin', id: number, below = Infinity) {
    this.relay.publish({ kind: 'disconnect', role, id, below });
  }

  /** Publishes what is pending, writes what is queued and closes this process's sockets (server closing). */
  closeSockets() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.flush();
    // Its sockets are closing: no card is read for them any more (the changes were published above).
    this.closing = true;
    if (this.cardTimer) clearTimeout(this.cardTimer);
    this.cardTimer = null;
    for (const room of [...this.held.keys()]) this.release(room);
    // Whatever is still queued goes out now, before the sockets close.
    for (const send of this.fanout.splice(0)) send();
    for (const t of this.transports) t.close();
  }

  /**
   * After the last request has finished: publishes what those requests committed (other processes'
   * watchers need it), then leaves the tally and the relay.
   */
  async close() {
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.closeSockets();
    await Promise.allSettled([...this.announcing, this.cardRead]);
    for (const g of this.gaps.values()) clearTimeout(g.timer);
    this.gaps.clear();
    await this.tally.close();
    await this.relay.close();
  }
}
