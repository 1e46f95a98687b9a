/**
 * The version gate (docs/live-protocol.md#versions-and-applying-events): product events carry
 * versions; the gate remembers the newest delivered per room and product and drops an older or equal
 * one, so every socket sees a product's versions strictly increase even when two processes' frames
 * interleave. Admin and `feed:` rooms get every event in version order instead.
 */
import type { Frame, RoomEvent } from '@auction/shared';

/** How long an admin room's event that skips a version waits for the missing one (another process's frame). */
export const GAP_WAIT_MS = 250;
/** How long a settled auction room's versions are remembered (late frames of other processes are dropped). */
const FORGET_SETTLED_MS = 10_000;

type VersionedEvent = Extract<RoomEvent, { data: { version: number } }>;

export class VersionGate {
  /** Per room, per product: the newest version delivered to this process's sockets. */
  private readonly delivered = new Map<string, Map<string, number>>();
  /** Admin rooms: per room and lot, events that arrived ahead of a missing version. */
  private readonly gaps = new Map<string, { events: Map<number, RoomEvent>; timer: NodeJS.Timeout }>();

  /**
   * `late` gets the events a gap held back once the gate stops waiting for the missing version (a
   * frame of its own, stamped `serverTime()`).
   */
  constructor(private readonly late: (frame: Frame, json: string) => void, private readonly serverTime: () => string) {}

  /**
   * The frame as this process's sockets of the room may see it; null when nothing is left. A product
   * event older than (or as old as) one already delivered to the room is dropped: watchers get state,
   * and the newer event carries it. Admin rooms get every event (docs/live-protocol.md#frames) in version order: an event
   * that skips a version waits (GAP_WAIT_MS at most) for the missing one, which another process's
   * frame is still carrying. Serialised again only when something was dropped or held back.
   */
  fresh(frame: Frame, json: string): { frame: Frame; json: string } | null {
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

  /** Stops waiting for missing versions (the hub is closing). */
  close() {
    for (const g of this.gaps.values()) clearTimeout(g.timer);
    this.gaps.clear();
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
    this.late(frame, JSON.stringify(frame));
  }
}
