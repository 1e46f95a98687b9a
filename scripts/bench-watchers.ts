/**
 * The bench's watchers, in their own process so that decoding frames does not slow the load
 * generator. Opens N socket.io clients on one auction and counts, per product and version, how many
 * watchers hold it (or a newer one) and when the last one got there; asked about a `product@version`,
 * it answers once every watcher has.
 * Watchers get state (docs/live-protocol.md#frames): a process may skip a version that a newer one supersedes, so a
 * bid counts as delivered to a watcher once that watcher shows its version or a newer one. A version
 * that goes back is counted as out of order. Talks to the parent over IPC.
 *
 * `start` may carry `versions` (product → version when the watchers connect): earlier versions (bids
 * made before, e.g. the bench's storm without watchers) are neither counted as seen nor as superseded.
 * `report` names the `keys` (`product@version`) asked about: `complete` holds those every watcher has.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Frame, ServerToClientEvents } from '@auction/shared';

const now = () => performance.timeOrigin + performance.now();

interface Start { type: 'start'; url: string; tokens: string[]; auctionId: string; watchers: number; versions?: Record<string, number> }
type Msg = Start | { type: 'report'; keys: string[] } | { type: 'stop' };

/**
 * Per product and version: how many watchers hold it (or a newer one) and when the last of them got
 * there, in typed arrays indexed by version (a few thousand per product in a whole run). One event
 * that passes dozens of versions (merged frames) is a tight loop of array writes; this process
 * shares the server's cores and its garbage collection pauses would show as broadcast latency, so it
 * keeps no per-event objects.
 */
interface Reached { count: Int32Array; last: Float64Array }
const reached = new Map<string, Reached>();
/** Versions a watcher reached through a newer event rather than their own (merged, not lost). */
let superseded = 0;
let outOfOrder = 0;
let frames = 0;
let steps = 0;
let total = 0;
const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];

function reachedOf(product: string, upTo: number): Reached {
  let r = reached.get(product);
  if (!r || r.count.length <= upTo) {
    const size = Math.max(1024, (upTo + 1) * 2);
    const grown = { count: new Int32Array(size), last: new Float64Array(size) };
    if (r) { grown.count.set(r.count); grown.last.set(r.last); }
    reached.set(product, (r = grown));
  }
  return r;
}

/** When the last watcher had `product@version` (or a newer one); undefined while one has not. */
function lastArrival(key: string): number | undefined {
  const at = key.lastIndexOf('@');
  const r = reached.get(key.slice(0, at));
  const version = Number(key.slice(at + 1));
  if (!r || version >= r.count.length || r.count[version]! < total) return undefined;
  return r.last[version];
}

function send(msg: object) {
  process.send?.(msg);
}

async function start(m: Start) {
  total = m.watchers;
  const batch = 100;
  for (let i = 0; i < m.watchers; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, m.watchers - i) }, async () => {
      // 20 sockets per account at most (docs/live-protocol.md#socket-lifetime-and-limits): the watchers take the accounts in turn.
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
          steps++;
          const r = reachedOf(d.product_id, d.version);
          for (let v = prev + 1; v <= d.version; v++) {
            r.count[v]!++;
            r.last[v] = t;
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
    // For each asked `product@version`: when the last watcher got there (once every watcher has).
    const complete: Record<string, number> = {};
    let partial = 0;
    for (const key of m.keys) {
      const last = lastArrival(key);
      if (last === undefined) partial++;
      else complete[key] = last;
    }
    send({ type: 'report', complete, partial, superseded, outOfOrder, frames, events: steps });
  } else if (m.type === 'stop') {
    for (const s of sockets) s.disconnect();
    process.exit(0);
  }
});
