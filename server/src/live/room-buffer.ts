/** How a frame merges a room's events (docs/live-protocol.md#frames). */
import type { RoomEvent, RoomEventName } from '@auction/shared';

/**
 * How a frame merges each room event (docs/live-protocol.md#frames): `lot`, auction rooms keep only a
 * lot's newest (it carries the lot's whole state); `count`, one watcher count per frame, the latest;
 * every other event is kept, every one, in order. Admin and `feed:` rooms merge only counts.
 */
const MERGE = {
  'bid:placed': 'lot',
  'bid:rolledback': 'lot',
  'auction:watchers': 'count',
} as const satisfies Partial<Record<RoomEventName, 'lot' | 'count'>>;

type MergedBy<M> = { [K in keyof typeof MERGE]: (typeof MERGE)[K] extends M ? K : never }[keyof typeof MERGE];
const mergeOf = (e: RoomEvent): 'lot' | 'count' | undefined => (MERGE as Partial<Record<RoomEventName, 'lot' | 'count'>>)[e.event];
const mergesByLot = (e: RoomEvent): e is Extract<RoomEvent, { event: MergedBy<'lot'> }> => mergeOf(e) === 'lot';

/**
 * A room's events waiting for the next frame (or, with several processes, frames held for the room's
 * next turn). Merging bids (auction rooms: watchers get state, docs/live-protocol.md#frames), a product's newer
 * `bid:placed` / `bid:rolledback` replaces its older one, which leaves a hole (null): each carries the
 * product's whole state, so the newest is all a watcher needs. Merging counts, a newer
 * `auction:watchers` replaces the older one (at most one per frame, the latest).
 */
export class RoomBuffer {
  private readonly events: Array<RoomEvent | null> = [];
  /** Per product, the index of its pending bid event (when merging bids). */
  private readonly bids: Map<string, number> | null;
  private watchers = -1;

  constructor(mergeBids: boolean, private readonly mergeCounts: boolean) {
    this.bids = mergeBids ? new Map() : null;
  }

  add(event: RoomEvent) {
    if (this.mergeCounts && mergeOf(event) === 'count') {
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
