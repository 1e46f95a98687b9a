/**
 * Metrics over a cluster's workers (docs/deploy.md#monitoring). Each worker answers for itself on an
 * internal port of its own (127.0.0.1, chosen by the system, written in the log): `/metrics` in
 * Prometheus' text format for a scraper that wants workers one by one, `/metrics.json` for its
 * siblings. The primary tells every worker where the others are; `/metrics` on the shared port,
 * whichever worker takes it, asks the others and merges their series with its own (prom-client's
 * AggregatorRegistry: counters and histograms summed, each gauge by its own rule).
 */
import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';
import type { Metrics } from './metrics.js';

type PeerMessage = { type: 'auction:metrics-port'; port: number } | { type: 'auction:metrics-peers'; ports: number[] };

/** How long the shared port's `/metrics` waits for a sibling before answering without it. */
const PEER_TIMEOUT_MS = 2000;

/** The siblings' internal ports (this worker's not among them); empty outside a cluster. */
let peers: number[] = [];

/**
 * A worker: serves its own series on 127.0.0.1 and tells the primary the port; hears the siblings'.
 * Resolves with the port once it listens.
 */
export async function serveWorkerMetrics(metrics: Metrics, onError: (err: unknown) => void): Promise<number> {
  const server = http.createServer((req, res) => {
    const json = req.url === '/metrics.json';
    if (req.method !== 'GET' || (!json && req.url !== '/metrics')) {
      res.writeHead(404).end();
      return;
    }
    (json ? metrics.json().then((m) => JSON.stringify(m)) : metrics.text()).then(
      (body) => res.writeHead(200, { 'content-type': json ? 'application/json' : AggregatorRegistry.PROMETHEUS_CONTENT_TYPE }).end(body),
      (err: unknown) => {
        onError(err);
        res.writeHead(500).end();
      },
    );
  });
  // `exclusive`: a port of this worker's own, not one the cluster shares out (the primary's `listen(0)`
  // would give every worker the same one, and count it as the worker listening).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve();
    });
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;
  process.on('message', (msg: PeerMessage) => {
    if (msg?.type === 'auction:metrics-peers') peers = msg.ports.filter((p) => p !== port);
  });
  process.send?.({ type: 'auction:metrics-port', port } satisfies PeerMessage);
  return port;
}

/** The primary: keeps each worker's internal port and tells every worker the whole list when it changes. */
export function relayWorkerMetricsPorts(): void {
  const ports = new Map<number, number>();
  const tell = () => {
    const msg: PeerMessage = { type: 'auction:metrics-peers', ports: [...ports.values()] };
    // A worker on its way out may still look connected while its channel is already closed: the send then
    // fails (EPIPE), and without a callback the failure is an 'error' event that takes the primary down.
    // Such a worker no longer needs the list.
    for (const w of Object.values(cluster.workers ?? {})) if (w?.isConnected()) w.send(msg, () => undefined);
  };
  cluster.on('message', (worker: Worker, msg: PeerMessage) => {
    if (msg?.type !== 'auction:metrics-port') return;
    ports.set(worker.id, msg.port);
    tell();
  });
  cluster.on('exit', (worker) => {
    if (ports.delete(worker.id)) tell();
  });
}

/** One process's series as `registry.getMetricsAsJSON()` gives them. */
type Series = object[];

async function peerSeries(port: number): Promise<Series | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics.json`, { signal: AbortSignal.timeout(PEER_TIMEOUT_MS) });
    return res.ok ? (await res.json()) as Series : null;
  } catch {
    return null; // Stopping, or stuck: the answer goes without it (auction_metrics_processes says how many answered).
  }
}

/** This process's series, merged with its siblings' in a cluster, in Prometheus' text format. */
export async function mergedMetrics(metrics: Metrics): Promise<string> {
  const own = await metrics.json();
  const others = (await Promise.all(peers.map(peerSeries))).filter((m): m is Series => m !== null);
  const merged = others.length === 0 && peers.length === 0 ? null : AggregatorRegistry.aggregate([own, ...others]);
  const text = merged ? await merged.metrics() : await metrics.text();
  return `${text}\n# HELP auction_metrics_processes Processes whose series this answer holds (a cluster's workers that answered in time)\n`
    + `# TYPE auction_metrics_processes gauge\nauction_metrics_processes ${1 + others.length}\n`;
}
