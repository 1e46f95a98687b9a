/**
 * How many watch an auction, over every process (the tally: watchers.ts), and `auction:watchers` to
 * its room when that changes. With several processes the totals this process announced are
 * re-checked every HEARTBEAT_MS: another process's sockets may have gone (it was killed).
 */
import { auctionRoom, feedRoom, type Frame, type RoomEvent } from '@auction/shared';
import { HEARTBEAT_MS, type WatcherTally } from './watchers.js';
import { roomSize, type Transport } from './transport.js';

export interface WatcherCountsOptions {
  tally: WatcherTally;
  /** This process's transports (the hub's list: attached later ones count too). */
  transports: readonly Transport[];
  /** Whether other processes watch too (then totals are swept now and then). */
  shared: boolean;
  /** Queues a room event for the room's next frame. */
  enqueue: (room: string, event: RoomEvent) => void;
  serverTime: () => string;
  onError: (err: unknown) => void;
}

export class WatcherCounts {
  /** Auctions this process has watchers of, with the total it last announced (re-checked by `sweep`). */
  private readonly announced = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout | null = null;
  private sweeping = false;

  constructor(private readonly opts: WatcherCountsOptions) {
    if (opts.shared) {
      this.sweeper = setInterval(() => { this.sweep().catch(opts.onError); }, HEARTBEAT_MS);
      this.sweeper.unref();
    }
  }

  /** A frame any process published: a count another process announced is the one the sweep compares with. */
  heard(frame: Frame) {
    for (const e of frame.events) {
      if (e.event === 'auction:watchers' && this.announced.has(e.data.auction_id)) this.announced.set(e.data.auction_id, e.data.watchers);
    }
  }

  /** The watchers of an auction over every process (this process's own if the tally cannot answer now). */
  async watchers(auctionId: string): Promise<number> {
    const local = this.local(auctionId);
    try {
      return (await this.opts.tally.report(auctionId, local)) ?? local;
    } catch (err) {
      this.opts.onError(err);
      return local;
    }
  }

  /** Tells an auction room how many watch it now (over every process); resolves with that count. */
  async changed(auctionId: string): Promise<number> {
    const total = await this.watchers(auctionId);
    if (this.local(auctionId) > 0) this.announced.set(auctionId, total);
    else this.announced.delete(auctionId);
    this.opts.enqueue(auctionRoom(auctionId), {
      event: 'auction:watchers',
      data: { auction_id: auctionId, watchers: total, server_time: this.opts.serverTime() },
    });
    return total;
  }

  /** Stops re-checking (the sockets are closing). */
  stop() {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** This process's own sockets watching an auction. */
  private local(auctionId: string): number {
    return roomSize(this.opts.transports, auctionRoom(auctionId)) + roomSize(this.opts.transports, feedRoom(auctionId));
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
      if (this.local(auctionId) === 0) {
        this.announced.delete(auctionId);
        continue;
      }
      const total = await this.watchers(auctionId);
      if (total !== last) await this.changed(auctionId);
    }
  }
}
