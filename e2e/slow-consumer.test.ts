/**
 * A consumer that stops reading costs the server a bounded amount of memory (docs/live-protocol.md,
 * "Socket lifetime and limits"), measured on the real production server process: eighty
 * sockets stop reading before a bid storm of at least 12 seconds (ten of the auction owner's /api/ws feeds, which get
 * every event with bidder names, ten of its `feed=all` sockets on the auction, which get every event
 * unmerged, and sixty bidder sockets watching the auction, which get each lot's newest state per frame:
 * their backlog grows by a frame's few events at a time, so they may never reach the 1 MiB bound). The server's
 * resident memory is sampled while the storm runs, and read before and after it once a full garbage
 * collection (through the process's inspector) has removed what is merely uncollected. Each stalled
 * socket is dropped once more than 1 MiB waits for it, so nothing of the storm is still held; before that
 * rule every stalled socket kept its whole backlog (measured with the rule off: +180 MB RSS at the peak
 * and +95 MB still held after GC, heap and buffers +76 MB; with it: +18 MB RSS, heap and buffers -2 MB).
 * A watcher that keeps reading is not touched and sees the storm's last bids.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bidStorm, openMarket, startServer, waitFor, type RunningServer } from './server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

const WARM_UP_MS = 3_000;
/** The storm runs until it has sent enough (see NEEDED_MB), for at least this long and at most STORM_MAX_MS. */
const STORM_MS = 12_000;
const STORM_MAX_MS = 40_000;
/** Memory the server may still hold after the storm (after a full GC), over what it held before it. */
const MAX_HELD_MB = 40;
/**
 * What the storm must send to the stalled sockets in all (each bid reaches each of them as a ~150-byte
 * event): far more than the bound, so that keeping it for every non-reader could not pass. A slower
 * machine takes longer to send it; the storm runs until it has.
 */
const NEEDED_MB = 5 * MAX_HELD_MB;
const EVENT_BYTES = 150;

/** The server process's resident memory in MB, from /proc. */
function rssMb(server: RunningServer): number {
  const status = fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

/**
 * The server process's inspector (started with --inspect on a free port): a full garbage collection, so
 * that what is measured next is the memory the server still holds, not garbage it has not collected yet.
 */
async function collectGarbage(server: RunningServer): Promise<{ heapUsed: number; external: number }> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1];
  if (!url) throw new Error(`no inspector address in the server's output:\n${server.output()}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  type Reply = { id?: number; result?: { result?: { value?: string } } };
  const send = (method: string, params: object = {}) => new Promise<Reply>((resolve) => {
    const mine = ++id;
    const onMessage = (raw: Buffer) => {
      const msg = JSON.parse(raw.toString()) as Reply;
      if (msg.id === mine) { ws.off('message', onMessage); resolve(msg); }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id: mine, method, params }));
  });
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.collectGarbage');
  const usage = await send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())' });
  ws.close();
  const m = JSON.parse(usage.result!.result!.value!) as { heapUsed: number; external: number };
  return { heapUsed: m.heapUsed / 2 ** 20, external: m.external / 2 ** 20 };
}

interface Feed {
  ws: WebSocket;
  messages: { type?: string; room?: string; events?: { event: string; data: Record<string, unknown> }[] }[];
  closed: () => boolean;
}

/** An /api/ws connection that has authenticated (and, given an auction, watches it). */
async function feed(url: string, token: string, auctionId?: string, everything = false): Promise<Feed> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/ws?token=${token}${everything ? '&feed=all' : ''}`);
  const messages: Feed['messages'] = [];
  let closed = false;
  ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString())));
  ws.on('close', () => { closed = true; });
  ws.on('error', () => { /* a dropped stalled socket may error when it reads again */ });
  cleanups.push(() => ws.terminate());
  await waitFor(() => messages.some((m) => m.type === 'ready'), 10_000, 'the feed to authenticate');
  if (auctionId) {
    ws.send(JSON.stringify({ type: 'watch', auction_id: auctionId }));
    await waitFor(() => messages.some((m) => m.type === 'watching'), 10_000, 'the feed to watch');
  }
  return { ws, messages, closed: () => closed };
}

/** Stops reading: the TCP window fills, then whatever the server keeps for this socket grows. */
const socketOf = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;

describe('a consumer that stops reading (real server process)', () => {
  it('costs bounded memory: stalled sockets are dropped mid-storm while a reading one keeps up', async () => {
    const server = await startServer({ NODE_OPTIONS: '--inspect=127.0.0.1:0' });
    cleanups.push(() => server.cleanup(), () => server.stop());
    const market = await openMarket(server.url, 'slow', { products: 10, bidders: 20 });

    const reader = await feed(server.url, market.bidders[0]!.token, market.auctionId);
    const stalled: Feed[] = [];
    for (let i = 0; i < 10; i++) stalled.push(await feed(server.url, market.adminToken));
    for (let i = 0; i < 10; i++) stalled.push(await feed(server.url, market.adminToken, market.auctionId, true));
    const everyEvent = stalled.slice();
    for (const b of market.bidders) {
      for (let i = 0; i < 3; i++) stalled.push(await feed(server.url, b.token, market.auctionId));
    }

    // A first storm while everyone reads brings the server's heap to its working size for a storm.
    const counter = { seq: 0 };
    const warmUp = bidStorm(server.url, market, 16, counter);
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    await warmUp.stop();
    expect(warmUp.bad).toEqual([]);

    // Then eighty stop reading; the baseline, and the same storm with the server's memory sampled as it runs.
    for (const f of stalled) socketOf(f.ws).pause();
    await new Promise((r) => setTimeout(r, 500));
    const gcBefore = await collectGarbage(server);
    const baseline = rssMb(server);
    const storm = bidStorm(server.url, market, 16, counter);
    const samples: number[] = [];
    const started = Date.now();
    const sent = () => storm.accepted.length * EVENT_BYTES * stalled.length / 2 ** 20;
    while (Date.now() - started < STORM_MS || (sent() <= NEEDED_MB && Date.now() - started < STORM_MAX_MS)) {
      await new Promise((r) => setTimeout(r, 250));
      samples.push(rssMb(server));
    }
    await storm.stop();
    const gcAfter = await collectGarbage(server);
    const held = rssMb(server);
    const peak = Math.max(...samples);
    const bids = storm.accepted.length;
    console.log(`slow consumers: ${bids} bids in ${((Date.now() - started) / 1000).toFixed(1)} s to ${stalled.length} stalled sockets; RSS ${baseline.toFixed(0)} MB before, ` +
      `peak ${peak.toFixed(0)} MB while it ran (samples: ${samples.map((x) => x.toFixed(0)).join(' ')}), ${held.toFixed(0)} MB after a full GC ` +
      `(heap ${gcBefore.heapUsed.toFixed(0)} → ${gcAfter.heapUsed.toFixed(0)} MB, external ${gcBefore.external.toFixed(0)} → ${gcAfter.external.toFixed(0)} MB)`);

    expect(storm.bad).toEqual([]);
    // Enough traffic that keeping it for every non-reader would have cost far more than the bound.
    expect(sent()).toBeGreaterThan(NEEDED_MB);
    // What the server still holds once the storm is over: the dropped sockets' backlog is gone.
    expect(held - baseline).toBeLessThan(MAX_HELD_MB);
    expect(gcAfter.heapUsed + gcAfter.external - (gcBefore.heapUsed + gcBefore.external)).toBeLessThan(MAX_HELD_MB / 4);

    // Reading again, every stalled socket that gets every event finds its connection closed by the server.
    for (const f of stalled) socketOf(f.ws).resume();
    await waitFor(() => everyEvent.every((f) => f.closed()), 10_000, 'the stalled feeds of every event to find themselves closed');
    // The reader is still connected and saw the last accepted bid of every product.
    expect(reader.closed()).toBe(false);
    const last = new Map<string, number>();
    for (const a of storm.accepted) last.set(a.productId, Math.max(last.get(a.productId) ?? 0, a.amount));
    const seen = new Map<string, number>();
    await waitFor(() => {
      for (const m of reader.messages) {
        for (const e of m.events ?? []) {
          if (e.event === 'bid:placed') seen.set(e.data.product_id as string, Math.max(seen.get(e.data.product_id as string) ?? 0, e.data.highest_bid as number));
        }
      }
      return [...last].every(([p, amount]) => seen.get(p) === amount);
    }, 10_000, 'the reader to see the last bids');
  }, 90_000);
});
