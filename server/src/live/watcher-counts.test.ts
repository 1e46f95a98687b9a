/** The watcher tally's use by the hub (watcher-counts.ts): this process's sockets counted, the total announced to the room. */
import { describe, expect, it } from 'vitest';
import type { RoomEvent } from '@auction/shared';
import type { Transport } from './transport.js';
import type { WatcherTally } from './watchers.js';
import { WatcherCounts } from './watcher-counts.js';

function setUp(rooms: Record<string, number>, tally: WatcherTally) {
  const queued: Array<{ room: string; event: RoomEvent }> = [];
  const errors: unknown[] = [];
  const transport: Transport = {
    name: 'websocket', socketCount: () => 0, frameSlices: () => [], sendToUser: () => undefined, sendToAll: () => undefined,
    cardSlices: () => [], roomSize: (room) => rooms[room] ?? 0, close: () => undefined,
  };
  const counts = new WatcherCounts({
    tally, transports: [transport, transport], shared: false, enqueue: (room, event) => queued.push({ room, event }), serverTime: () => 'now',
    onError: (err) => errors.push(err),
  });
  return { counts, queued, errors };
}

describe('the watcher counts', () => {
  it('reports this process\'s sockets of the auction and feed rooms, and announces the total over every process', async () => {
    const reported: Array<[string, number]> = [];
    const tally: WatcherTally = { report: (id, local) => { reported.push([id, local]); return Promise.resolve(local + 10); }, close: () => Promise.resolve() };
    const { counts, queued } = setUp({ 'auction:A': 2, 'feed:A': 1 }, tally);
    expect(await counts.changed('A')).toBe(16);
    // Two transports, each with 2 + 1 sockets.
    expect(reported).toEqual([['A', 6]]);
    expect(queued).toEqual([{ room: 'auction:A', event: { event: 'auction:watchers', data: { auction_id: 'A', watchers: 16, server_time: 'now' } } }]);
  });

  it('answers this process\'s own count when the tally cannot answer or fails', async () => {
    const unknown = setUp({ 'auction:A': 1 }, { report: () => Promise.resolve(null), close: () => Promise.resolve() });
    expect(await unknown.counts.watchers('A')).toBe(2);
    const failing = setUp({ 'auction:A': 1 }, { report: () => Promise.reject(new Error('Redis away')), close: () => Promise.resolve() });
    expect(await failing.counts.watchers('A')).toBe(2);
    expect(failing.errors).toHaveLength(1);
  });
});
