/**
 * The live hub: one source of events, any number of transports (socket.io, plain WebSocket).
 * Room events are collected per room and flushed as one `frame` every LIVE_FRAME_MS, serialised once
 * per room; personal and catalogue events go out at once (DESIGN §6).
 *
 * Publishing and delivering are two halves joined by a relay (relay.ts): this process publishes what
 * its own commits caused, and delivers to its own sockets whatever any process published (with one
 * process, the relay hands each message straight back). Product events carry versions; the hub
 * remembers the newest it delivered per room and product and drops an older or equal one, so every
 * socket sees a product's versions strictly increase even when two processes' frames interleave.
 *
 * Fan-out is paced: a transport hands back a frame's delivery as a few slices of its sockets, and the
 * hub writes them about a millisecond of work at a time, letting HTTP requests in between. One
 * frame to a thousand sockets is ~12 ms of socket writes; in one piece it would stall every bid that
 * arrives meanwhile. Slices run strictly in order, so frames never overtake each other.
 */
import { auctionRoom, type Frame, type PersonalEventMap, type RoomEvent } from '@auction/shared';
import type { Reads } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { liveAuction } from '../presenters/live.js';
import { deliveriesOf } from './deliveries.js';
import { HEARTBEAT_MS, localTally, type WatcherTally } from './watchers.js';
import { LocalRelay, type Relay, type Relayed } from './relay.js';

export interface Transport {
  /**
   * The deliveries of one frame to its room, as slices of the room's sockets, each a call that writes
   * to one slice. `json` is the frame serialised once for every receiver of the room.
   */
  frameSlices(frame: Frame, json: string): Array<() => void>;
  sendToUser<K extends keyof PersonalEventMap>(userId: number, event: K, data: PersonalEventMap[K]): void;
  sendToAll<K extends keyof PersonalEventMap>(event: K, data: PersonalEventMap[K]): void;
  /** Sockets of this transport in a room. */
  roomSize(room: string): number;
  disconnectUser(userId: number): void;
  close(): void;
}

const PUMP_BUDGET_MS = 1;

export interface LiveHubOptions {
  reads: Reads;
  now: () => number;
  frameMs: number;
  onError: (err: unknown) => void;
  /** Several processes: Redis (relay.ts). Default: this process only. */
  relay?: Relay;
  /** Watcher counts over every process (watchers.ts). Default: this process's own. */
  tally?: WatcherTally;
}

export class LiveHub {
  private readonly transports: Transport[] = [];
  private readonly buffers = new Map<string, RoomEvent[]>();
  private timer: NodeJS.Timeout | null = null;
  /** Slice writes not yet done, oldest first. */
  private readonly fanout: Array<() => void> = [];
  private pumping = false;
  readonly relay: Relay;
  private readonly tally: WatcherTally;
  /** Per room, per product: the newest version delivered to this process's sockets. */
  private readonly delivered = new Map<string, Map<string, number>>();
  /** Auctions this process has watchers of, with the total it last announced (re-checked by `sweep`). */
  private readonly announced = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout | null = null;
  private readonly foreignCatalogue = new Set<() => void>();
  /** Relayed frames waiting for their room's next turn, merged (deliverFrame). */
  private readonly held = new Map<string, { events: RoomEvent[]; serverTime: string; timer: NodeJS.Timeout }>();
  /** When this process last wrote a frame to each room's sockets (performance.now()). */
  private readonly lastFrameAt = new Map<string, number>();

  constructor(private readonly opts: LiveHubOptions) {
    this.relay = opts.relay ?? new LocalRelay();
    this.tally = opts.tally ?? localTally;
    this.relay.onMessage(this.deliver);
    if (this.relay.kind !== 'local') {
      // Another process's sockets may have gone (it was killed): totals are re-checked now and then.
      this.sweeper = setInterval(() => { this.sweep().catch(opts.onError); }, HEARTBEAT_MS);
      this.sweeper.unref();
    }
  }

  attach(transport: Transport) {
    this.transports.push(transport);
  }

  /** Calls `listener` when another process announces a catalogue change (the scheduler re-reads). */
  onForeignCatalogue(listener: () => void): () => void {
    this.foreignCatalogue.add(listener);
    return () => this.foreignCatalogue.delete(listener);
  }

  serverTime() {
    return new Date(this.opts.now()).toISOString();
  }

  /** Committed domain events, in commit order. */
  publish = (events: readonly DomainEvent[]) => {
    const serverTime = this.serverTime();
    for (const e of events) {
      for (const d of deliveriesOf(e, serverTime)) {
        if (d.to === 'room') this.enqueue(d.room, d.event);
        else if (d.to === 'user') this.relay.publish({ kind: 'user', userId: d.userId, message: d.event });
        else if (d.to === 'disconnect') this.relay.publish({ kind: 'disconnect', userId: d.userId });
        else this.announceCatalogue(d.auctionId, d.change, serverTime).catch(this.opts.onError);
      }
    }
  };

  /** Reads the auction as committed (after the commit that changed it) and tells every socket. */
  private async announceCatalogue(auctionId: string, change: 'auction:created' | 'auction:updated' | 'auction:deleted', serverTime: string) {
    const view = change === 'auction:deleted' ? null : await this.opts.reads.auction(auctionId);
    if (!view) {
      this.relay.publish({ kind: 'all', message: { event: 'auction:deleted', data: { id: auctionId, server_time: serverTime } } });
      return;
    }
    this.relay.publish({ kind: 'all', message: { event: change, data: liveAuction(view, this.opts.now(), serverTime) } });
  }

  enqueue(room: string, event: RoomEvent) {
    const buffer = this.buffers.get(room);
    if (buffer) buffer.push(event);
    else this.buffers.set(room, [event]);
    if (this.opts.frameMs === 0) this.flush();
    else this.timer ??= setTimeout(this.flush, this.opts.frameMs);
  }

  /** Publishes every room's pending events as one frame each; a quiet room sends nothing. */
  flush = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffers.size === 0) return;
    const serverTime = this.serverTime();
    const frames = [...this.buffers].map(([room, events]): Frame => ({ room, server_time: serverTime, events }));
    this.buffers.clear();
    for (const frame of frames) this.relay.publish({ kind: 'frame', frame, json: JSON.stringify(frame) });
  };

  /** What any process published, to this process's sockets. */
  private readonly deliver = (msg: Relayed, fromSelf: boolean) => {
    switch (msg.kind) {
      case 'frame': {
        const fresh = this.fresh(msg.frame, msg.json);
        if (fresh) this.deliverFrame(fresh.frame, fresh.json);
        return;
      }
      case 'user':
        for (const t of this.transports) t.sendToUser(msg.userId, msg.message.event, msg.message.data);
        return;
      case 'all':
        for (const t of this.transports) t.sendToAll(msg.message.event, msg.message.data);
        if (!fromSelf) for (const listener of this.foreignCatalogue) listener();
        return;
      case 'disconnect':
        for (const t of this.transports) t.disconnectUser(msg.userId);
        return;
    }
  };

  /**
   * Several processes each publish a frame per room every LIVE_FRAME_MS, so a room could receive N
   * frames in that time; written as they come, every socket's cost would grow with the number of
   * processes and nothing would scale. So this process writes at most one frame per room per
   * LIVE_FRAME_MS to its sockets: a frame arriving sooner after the last one waits, merged with any
   * others, until that time has passed (the first after a quiet spell goes out at once). One process
   * (its own frames already paced) writes each at once.
   */
  private deliverFrame(frame: Frame, json: string) {
    const { frameMs } = this.opts;
    if (this.relay.kind === 'local' || frameMs === 0) return this.fanOut(frame, json);
    const room = frame.room;
    const held = this.held.get(room);
    if (held) {
      held.events.push(...frame.events);
      held.serverTime = frame.server_time;
      return;
    }
    const wait = (this.lastFrameAt.get(room) ?? -Infinity) + frameMs - performance.now();
    if (wait <= 0) {
      this.lastFrameAt.set(room, performance.now());
      return this.fanOut(frame, json);
    }
    const entry = { events: [...frame.events], serverTime: frame.server_time, timer: setTimeout(() => this.release(room), wait) };
    this.held.set(room, entry);
  }

  /** Writes a room's held frames as one. */
  private release(room: string) {
    const held = this.held.get(room);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(room);
    this.lastFrameAt.set(room, performance.now());
    const frame: Frame = { room, server_time: held.serverTime, events: held.events };
    this.fanOut(frame, JSON.stringify(frame));
  }

  private fanOut(frame: Frame, json: string) {
    for (const t of this.transports) this.fanout.push(...t.frameSlices(frame, json));
    this.pump();
  }

  /**
   * The frame without product events older than (or as old as) what this process already delivered
   * to the room; null when nothing is left. Serialised again only when something was dropped.
   */
  private fresh(frame: Frame, json: string): { frame: Frame; json: string } | null {
    let seen = this.delivered.get(frame.room);
    const events = frame.events.filter((e) => {
      if (!('version' in e.data)) return true;
      seen ??= new Map();
      const { product_id: product, version } = e.data;
      if (version <= (seen.get(product) ?? -1)) return false;
      seen.set(product, version);
      return true;
    });
    if (seen && !this.delivered.has(frame.room)) this.delivered.set(frame.room, seen);
    // A settled auction's products change no more in this room.
    if (frame.events.some((e) => e.event === 'auction:settled') && frame.room.startsWith('auction:')) this.delivered.delete(frame.room);
    if (events.length === frame.events.length) return { frame, json };
    if (events.length === 0) return null;
    const kept = { ...frame, events };
    return { frame: kept, json: JSON.stringify(kept) };
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
    return this.transports.reduce((n, t) => n + t.roomSize(room), 0);
  }

  /** The watchers of an auction over every process (this process's own if the tally cannot answer). */
  async watchers(auctionId: string): Promise<number> {
    const local = this.localWatchers(auctionId);
    try {
      return await this.tally.report(auctionId, local);
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
    for (const [auctionId, last] of [...this.announced]) {
      if (this.localWatchers(auctionId) === 0) {
        this.announced.delete(auctionId);
        continue;
      }
      const total = await this.watchers(auctionId);
      if (total !== last) await this.watchersChanged(auctionId);
    }
  }

  disconnectUser(userId: number) {
    this.relay.publish({ kind: 'disconnect', userId });
  }

  /** Publishes what is pending, writes what is queued and closes this process's sockets (server closing). */
  closeSockets() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.flush();
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
    this.closeSockets();
    await this.tally.close();
    await this.relay.close();
  }
}
