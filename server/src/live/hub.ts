/**
 * The live hub: one source of events, any number of transports (socket.io, plain WebSocket).
 * Room events are collected per room and flushed as one `frame` every LIVE_FRAME_MS, serialised once
 * per room; personal and catalogue events go out at once (DESIGN §6).
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

export class LiveHub {
  private readonly transports: Transport[] = [];
  private readonly buffers = new Map<string, RoomEvent[]>();
  private timer: NodeJS.Timeout | null = null;
  /** Slice writes not yet done, oldest first. */
  private readonly fanout: Array<() => void> = [];
  private pumping = false;

  constructor(private readonly opts: { reads: Reads; now: () => number; frameMs: number; onError: (err: unknown) => void }) {}

  attach(transport: Transport) {
    this.transports.push(transport);
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
        else if (d.to === 'user') for (const t of this.transports) t.sendToUser(d.userId, d.event.event, d.event.data);
        else if (d.to === 'disconnect') this.disconnectUser(d.userId);
        else this.announceCatalogue(d.auctionId, d.change, serverTime).catch(this.opts.onError);
      }
    }
  };

  /** Reads the auction as committed (after the commit that changed it) and tells every socket. */
  private async announceCatalogue(auctionId: string, change: 'auction:created' | 'auction:updated' | 'auction:deleted', serverTime: string) {
    const view = change === 'auction:deleted' ? null : await this.opts.reads.auction(auctionId);
    if (!view) {
      for (const t of this.transports) t.sendToAll('auction:deleted', { id: auctionId, server_time: serverTime });
      return;
    }
    const data = liveAuction(view, this.opts.now(), serverTime);
    for (const t of this.transports) t.sendToAll(change, data);
  }

  enqueue(room: string, event: RoomEvent) {
    const buffer = this.buffers.get(room);
    if (buffer) buffer.push(event);
    else this.buffers.set(room, [event]);
    if (this.opts.frameMs === 0) this.flush();
    else this.timer ??= setTimeout(this.flush, this.opts.frameMs);
  }

  /** Sends every room's pending events as one frame each; a quiet room sends nothing. */
  flush = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffers.size === 0) return;
    const serverTime = this.serverTime();
    for (const [room, events] of this.buffers) {
      const frame: Frame = { room, server_time: serverTime, events };
      const json = JSON.stringify(frame);
      for (const t of this.transports) this.fanout.push(...t.frameSlices(frame, json));
    }
    this.buffers.clear();
    this.pump();
  };

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

  watchers(auctionId: string): number {
    const room = auctionRoom(auctionId);
    return this.transports.reduce((n, t) => n + t.roomSize(room), 0);
  }

  /** Tells an auction room how many watch it now. */
  watchersChanged(auctionId: string) {
    this.enqueue(auctionRoom(auctionId), {
      event: 'auction:watchers',
      data: { auction_id: auctionId, watchers: this.watchers(auctionId), server_time: this.serverTime() },
    });
  }

  disconnectUser(userId: number) {
    for (const t of this.transports) t.disconnectUser(userId);
  }

  close() {
    this.flush();
    // Whatever is still queued goes out now, before the sockets close.
    for (const send of this.fanout.splice(0)) send();
    for (const t of this.transports) t.close();
  }
}
