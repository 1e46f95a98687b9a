/**
 * The watchers of `npm run bench` (scripts/bench.ts): sockets held open by a child process
 * (scripts/bench-watchers.ts), asked over IPC to connect, report what they hold, and stop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rssMb } from './server.js';

/** What the watchers hold, per `product@version` key: when the LAST watcher had it (or a newer state). */
export type Report = { complete: Record<string, number>; partial: number; superseded: number; outOfOrder: number; frames: number; events: number };

/** A question to the watchers' process: resolves with its first answer of type `want`. */
export type Ask = <T>(msg: object, want: string) => Promise<T>;

export const watchersProcess = () => fork(fileURLToPath(new URL('../../bench-watchers.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

export function asker(child: ChildProcess): Ask {
  return <T>(msg: object, want: string) => new Promise<T>((resolve, reject) => {
    const on = (m: { type: string; message?: string }) => {
      if (m.type === 'error') { child.off('message', on); reject(new Error(m.message)); }
      if (m.type === want) { child.off('message', on); resolve(m as T); }
    };
    child.on('message', on);
    child.send(msg);
  });
}

/**
 * (0) idle: on the fresh server (before the bidders' sign-ups), the resident memory it takes to hold
 * `watchers` watchers that do nothing.
 */
export async function idleWatchers(o: { pid: number | undefined; base: string; tokens: string[]; auctionId: string; watchers: number; log: (msg: string) => void }): Promise<{ rss_before_mb: number | null; rss_mb: number | null }> {
  const before = rssMb(o.pid, 'VmRSS');
  const idler = watchersProcess();
  await new Promise<void>((resolve, reject) => {
    idler.on('message', (m: { type: string; message?: string }) => {
      if (m.type === 'ready') resolve();
      if (m.type === 'error') reject(new Error(m.message));
    });
    idler.send({ type: 'start', url: o.base, tokens: o.tokens, auctionId: o.auctionId, watchers: o.watchers });
  });
  // Let the connection bursts' garbage be collected before reading.
  await new Promise((r) => setTimeout(r, 5000));
  const idle = { rss_before_mb: before, rss_mb: rssMb(o.pid, 'VmRSS') };
  o.log(`(0) idle: ${o.watchers} watchers connected, server RSS ${idle.rss_before_mb} → ${idle.rss_mb} MB`);
  idler.send({ type: 'stop' });
  await new Promise((r) => idler.once('exit', r));
  return idle;
}
