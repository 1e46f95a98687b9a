/**
 * The bench's watchers, in their own process so that decoding frames does not slow the load
 * generator. Opens N socket.io clients on one auction and, for every `bid:placed`, counts how many
 * watchers hold it and when the last one got it. Checks per watcher and product that `bid_count`
 * arrives contiguous and increasing (nothing lost, nothing reordered). Talks to the parent over IPC.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Frame, ServerToClientEvents } from '@auction/shared';

const now = () => performance.timeOrigin + performance.now();

interface Start { type: 'start'; url: string; token: string; auctionId: string; watchers: number }
type Msg = Start | { type: 'report' } | { type: 'stop' };

const seen = new Map<number, { count: number; last: number }>();
let lost = 0;
let outOfOrder = 0;
let frames = 0;
const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
let total = 0;

function send(msg: object) {
  process.send?.(msg);
}

async function start(m: Start) {
  total = m.watchers;
  const batch = 100;
  for (let i = 0; i < m.watchers; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, m.watchers - i) }, async () => {
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(m.url, { auth: { token: m.token }, transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(s);
      const lastCount = new Map<string, number>();
      s.on('frame', (frame: Frame) => {
        frames++;
        const t = now();
        for (const e of frame.events) {
          if (e.event !== 'bid:placed') continue;
          const d = e.data;
          const prev = lastCount.get(d.product_id) ?? 0;
          if (d.bid_count < prev + 1) outOfOrder++;
          else if (d.bid_count > prev + 1) lost += d.bid_count - prev - 1;
          lastCount.set(d.product_id, Math.max(prev, d.bid_count));
          const entry = seen.get(d.bid_id);
          if (entry) { entry.count++; entry.last = t; } else seen.set(d.bid_id, { count: 1, last: t });
        }
      });
      await new Promise<void>((resolve, reject) => { s.once('connect', () => resolve()); s.once('connect_error', reject); });
      const ack = await s.emitWithAck('auction:watch', m.auctionId);
      if (ack.status !== 'ok') throw new Error(`watch refused: ${ack.error.message}`);
    }));
  }
  send({ type: 'ready', watchers: sockets.length });
}

process.on('message', (m: Msg) => {
  if (m.type === 'start') start(m).catch((err: unknown) => send({ type: 'error', message: String(err) }));
  else if (m.type === 'report') {
    // For each bid: how many watchers hold it, and when the last of them got it.
    const complete: Record<number, number> = {};
    let partial = 0;
    for (const [bidId, e] of seen) {
      if (e.count >= total) complete[bidId] = e.last;
      else partial++;
    }
    send({ type: 'report', complete, partial, lost, outOfOrder, frames, events: seen.size });
  } else if (m.type === 'stop') {
    for (const s of sockets) s.disconnect();
    process.exit(0);
  }
});
