/** The version gate alone (version-gate.ts): older product versions are dropped, admin rooms wait for a missing one. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Frame, RoomEvent } from '@auction/shared';
import { GAP_WAIT_MS, VersionGate } from './version-gate.js';

const bid = (product: string, version: number): RoomEvent => ({
  event: 'bid:placed',
  data: {
    auction_id: 'A', product_id: product, bid_id: version, highest_bid: version * 100, bid_count: version, version, bidder: 'a***e',
    amount: version * 100, timestamp: '', min_next_bid: 0, reserve_met: null, buy_now_available: false, auto: false, server_time: '',
  },
});
const ended: RoomEvent = { event: 'auction:ended', data: { auction_id: 'A', server_time: '' } };
const frame = (room: string, events: RoomEvent[]): Frame => ({ room, server_time: 't', events });
const versions = (f: { frame: Frame } | null) => f?.frame.events.map((e) => ('version' in e.data ? e.data.version : e.event)) ?? null;

afterEach(() => { vi.useRealTimers(); });

describe('the version gate', () => {
  it('keeps a newer version of a lot and drops an older or equal one, per room and lot', () => {
    const gate = new VersionGate(() => undefined, () => 'now');
    const f = frame('auction:A', [bid('P', 3)]);
    const first = gate.fresh(f, 'json');
    // Nothing dropped: the frame and its serialisation are handed on as they are.
    expect(first).toEqual({ frame: f, json: 'json' });
    expect(versions(gate.fresh(frame('auction:A', [bid('P', 2), bid('Q', 1), ended, bid('P', 3)]), '{}'))).toEqual([1, 'auction:ended']);
    expect(gate.fresh(frame('auction:A', [bid('P', 3)]), '{}')).toBeNull();
    expect(versions(gate.fresh(frame('auction:A', [bid('P', 4)]), '{}'))).toEqual([4]);
    // Another room has its own memory.
    expect(versions(gate.fresh(frame('auction:B', [bid('P', 1)]), '{}'))).toEqual([1]);
  });

  it('holds an admin room\'s event that skips a version until the missing one comes, then sends both in order', () => {
    const gate = new VersionGate(() => undefined, () => 'now');
    expect(versions(gate.fresh(frame('admin:1', [bid('P', 1)]), '{}'))).toEqual([1]);
    expect(gate.fresh(frame('admin:1', [bid('P', 3)]), '{}')).toBeNull();
    expect(versions(gate.fresh(frame('admin:1', [bid('P', 2)]), '{}'))).toEqual([2, 3]);
    gate.close();
  });

  it('goes on from the next version once the missing one has not come within GAP_WAIT_MS', () => {
    vi.useFakeTimers();
    const late: Frame[] = [];
    const gate = new VersionGate((f) => late.push(f), () => 'now');
    gate.fresh(frame('feed:A', [bid('P', 1)]), '{}');
    expect(gate.fresh(frame('feed:A', [bid('P', 4), bid('P', 3)]), '{}')).toBeNull();
    vi.advanceTimersByTime(GAP_WAIT_MS - 1);
    expect(late).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(late.map((f) => versions({ frame: f }))).toEqual([[3, 4]]);
    expect(late[0]!.server_time).toBe('now');
    // The gap is closed: version 2 is now older than what the room has seen.
    expect(gate.fresh(frame('feed:A', [bid('P', 2)]), '{}')).toBeNull();
  });
});
