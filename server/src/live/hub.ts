/**
 * The live hub: one source of events, any number of transports (socket.io, plain WebSocket).
 * Room events are collected per room (room-buffer.ts) and flushed as one `frame` every LIVE_FRAME_MS
 * (frame-pacer.ts), serialised once per room; personal and catalogue events go out at once
 * (docs/live-protocol.md). Browse cards that changed are published as ids with the frame; each
 * process reads those its own sockets show and sends them to their `cards:<id>` rooms (card-publisher.ts).
 *
 * Publishing and delivering are two halves joined by a relay (relay.ts): this process publishes what
 * its own commits caused, and delivers to its own sockets whatever any process published (the relay
 * hands this process's own messages straight back, at once, whatever Redis does). Product events
 * carry versions; the version gate (version-gate.ts) drops an older or equal one per room and product,
 * so every socket sees a product's versions strictly increase even when two processes' frames
 * interleave; relayed frames are paced per room (relayed-frames.ts).
 *
 * Fan-out is paced (fanout.ts): a transport hands back a frame's delivery as a few slices of its
 * sockets, written about a millisecond of work at a time, strictly in order. Watcher counts over
 * every process: watcher-counts.ts. This file composes the parts.
 */
import { feedRoom, LIVE_PROTOCOL_VERSION, type CardChangedData, type Frame, type HelloData, type RoomEvent } from '@auction/shared';
import type { Reads } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { iso } from '../presenters/format.js';
import { liveAuction } from '../presenters/live.js';
import { deliveriesOf, type CatalogueChange } from './deliveries.js';
import { localTally, type WatcherTally } from './watchers.js';
import { LocalRelay, type Relay, type Relayed } from './relay.js';
import { SocketRegistry } from './sessions.js';
import { CardBudgets } from './card-budget.js';
import { TRANSPORTS, type LiveCounts, type TransportName } from '../metrics.js';
import { RoomBuffer } from './room-buffer.js';
import { FramePacer, loopUtilization, type Turn } from './frame-pacer.js';
import { VersionGate } from './version-gate.js';
import { CardPublisher } from './card-publisher.js';
import { WatcherCounts } from './watcher-counts.js';
import { RelayedFrames } from './relayed-frames.js';
import { Fanout } from './fanout.js';
import { roomSize, type Transport } from './transport.js';

export type { Transport } from './transport.js';
export { GAP_WAIT_MS } from './version-gate.js';
export { BUSY_FRAMES, BUSY_UTILIZATION, CALM_UTILIZATION, MAX_FRAME_STRETCH } from './frame-pacer.js';

const zeroes = () => Object.fromEntries(TRANSPORTS.map((t) => [t, 0])) as Record<TransportName, number>;
/**
 * How long after a relay gap its re-read is sent: the gaps a Redis outage leaves (this process's
 * subscription back, other processes' own announcements) come close together and cost one re-read.
 */
export const RESYNC_DELAY_MS = 200;
/** Accounts whose session is read again at once after a relay gap (each read takes a pooled connection). */
const RECHECK_BATCH = 4;

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
export class LiveHub {
  private readonly transports: Transport[] = [];
  private readonly buffers = new Map<string, RoomBuffer>();
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
  private readonly foreignCatalogue = new Set<() => void>();
  private readonly foreignRevocations = new Set<(role: 'user' | 'admin', id: number) => void>();
  private readonly gapListeners = new Set<() => void>();
  private resyncTimer: NodeJS.Timeout | null = null;
  /** Catalogue changes waiting for the next frame, merged per auction. */
  private readonly catalogue = new Map<string, CatalogueChange>();
  /** Catalogue announcements still reading the auction (awaited before the relay closes). */
  private readonly announcing = new Set<Promise<void>>();
  private readonly fanout = new Fanout();
  private readonly pacer: FramePacer;
  private readonly gate: VersionGate;
  private readonly relayed: RelayedFrames;
  private readonly cards: CardPublisher;
  private readonly watcherCounts: WatcherCounts;

  constructor(private readonly opts: LiveHubOptions) {
    this.relay = opts.relay ?? new LocalRelay();
    this.tally = opts.tally ?? localTally;
    this.pacer = new FramePacer(opts.frameMs, opts.utilization ?? loopUtilization(), (all) => this.publishFrames(all));
    this.relayed = new RelayedFrames(this.relay.kind !== 'local' && opts.frameMs !== 0, this.pacer, (frame, json) => this.fanOut(frame, json));
    this.gate = new VersionGate((frame, json) => this.relayed.deliver(frame, json), () => this.serverTime());
    const serverTime = () => this.serverTime();
    this.cards = new CardPublisher({
      reads: opts.reads, now: opts.now, serverTime, transports: this.transports, interval: () => this.pacer.current, fanout: this.fanout, onError: opts.onError,
    });
    // Another process's sockets may have gone (it was killed): totals are re-checked now and then.
    this.watcherCounts = new WatcherCounts({
      tally: this.tally, transports: this.transports, shared: this.relay.kind !== 'local', enqueue: (room, e) => this.enqueue(room, e), serverTime, onError: opts.onError,
    });
    this.relay.onMessage(this.deliver);
    this.relay.onGap(this.relayGap);
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
        this.pacer.schedule(feedRoom(auctionId));
      }
    }
    // Every room: one watcher count per frame (a watch/unwatch toggle storm is one event per frame).
    this.buffer(room, auction, true).add(event);
    this.pacer.schedule(room);
  }

  private buffer(room: string, mergeBids: boolean, mergeCounts: boolean): RoomBuffer {
    let buffer = this.buffers.get(room);
    if (!buffer) this.buffers.set(room, (buffer = new RoomBuffer(mergeBids, mergeCounts)));
    return buffer;
  }

  /** A full feed is built when a socket here takes it, or always with several processes (one elsewhere may). */
  private wantsFeed(auctionId: string): boolean {
    if (this.relay.kind !== 'local') return true;
    return roomSize(this.transports, feedRoom(auctionId)) > 0;
  }

  /**
   * Catalogue changes are merged per auction per frame (a burst of edits is one announcement, read
   * as committed when the frame goes out): created stays created, deleted wins.
   */
  private queueCatalogue(auctionId: string, change: CatalogueChange) {
    const before = this.catalogue.get(auctionId);
    this.catalogue.set(auctionId, change === 'auction:deleted' ? change : before === 'auction:created' ? before : change);
    this.pacer.schedule(CATALOGUE);
  }

  /** A card changed: merged per auction, its id published with the next frame. */
  private queueCard(auctionId: string) {
    this.cards.changed(auctionId);
    this.pacer.schedule(CATALOGUE);
  }

  /**
   * A socket started showing these cards: each is read as committed and handed to `send` (the socket
   * alone) in the order of the reads (card-publisher.ts). An id of no auction sends nothing.
   */
  showCards(auctionIds: readonly string[], send: (data: CardChangedData) => void) {
    this.cards.show(auctionIds, send);
  }

  /** Publishes every room's pending events as one frame each, due or not; a quiet room sends nothing. */
  flush = () => this.publishFrames(true);

  /** Rooms with events waiting for a frame, the catalogue's changes under CATALOGUE. */
  private *waiting(): Iterable<string> {
    yield* this.buffers.keys();
    if (this.catalogue.size > 0 || this.cards.pending) yield CATALOGUE;
  }

  /** Publishes the pending rooms (all, or those whose interval has passed) and the catalogue's changes. */
  private publishFrames(all: boolean) {
    const turn = this.pacer.begin(all);
    const catalogue = (this.catalogue.size > 0 || this.cards.pending) && turn.due(CATALOGUE);
    const rooms = [...this.buffers.keys()].filter((room) => turn.due(room));
    if (!catalogue && rooms.length === 0) return this.pacer.wakeFor(this.waiting());
    this.pacer.publishing(turn, all);
    if (catalogue) this.publishCatalogue(turn);
    if (rooms.length > 0) {
      const serverTime = this.serverTime();
      const frames = rooms.map((room): Frame => {
        const events = this.buffers.get(room)!.list();
        this.buffers.delete(room);
        this.pacer.published(room, turn);
        return { room, server_time: serverTime, events };
      });
      for (const frame of frames) this.relay.publish({ kind: 'frame', frame, json: JSON.stringify(frame) });
    }
    this.pacer.end(turn, this.waiting());
  }

  private publishCatalogue(turn: Turn) {
    this.pacer.published(CATALOGUE, turn);
    for (const [auctionId, change] of this.catalogue) {
      const announced = this.announceCatalogue(auctionId, change, this.serverTime()).catch(this.opts.onError);
      this.announcing.add(announced);
      void announced.finally(() => this.announcing.delete(announced));
    }
    this.catalogue.clear();
    if (this.cards.pending) this.relay.publish({ kind: 'cards', auctionIds: this.cards.take() });
  }

  /** The frame interval now (ms), for tests and diagnostics. */
  get frameInterval() {
    return this.pacer.current;
  }

  /** What any process published, to this process's sockets. */
  private readonly deliver = (msg: Relayed, fromSelf: boolean) => {
    switch (msg.kind) {
      case 'frame': {
        this.watcherCounts.heard(msg.frame);
        const fresh = this.gate.fresh(msg.frame, msg.json);
        if (fresh) this.relayed.deliver(fresh.frame, fresh.json);
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
        this.cards.published(msg.auctionIds);
        return;
      case 'disconnect':
        if (!fromSelf) for (const listener of this.foreignRevocations) listener(msg.role, msg.id);
        this.sessions.revoke(msg.role, msg.id, msg.below);
        return;
    }
  };

  private fanOut(frame: Frame, json: string) {
    const slices: Array<() => void> = [];
    for (const t of this.transports) {
      const n = t.roomSize(frame.room);
      this.counts.frames[t.name] += n;
      this.counts.frameBytes[t.name] += n * json.length;
      slices.push(...t.frameSlices(frame, json));
    }
    this.fanout.write(slices);
  }

  /** The watchers of an auction over every process (this process's own if the tally cannot answer now). */
  watchers(auctionId: string): Promise<number> {
    return this.watcherCounts.watchers(auctionId);
  }

  /** Tells an auction room how many watch it now (over every process); resolves with that count. */
  watchersChanged(auctionId: string): Promise<number> {
    return this.watcherCounts.changed(auctionId);
  }

  /** Closes the account's sockets here at once (even with Redis away: the relay delivers here first) and everywhere. */
  disconnectAccount(role: 'user' | 'admin', id: number, below = Infinity) {
    this.relay.publish({ kind: 'disconnect', role, id, below });
  }

  /** Publishes what is pending, writes what is queued and closes this process's sockets (server closing). */
  closeSockets() {
    this.watcherCounts.stop();
    this.flush();
    // Its sockets are closing: no card is read for them any more (the changes were published above).
    this.cards.stop();
    this.relayed.releaseAll();
    // Whatever is still queued goes out now, before the sockets close.
    this.fanout.drain();
    for (const t of this.transports) t.close();
  }

  /**
   * After the last request has finished: publishes what those requests committed (other processes'
   * watchers need it), then leaves the tally and the relay.
   */
  async close() {
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.closeSockets();
    await Promise.allSettled([...this.announcing, this.cards.settled()]);
    this.gate.close();
    await this.tally.close();
    await this.relay.close();
  }
}
