/**
 * The bench's watchers, in their own process so that decoding frames does not slow the load
 * generator. Opens N socket.io clients on one auction and records, per watcher and product, when its
 * shown version rose; asked about a `product@version`, it answers when the last watcher held it (or a
 * newer one).
 * Watchers get state (DESIGN §6): a process may skip a version that a newer one supersedes, so a
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
 * Per watcher and product, the steps its shown version took: `versions[i]` reached at `times[i]`
 * (versions rising). A version v is at a watcher from the first step at or past v. Kept as steps, not
 * per version: with merged frames one step may pass dozens of versions, and this process shares the
 * server's cores, so it must cost little per frame.
 */
interface Steps { versions: number[]; times: number[] }
const watchers: Map<string, Steps>[] = [];
/** Versions a watcher reached through a newer event rather than their own (merged, not lost). */
let superseded = 0;
let outOfOrder = 0;
let frames = 0;
let steps = 0;
const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];

/** When the last watcher had `product@version` (or a newer one); undefined while one has not. */
function lastArrival(key: string): number | undefined {
  const at = key.lastIndexOf('@');
  const product = key.slice(0, at);
  const version = Number(key.slice(at + 1));
  let last = 0;
  for (const w of watchers) {
    const st = w.get(product);
    if (!st || st.versions.length === 0 || st.versions[st.versions.length - 1]! < version) return undefined;
    let lo = 0;
    let hi = st.versions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (st.versions[mid]! >= version) hi = mid;
      else lo = mid + 1;
    }
    last = Math.max(last, st.times[lo]!);
  }
  return last;
}

function send(msg: object) {
  process.send?.(msg);
}

async function start(m: Start) {
  const batch = 100;
  for (let i = 0; i < m.watchers; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, m.watchers - i) }, async () => {
      // 20 sockets per account at most (DESIGN §6): the watchers take the accounts in turn.
      const token = m.tokens[sockets.length % m.tokens.length];
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(m.url, { auth: { token }, transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(s);
      const shown = new Map<string, number>(Object.entries(m.versions ?? {}));
      const mine = new Map<string, Steps>();
      watchers.push(mine);
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
          let st = mine.get(d.product_id);
          if (!st) mine.set(d.product_id, (st = { versions: [], times: [] }));
          st.versions.push(d.version);
          st.times.push(t);
          steps++;
          // Only recent steps are ever asked about (the last drain, the last open loop): bounded memory,
          // so this process's own garbage collection does not show up as broadcast latency.
          if (st.versions.length > 4096) {
            st.versions.splice(0, 2048);
            st.times.splice(0, 2048);
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
