/**
 * The hub's two halves without a server: what it publishes, what it delivers (versions never go
 * back), and the Redis relay and watcher tally between several hubs (docs/live-protocol.md#several-processes).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Frame, RoomEvent } from '@auction/shared';
import type { Reads } from '../db/index.js';
import { redisAvailable, TEST_REDIS_URL } from '../db/testing.js';
import { eventually } from '../test/live-helpers.js';
import { GAP_WAIT_MS, LiveHub, MAX_FRAME_STRETCH, RESYNC_DELAY_MS, type Transport } from './hub.js';
import { decode, LocalRelay, RedisRelay, type Relay, type Relayed } from './relay.js';
import { HEARTBEAT_TTL_MS, RedisTally } from './watchers.js';

/** A transport that records the frames and personal events it is asked to send. */
function recorder(roomSizes: Record<string, number> = {}) {
  const frames: Frame[] = [];
  const jsons: string[] = [];
  const personal: { to: number | 'all'; event: string }[] = [];
  const disconnected: string[] = [];
  const transport: Transport = {
    name: 'socketio',
    socketCount: () => 0,
    frameSlices: (frame, json) => [() => { frames.push(frame); jsons.push(json); }],
    sendToUser: (userId, event) => { personal.push({ to: userId, event }); },
    sendToAll: (event) => { personal.push({ to: 'all', event }); },
    cardSlices: () => [],
    roomSize: (room) => roomSizes[room] ?? 0,
    close: () => undefined,
  };
  return { transport, frames, jsons, personal, disconnected, roomSizes };
}

const noReads = {} as Reads;
const errors: unknown[] = [];
const onError = (err: unknown) => { errors.push(err); };

const placed = (product: string, version: number, highest: number): RoomEvent => ({
  event: 'bid:placed',
  data: {
    auction_id: 'A', product_id: product, bid_id: version, highest_bid: highest, bid_count: version, version, bidder: 'a***e', amount: highest, timestamp: '', server_time: '',
    min_next_bid: highest + 1, reserve_met: null, buy_now_available: false, auto: false,
  },
});
const frameOf = (room: string, ...events: RoomEvent[]): Relayed => {
  const frame: Frame = { room, server_time: '', events };
  return { kind: 'frame', frame, json: JSON.stringify(frame) };
};

/**
 * A relay whose other processes' messages the test delivers by hand, as they would arrive; what this
 * process publishes is recorded and, as every relay does, delivered here at once.
 */
class HandRelay implements Relay {
  readonly kind = 'redis' as const;
  handler: ((msg: Relayed, fromSelf: boolean) => void) | null = null;
  published: Relayed[] = [];
  publish(msg: Relayed) { this.published.push(msg); this.handler?.(msg, true); }
  onMessage(handler: (msg: Relayed, fromSelf: boolean) => void) { this.handler = handler; }
  gapListener: (() => void) | null = null;
  onGap(listener: () => void) { this.gapListener = listener; }
  check() { return Promise.resolve('ok' as const); }
  close() { return Promise.resolve(); }
  arrive(msg: Relayed, fromSelf = false) { this.handler!(msg, fromSelf); }
}

const hubs: LiveHub[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
  errors.length = 0;
});

describe('frames: a quiet room costs no latency, a busy one is merged', () => {
  const nextTurn = () => new Promise((r) => setImmediate(r));
  const framesOf = (relay: HandRelay, room: string) => relay.published.filter((m): m is Extract<Relayed, { kind: 'frame' }> => m.kind === 'frame' && m.frame.room === room);
  const versions = (relay: HandRelay, room: string) => framesOf(relay, room).map((m) => m.frame.events.map((e) => (e.data as { version: number }).version));

  it('the first event of a quiet room goes out on the next turn; what follows within the interval waits for it, merged', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 400, onError, relay, utilization: () => 0 });
    hubs.push(hub);
    hub.enqueue('auction:A', placed('P1', 1, 10));
    expect(framesOf(relay, 'auction:A')).toEqual([]);
    await nextTurn();
    expect(versions(relay, 'auction:A')).toEqual([[1]]);
    const firstAt = performance.now();

    // Two more within the interval: one frame, the newest state, once the interval since the first has passed.
    hub.enqueue('auction:A', placed('P1', 2, 20));
    hub.enqueue('auction:A', placed('P1', 3, 30));
    // Another room, quiet until now, is not held by A's interval.
    hub.enqueue('auction:B', placed('P9', 1, 5));
    await nextTurn();
    expect(versions(relay, 'auction:B')).toEqual([[1]]);
    expect(versions(relay, 'auction:A')).toEqual([[1]]);
    await eventually(() => expect(versions(relay, 'auction:A')).toEqual([[1], [3]]), 2000, 5);
    const waited = performance.now() - firstAt;
    expect(waited).toBeGreaterThanOrEqual(399);
    expect(waited).toBeLessThan(400 + 200);

    // Quiet for longer than the interval: the next event goes out at once again.
    await new Promise((r) => setTimeout(r, 450));
    hub.enqueue('auction:A', placed('P1', 4, 40));
    await nextTurn();
    expect(versions(relay, 'auction:A')).toEqual([[1], [3], [4]]);
  });

  it('catalogue changes are paced the same way: the first at once, the rest merged per auction', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 400, onError, relay, utilization: () => 0 });
    hubs.push(hub);
    const deleted = (auctionId: string) => ({ type: 'auction:deleted' as const, auctionId, ownerId: 1 });
    const announced = () => relay.published.filter((m) => m.kind === 'all').length;
    hub.publish([deleted('X')]);
    await eventually(() => expect(announced()).toBe(1), 200, 2);
    hub.publish([deleted('Y'), deleted('Y')]);
    await new Promise((r) => setTimeout(r, 150));
    expect(announced()).toBe(1);
    await eventually(() => expect(announced()).toBe(2), 1000, 5);
  });

  it('under saturation an event waits at most the stretched interval (MAX_FRAME_STRETCH × LIVE_FRAME_MS)', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 20, onError, relay, utilization: () => 0.99 });
    hubs.push(hub);
    const sent: number[] = [];
    const waits: number[] = [];
    const published = () => framesOf(relay, 'auction:A').length;
    // A steady stream, one event every 5 ms, for 1.5 s: frames stretch to the cap and stay there.
    let version = 0;
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      hub.enqueue('auction:A', placed('P1', ++version, version));
      sent.push(performance.now());
      const before = published();
      await new Promise((r) => setTimeout(r, 5));
      if (published() > before) {
        // Every event enqueued since the last frame went out in this one: the oldest waited longest.
        const oldest = sent.shift()!;
        waits.push(performance.now() - oldest);
        sent.length = 0;
      }
    }
    expect(hub.frameInterval).toBe(20 * MAX_FRAME_STRETCH);
    expect(waits.length).toBeGreaterThan(3);
    // The timer's own lateness on a loaded machine aside, no event waited past the cap.
    expect(Math.max(...waits)).toBeLessThan(20 * MAX_FRAME_STRETCH + 60);
  });
});

describe('delivery: a product\'s versions only go forward on every socket', () => {
  it('drops product events older than or as old as what this process delivered, per room and product', () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    relay.arrive(frameOf('auction:A', placed('P1', 3, 30)));
    // Another process's older frame arrives late: nothing of it is delivered.
    relay.arrive(frameOf('auction:A', placed('P1', 2, 20)));
    relay.arrive(frameOf('auction:A', placed('P1', 3, 30)));
    // A mixed frame keeps only what is new, and is serialised again without the stale event.
    relay.arrive(frameOf('auction:A', placed('P1', 1, 10), placed('P2', 1, 15), placed('P1', 4, 40)));
    // The admin room has its own record: the same versions reach it too.
    relay.arrive(frameOf('admin:7', placed('P1', 3, 30)));
    expect(rec.frames.map((f) => [f.room, f.events.map((e) => `${(e.data as { product_id: string }).product_id}@${(e.data as { version: number }).version}`)])).toEqual([
      ['auction:A', ['P1@3']],
      ['auction:A', ['P2@1', 'P1@4']],
      ['admin:7', ['P1@3']],
    ]);
    expect(JSON.parse(rec.jsons[1]!)).toEqual(rec.frames[1]);
  });

  it('admin rooms get every event, in version order: one that skips a version waits for the missing one, or GAP_WAIT_MS', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    const got = () => rec.frames.flatMap((f) => f.events).map((e) => `${(e.data as { product_id: string }).product_id}@${(e.data as { version: number }).version}`);
    relay.arrive(frameOf('admin:7', placed('P1', 1, 10)));
    // Process B's v3 arrives before process A's v2: it waits, then both go out in order.
    relay.arrive(frameOf('admin:7', placed('P1', 3, 30), placed('P2', 1, 5)));
    expect(got()).toEqual(['P1@1', 'P2@1']);
    relay.arrive(frameOf('admin:7', placed('P1', 2, 20)));
    expect(got()).toEqual(['P1@1', 'P2@1', 'P1@2', 'P1@3']);
    // A duplicate is dropped; a version whose predecessor never comes goes out after GAP_WAIT_MS.
    relay.arrive(frameOf('admin:7', placed('P1', 3, 30), placed('P1', 5, 50)));
    expect(got()).toHaveLength(4);
    await eventually(() => expect(got()).toEqual(['P1@1', 'P2@1', 'P1@2', 'P1@3', 'P1@5']), GAP_WAIT_MS + 500, 10);
    // The same skip in a watchers' room goes out at once (watchers get state).
    relay.arrive(frameOf('auction:A', placed('P1', 1, 10), placed('P1', 3, 30)));
    expect(rec.frames.at(-1)!.events).toHaveLength(2);
  });

  it('passes events without versions (endings, watcher counts) and tells the scheduler of foreign catalogue changes only', () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    let changes = 0;
    hub.onForeignCatalogue(() => { changes++; });
    const ended: RoomEvent = { event: 'auction:ended', data: { auction_id: 'A', server_time: '' } };
    relay.arrive(frameOf('auction:A', ended));
    relay.arrive(frameOf('auction:A', ended));
    expect(rec.frames).toHaveLength(2);
    const created = { kind: 'all' as const, message: { event: 'auction:deleted' as const, data: { id: 'A', server_time: '' } } };
    relay.arrive(created, true);
    expect(changes).toBe(0);
    relay.arrive(created, false);
    expect(changes).toBe(1);
    relay.arrive({ kind: 'user', userId: 5, message: { event: 'wallet:updated', data: { wallet_balance: 1, server_time: '' } } });
    const closed: string[] = [];
    hub.sessions.add({}, { caller: { role: 'user', id: 5, username: 'u' }, ver: 1, expiresAt: Date.now() + 60_000 }, (why) => { closed.push(why); });
    relay.arrive({ kind: 'disconnect', role: 'user', id: 5, below: Infinity });
    expect(closed).toEqual(['revoked']);
    expect(rec.personal).toEqual([{ to: 'all', event: 'auction:deleted' }, { to: 'all', event: 'auction:deleted' }, { to: 5, event: 'wallet:updated' }]);
  });

  it('after a relay gap: drops the caches kept by relayed news, tells every socket to re-read (once for gaps close together), closes sockets of accounts revoked meanwhile', async () => {
    const relay = new HandRelay();
    const sessions: Record<string, { status: 'active' | 'inactive'; tokenVersion: number }> = { 'user:1': { status: 'active', tokenVersion: 1 }, 'user:2': { status: 'inactive', tokenVersion: 1 }, 'admin:3': { status: 'active', tokenVersion: 5 } };
    const reads = { session: (role: string, id: number) => Promise.resolve(sessions[`${role}:${id}`] ? { username: 'u', isOwner: false, ...sessions[`${role}:${id}`]! } : null) } as unknown as Reads;
    const hub = new LiveHub({ reads, now: Date.now, frameMs: 0, onError, relay });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    const order: string[] = [];
    hub.onForeignCatalogue(() => order.push('catalogue'));
    hub.onRelayGap(() => order.push('gap'));
    const closed: string[] = [];
    const open = (role: 'user' | 'admin', id: number, ver: number) => hub.sessions.add({}, { caller: role === 'user' ? { role, id, username: 'u' } : { role, id, username: 'a', isOwner: false }, ver, expiresAt: Date.now() + 60_000 }, () => { closed.push(`${role}:${id}@${ver}`); });
    open('user', 1, 1);
    open('user', 2, 1);
    open('admin', 3, 4);
    open('admin', 3, 5);
    open('user', 9, 1);
    // This process's subscription is back, and another process says it could not publish: one re-read.
    relay.gapListener!();
    await new Promise((r) => setTimeout(r, RESYNC_DELAY_MS / 2));
    relay.gapListener!();
    expect(rec.personal).toEqual([]);
    await eventually(() => expect(rec.personal).toEqual([{ to: 'all', event: 'live:resync' }]), RESYNC_DELAY_MS * 3, 5);
    expect(order).toEqual(['catalogue', 'gap']);
    // Deactivated (user 2), gone (user 9) and opened with a revoked token (admin 3's older one): closed.
    await eventually(() => expect(closed.sort()).toEqual(['admin:3@4', 'user:2@1', 'user:9@1']));
    // A later gap is a new re-read.
    relay.gapListener!();
    await eventually(() => expect(rec.personal).toHaveLength(2), RESYNC_DELAY_MS * 3, 5);
  });

  it('writes at most one frame per room per LIVE_FRAME_MS to its sockets, merging what several processes sent meanwhile', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 50, onError, relay });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    // Three processes' frames for one room within a few milliseconds, and one for another room.
    relay.arrive(frameOf('auction:A', placed('P1', 1, 10)));
    relay.arrive(frameOf('auction:A', placed('P1', 3, 30)));
    relay.arrive(frameOf('auction:A', placed('P2', 1, 5), placed('P1', 2, 20)));
    relay.arrive(frameOf('auction:B', placed('P9', 1, 10)));
    relay.arrive(frameOf('auction:A', placed('P1', 4, 40)));
    // The first of each room goes out at once; the rest wait for the room's next turn, as one frame
    // with one bid event per product (watchers get state).
    expect(rec.frames.map((f) => f.room)).toEqual(['auction:A', 'auction:B']);
    await eventually(() => expect(rec.frames).toHaveLength(3), 1000, 5);
    const merged = rec.frames[2]!;
    expect(merged.room).toBe('auction:A');
    expect(merged.events.map((e) => `${(e.data as { product_id: string }).product_id}@${(e.data as { version: number }).version}`)).toEqual(['P2@1', 'P1@4']);
    expect(JSON.parse(rec.jsons[2]!)).toEqual(merged);
  });

  it('while its own frames are stretched (saturated), paces other processes\' frames to the same interval', async () => {
    const loads = [0, 0.99, 0.99, 0.99, 0.99];
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 20, onError, relay, utilization: () => loads.shift() ?? 0.99 });
    hubs.push(hub);
    const rec = recorder();
    hub.attach(rec.transport);
    for (let i = 0; i < 4; i++) {
      hub.enqueue('auction:B', placed('P9', i + 1, 10 + i));
      hub.flush();
    }
    expect(hub.frameInterval).toBe(80);
    // Another process's frames for a room, 25 ms apart: more than LIVE_FRAME_MS, less than the stretch.
    for (let v = 1; v <= 8; v++) {
      relay.arrive(frameOf('auction:A', placed('P1', v, 10 * v)));
      await new Promise((r) => setTimeout(r, 25));
    }
    const versions = () => rec.frames.filter((f) => f.room === 'auction:A').map((f) => f.events.map((e) => (e.data as { version: number }).version));
    await eventually(() => expect(versions().at(-1)).toEqual([8]), 1000, 5);
    // Paced at 20 ms each would go out on its own (8 frames); at 80 ms, about one in three does.
    expect(versions().length).toBeLessThanOrEqual(5);
    expect(versions()[0]).toEqual([1]);

    // Its own frames quiet for longer than the longest frame (it only relays now): LIVE_FRAME_MS again.
    await new Promise((r) => setTimeout(r, 20 * MAX_FRAME_STRETCH + 30));
    const before = versions().length;
    for (let v = 9; v <= 12; v++) {
      relay.arrive(frameOf('auction:A', placed('P1', v, 10 * v)));
      await new Promise((r) => setTimeout(r, 45));
    }
    await eventually(() => expect(versions().at(-1)).toEqual([12]), 1000, 5);
    expect(versions().slice(before)).toEqual([[9], [10], [11], [12]]);
  });

  it('publishes a room\'s frame once per flush, however many transports and slices deliver it; watchers\' merged, the full feed beside it', () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 50, onError, relay });
    hubs.push(hub);
    hub.attach(recorder().transport);
    hub.attach(recorder().transport);
    hub.enqueue('auction:A', placed('P1', 1, 10));
    hub.enqueue('auction:A', placed('P1', 2, 20));
    hub.enqueue('auction:B', placed('P9', 1, 10));
    hub.flush();
    // With several processes a `feed=all` socket may be anywhere: the full feed is published too.
    expect(relay.published.map((m) => m.kind === 'frame' && [m.frame.room, m.frame.events.length])).toEqual([['feed:A', 2], ['auction:A', 1], ['feed:B', 1], ['auction:B', 1]]);
    const watchers = relay.published.find((m) => m.kind === 'frame' && m.frame.room === 'auction:A') as Extract<Relayed, { kind: 'frame' }>;
    expect(watchers.frame.events).toEqual([placed('P1', 2, 20)]);
    expect(JSON.parse(watchers.json)).toEqual(watchers.frame);
  });

  it('merges per frame: one watcher count (the latest) per room, one catalogue announcement per auction', async () => {
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 50, onError, relay });
    hubs.push(hub);
    // A watch/unwatch toggle storm: twenty counts in one frame.
    for (let n = 1; n <= 20; n++) hub.enqueue('auction:A', { event: 'auction:watchers', data: { auction_id: 'A', watchers: n % 2, server_time: '' } });
    hub.enqueue('auction:A', placed('P1', 1, 10));
    hub.enqueue('auction:A', { event: 'auction:watchers', data: { auction_id: 'A', watchers: 7, server_time: '' } });
    // Three catalogue changes of one auction in one frame (deleted: no read needed).
    hub.publish([{ type: 'auction:deleted', auctionId: 'X', ownerId: 1 }, { type: 'auction:deleted', auctionId: 'X', ownerId: 1 }, { type: 'auction:deleted', auctionId: 'Y', ownerId: 1 }]);
    expect(relay.published).toEqual([]);
    hub.flush();
    await eventually(() => expect(relay.published.filter((m) => m.kind === 'all')).toHaveLength(2));
    const frames = relay.published.filter((m): m is Extract<Relayed, { kind: 'frame' }> => m.kind === 'frame' && m.frame.room === 'auction:A');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.frame.events.map((e) => e.event)).toEqual(['bid:placed', 'auction:watchers']);
    expect((frames[0]!.frame.events[1]!.data as { watchers: number }).watchers).toBe(7);
  });

  it('stretches frames while the event loop is saturated (up to MAX_FRAME_STRETCH ×) and returns to LIVE_FRAME_MS when calm', async () => {
    // One busy frame (a pause) changes nothing; three in a row do.
    // (The first value is the baseline taken at the first event, after a quiet spell.)
    const loads = [0, 0.99, 0.2, 0.95, 0.97, 0.99, 0.99, 0.99, 0.7, 0.3, 0.2, 0.1];
    const relay = new HandRelay();
    const hub = new LiveHub({ reads: noReads, now: Date.now, frameMs: 20, onError, relay, utilization: () => loads.shift() ?? 0 });
    hubs.push(hub);
    const intervals: number[] = [];
    for (let i = 0; i < 11; i++) {
      hub.enqueue('auction:A', placed('P1', i + 1, 10 + i));
      hub.flush();
      intervals.push(hub.frameInterval);
    }
    expect(MAX_FRAME_STRETCH).toBe(8);
    // Busy from the third frame in a row: 40, 80, 160 (the cap); between the thresholds it holds;
    // calm: halves back to 20.
    expect(intervals).toEqual([20, 20, 20, 20, 40, 80, 160, 160, 80, 40, 20]);
    // The timer follows the interval: a calm hub's next frame goes out LIVE_FRAME_MS after its first event.
    const before = relay.published.length;
    hub.enqueue('auction:A', placed('P1', 12, 99));
    await eventually(() => expect(relay.published.length).toBeGreaterThan(before), 500, 5);

    // Stretched, then quiet for longer than the longest frame: the next frame starts at LIVE_FRAME_MS again.
    loads.push(0.99, 0.99, 0.99, 0.99);
    for (let i = 0; i < 4; i++) {
      hub.enqueue('auction:A', placed('P1', 13 + i, 100 + i));
      hub.flush();
    }
    expect(hub.frameInterval).toBe(80);
    await new Promise((r) => setTimeout(r, 20 * MAX_FRAME_STRETCH + 30));
    hub.enqueue('auction:A', placed('P1', 20, 200));
    expect(hub.frameInterval).toBe(20);
  });

  it('the wire format carries a frame\'s JSON untouched', () => {
    const msg = frameOf('auction:A', placed('P1', 1, 10));
    const relay = new LocalRelay();
    let got: Relayed | null = null;
    relay.onMessage((m) => { got = m; });
    relay.publish(msg);
    expect(got).toBe(msg);
    expect(decode('x|y')).toBeNull();
  });
});

describe.runIf(redisAvailable)('Redis: frames and counts between processes', () => {
  const namespace = `test-${randomUUID()}`;
  const relays: RedisRelay[] = [];
  afterEach(async () => {
    for (const r of relays.splice(0)) await r.close();
  });
  const open = async () => {
    const r = await RedisRelay.open({ url: TEST_REDIS_URL, namespace, onError });
    relays.push(r);
    return r;
  };

  it('every process delivers what one published, once, in publishing order; other namespaces hear nothing', async () => {
    const [a, b] = [await open(), await open()];
    const stranger = await RedisRelay.open({ url: TEST_REDIS_URL, namespace: `${namespace}-other`, onError });
    relays.push(stranger);
    const got = { a: [] as string[], b: [] as string[], stranger: [] as string[] };
    a.onMessage((m, self) => { got.a.push(`${m.kind}${self ? '*' : ''}`); });
    const disconnects: Relayed[] = [];
    b.onMessage((m, self) => { got.b.push(`${m.kind}${self ? '*' : ''}`); if (m.kind === 'disconnect') disconnects.push(m); });
    stranger.onMessage((m) => { got.stranger.push(m.kind); });
    for (let i = 1; i <= 50; i++) a.publish(frameOf('auction:A', placed('P1', i, i)));
    a.publish({ kind: 'user', userId: 3, message: { event: 'wallet:updated', data: { wallet_balance: 1, server_time: '' } } });
    a.publish({ kind: 'disconnect', role: 'admin', id: 3, below: 7 });
    a.publish({ kind: 'disconnect', role: 'user', id: 3, below: Infinity });
    await eventually(() => expect(got.b).toHaveLength(53));
    expect(got.a).toEqual([...Array<string>(50).fill('frame*'), 'user*', 'disconnect*', 'disconnect*']);
    expect(got.b).toEqual([...Array<string>(50).fill('frame'), 'user', 'disconnect', 'disconnect']);
    expect(got.stranger).toEqual([]);
    expect(disconnects).toEqual([{ kind: 'disconnect', role: 'admin', id: 3, below: 7 }, { kind: 'disconnect', role: 'user', id: 3, below: Infinity }]);
    expect(await a.check()).toBe('ok');
  });

  it('watcher counts add up over processes; a process that stops beating stops counting', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const [a, b] = [await open(), await open()];
      const ta = await RedisTally.open(a.commands, a.node, namespace, onError);
      const tb = await RedisTally.open(b.commands, b.node, namespace, onError);
      expect(await ta.report('A', 2)).toBe(2);
      expect(await tb.report('A', 3)).toBe(5);
      expect(await ta.report('A', 1)).toBe(4);
      expect(await tb.report('B', 1)).toBe(1);
      // b is killed: its heartbeat key expires (here: removed, as HEARTBEAT_TTL_MS later).
      expect(HEARTBEAT_TTL_MS).toBeLessThanOrEqual(3000);
      await redis.del(`auction:node:${namespace}:${b.node}`);
      expect(await ta.report('A', 1)).toBe(1);
      // A clean stop leaves at once.
      await ta.close();
      await tb.close();
      const tc = await RedisTally.open(a.commands, `${a.node}-c`, namespace, onError);
      expect(await tc.report('A', 0)).toBe(0);
      await tc.close();
    } finally {
      redis.disconnect();
    }
  });

  it('a process delivers what it publishes to its own sockets at once, and once: the echo from Redis is dropped', async () => {
    const [a, b] = [await open(), await open()];
    const ha = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay: a });
    const hb = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay: b });
    const [ra, rb] = [recorder(), recorder()];
    ha.attach(ra.transport);
    hb.attach(rb.transport);
    // A personal event, a catalogue event (a deletion needs no read) and a room frame, committed on a.
    ha.publish([{ type: 'wallet:updated', userId: 5, balance: 100 }, { type: 'auction:deleted', auctionId: 'X', ownerId: 1 }]);
    ha.enqueue('auction:A', placed('P1', 1, 10));
    // a's own sockets have them before any round trip to Redis.
    // (With several processes a room's frame goes with its unmerged feed: `feed:A`.)
    const rooms = (r: typeof ra) => r.frames.map((f) => f.room);
    expect(ra.personal).toEqual([{ to: 5, event: 'wallet:updated' }, { to: 'all', event: 'auction:deleted' }]);
    expect(rooms(ra)).toEqual(['feed:A', 'auction:A']);
    await eventually(() => {
      expect(rb.personal).toEqual([{ to: 5, event: 'wallet:updated' }, { to: 'all', event: 'auction:deleted' }]);
      expect(rooms(rb)).toEqual(['feed:A', 'auction:A']);
    });
    // b's answer reaches a after a's own messages came back to it from Redis (one connection, in
    // order): by then a would have delivered their echo, were it not dropped.
    hb.publish([{ type: 'wallet:updated', userId: 6, balance: 7 }]);
    await eventually(() => expect(ra.personal.map((p) => p.to)).toEqual([5, 'all', 6]));
    expect(rooms(ra)).toEqual(['feed:A', 'auction:A']);
    relays.splice(0);
    await ha.close();
    await hb.close();
  });

  it('two hubs: a frame published by one reaches both hubs\' sockets', async () => {
    const [a, b] = [await open(), await open()];
    const ha = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay: a });
    const hb = new LiveHub({ reads: noReads, now: Date.now, frameMs: 0, onError, relay: b });
    const ra = recorder();
    const rb = recorder();
    ha.attach(ra.transport);
    hb.attach(rb.transport);
    ha.enqueue('auction:A', placed('P1', 1, 10));
    hb.enqueue('auction:A', placed('P1', 2, 20));
    await eventually(() => {
      expect(ra.frames.flatMap((f) => f.events)).toContainEqual(placed('P1', 2, 20));
      expect(rb.frames.flatMap((f) => f.events)).toContainEqual(placed('P1', 2, 20));
    });
    // Each hub's sockets saw versions only rise (1 then 2, or 2 alone).
    for (const r of [ra, rb]) {
      const versions = r.frames.filter((f) => f.room === 'auction:A').flatMap((f) => f.events).map((e) => (e.data as { version: number }).version);
      expect(versions).toEqual([...versions].sort((x, y) => x - y));
      expect(new Set(versions).size).toBe(versions.length);
    }
    relays.splice(0);
    await ha.close();
    await hb.close();
  });
});
