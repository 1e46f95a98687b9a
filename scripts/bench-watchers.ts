/**
 * The bench's watchers, in their own process so that decoding frames does not slow the load
 * generator. Opens N socket.io clients on one auction and, for every state of a product (its
 * version), counts how many watchers hold it (or a newer one) and when the last one got there.
 * Watchers get state (DESIGN §6): a process may skip a version that a newer one supersedes, so a
 * bid counts as delivered to a watcher once that watcher shows its version or a newer one. A version
 * that goes back is counted as out of order. Talks to the parent over IPC.
 *
 * `start` may carry `versions` (product → version when the watchers connect): earlier versions (bids
 * made before, e.g. the bench's storm without watchers) are neither counted as seen nor as superseded.
 * `report` may carry `keys` (`product@version`): `complete` then holds only those, to keep the IPC
 * message small while the bench polls.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Frame, ServerToClientEvents } from '@auction/shared';

const now = () => performance.timeOrigin + performance.now();

interface Start { type: 'start'; url: string; tokens: string[]; auctionId: string; watchers: number; versions?: Record<string, number> }
type Msg = Start | { type: 'report'; keys?: string[] } | { type: 'stop' };

/** `product@version` → how many watchers reached it (or passed it), and when the last one did. */
const seen = new Map<string, { count: number; last: number }>();
/** Versions a watcher reached through a newer event rather than their own (merged, not lost). */
let superseded = 0;
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
      // 20 sockets per account at most (DESIGN §6): the watchers take the accounts in turn.
      const token = m.tokens[sockets.length % m.tokens.length];
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(m.url, { auth: { token }, transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(s);
      const shown = new Map<string, number>(Object.entries(m.versions ?? {}));
      s.on('frame', (frame: Frame) => {
        frames++;
        const t = now();
        for (const e of frame.events) {
          if (e.event !== 'bid:placed' && e.event !== 'bid:rolledback') continue;
          const d = e.data;
          const prev = shown.get(d.product_id) ?? 0;
          if (d.version <= prev) {
            outOfOrder++;
            continue;
          }
          shown.set(d.product_id, d.version);
          superseded += d.version - prev - 1;
          for (let v = prev + 1; v <= d.version; v++) {
            const key = `${d.product_id}@${v}`;
            const entry = seen.get(key);
            if (entry) { entry.count++; entry.last = t; } else seen.set(key, { count: 1, last: t });
          }
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
    // For each product version: when the last watcher got there (once every watcher has).
    const complete: Record<string, number> = {};
    let partial = 0;
    for (const [key, e] of seen) {
      if (e.count >= total) { if (!m.keys) complete[key] = e.last; } else partial++;
    }
    for (const key of m.keys ?? []) {
      const e = seen.get(key);
      if (e && e.count >= total) complete[key] = e.last;
    }
    send({ type: 'report', complete, partial, superseded, outOfOrder, frames, events: seen.size });
  } else if (m.type === 'stop') {
    for (const s of sockets) s.disconnect();
    process.exit(0);
  }
});
