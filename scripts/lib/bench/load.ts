/**
 * The bids of `npm run bench` (scripts/bench.ts): the closed-loop storm (autocannon's, or with
 * `--clients` simulated web clients) and the open loop at a fixed rate. Every bid is higher than the
 * one before it, whichever phase sends it; after a storm of `--clients` the amounts go on from what
 * each lot then shows.
 */
import autocannon from 'autocannon';
import { clientStorm, type StormResult } from '../bid-clients.js';
import type { Ask, Report } from './watchers.js';

export const now = () => performance.timeOrigin + performance.now();

export interface Bid { token: string; productId: string; amount: number }

export function bidLoad(o: { base: string; bidders: string[]; productIds: string[]; auctionId: string; concurrency: number; seconds: number; clients: boolean }) {
  const { base, bidders, productIds, auctionId } = o;
  let seq = 0;
  const shown = new Map<string, number>();
  const offset = new Map<string, number>();
  const nextBid = (): Bid => {
    const i = seq++;
    const productId = productIds[i % productIds.length]!;
    return { token: bidders[i % bidders.length]!, productId, amount: 10 + Math.floor(i / productIds.length) + (offset.get(productId) ?? 0) };
  };
  const clientsStorm = async () => {
    const result = await clientStorm({ base, tokens: bidders, productIds, auctionId, connections: o.concurrency, seconds: o.seconds, shown });
    for (const productId of productIds) {
      const from = 10 + Math.floor(seq / productIds.length) + (offset.get(productId) ?? 0);
      const minimum = shown.get(productId) ?? 0;
      if (minimum > from) offset.set(productId, (offset.get(productId) ?? 0) + minimum - from + 1);
    }
    return result;
  };
  /**
   * A closed loop of bids, round robin over products and bidders: autocannon's, ever higher amounts;
   * or with `--clients`, web clients bidding what the lot shows.
   */
  const runStorm = (): Promise<StormResult> => o.clients
    ? clientsStorm()
    : autocannon({
    url: `${base}/api/bid`, method: 'POST', connections: o.concurrency, duration: o.seconds,
    requests: [{
      setupRequest: (req) => {
        const b = nextBid();
        return {
          ...req,
          headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${b.token}` },
          body: JSON.stringify({ product_id: b.productId, bid_amount: b.amount }),
        };
      },
    }],
  });
  return { nextBid, runStorm };
}

export interface Run { latencies: number[]; broadcast: number[]; lost: number; status5xx: number; report: Report | null }

/** (d) one run of the open loop: `rate` bids a second for `seconds`, whatever the answers, then until the watchers have them. */
export async function openLoop(o: { base: string; rate: number; seconds: number; watchers: number; nextBid: () => Bid; ask: Ask }): Promise<Run> {
  const { base } = o;
  const latencies: number[] = [];
  /** `product@version` of each accepted bid → when its answer arrived. */
  const answered = new Map<string, number>();
  const inflight: Promise<void>[] = [];
  let status5xx = 0;
  const total = o.rate * o.seconds;
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / o.rate;
    const wait = due - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const b = o.nextBid();
    const sent = now();
    inflight.push(fetch(`${base}/api/bid`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${b.token}` },
      body: JSON.stringify({ product_id: b.productId, bid_amount: b.amount }),
    }).then(async (res) => {
      const done = now();
      latencies.push(done - sent);
      if (res.status >= 500) status5xx++;
      const body = await res.json() as { version?: number };
      if (res.status === 201 && body.version !== undefined) answered.set(`${b.productId}@${body.version}`, done);
    }));
  }
  await Promise.all(inflight);
  const broadcast: number[] = [];
  let report: Report | null = null;
  if (o.watchers > 0) {
    const keys = [...answered.keys()];
    const t1 = now();
    for (;;) {
      report = await o.ask<Report>({ type: 'report', keys }, 'report');
      if (keys.every((id) => id in report!.complete) || now() - t1 > 30_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const [key, at] of answered) {
      const last = report.complete[key];
      if (last !== undefined) broadcast.push(Math.max(0, last - at));
    }
  }
  // Accepted bids whose state (its version, or a newer one) did not reach every watcher.
  return { latencies, broadcast, lost: o.watchers > 0 ? Math.max(0, answered.size - broadcast.length) : 0, status5xx, report };
}
