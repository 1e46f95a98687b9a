/**
 * Prometheus metrics (docs/deploy.md#monitoring): what an operator watches and alerts on. One registry
 * per app (the tests build several in one process) beside one per process for what is the process's
 * own (memory, CPU, event-loop lag, GC: prom-client's default metrics). `GET /metrics` answers both
 * (routes/metrics/index.ts); a cluster's workers each answer for themselves on an internal port and the
 * shared port merges them (cluster-metrics.ts), by each series' `aggregator`.
 *
 * The counters the live channel and the mail sender keep are plain numbers in their own modules, read
 * when the registry is scraped: nothing on the bid path calls into prom-client but the two bid series
 * and the request histogram.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a millisecond to ten seconds (a request or a bid; the tail is where alerts look). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A cluster's worker labels its series with its slot (`worker="0"`…, server/src/cluster.ts), which its
 * replacement reuses: the shared port's answer then keeps each worker's series apart, and a replaced
 * worker's counters read as one series that started again, as Prometheus expects of a restart.
 */
const workerLabel = (): Record<string, string> => (process.env.WORKER_SLOT === undefined ? {} : { worker: process.env.WORKER_SLOT });

let processRegistry: Registry | undefined;
/** The process's own series (memory, CPU, event-loop lag, handles, GC), collected from the first app on. */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    processRegistry.setDefaultLabels(workerLabel());
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

export type TransportName = 'socketio' | 'websocket';
export const TRANSPORTS: readonly TransportName[] = ['socketio', 'websocket'];

/** What the live channel counts as it writes (live/hub.ts and the transports). */
export interface LiveCounts {
  sockets: () => Record<TransportName, number>;
  /** Frame writes (one per socket a frame reached) and their bytes, per transport. */
  frames: Record<TransportName, number>;
  frameBytes: Record<TransportName, number>;
  /** Sockets closed for not reading (more than the unsent-bytes limit waiting). */
  slowDrops: Record<TransportName, number>;
}

export interface MetricsSources {
  live: LiveCounts;
  /** The PostgreSQL store's connections; null on SQLite. */
  connections: () => { size: number; inUse: number; waiting: number } | null;
  /** Whether this process keeps the auction clock (and sends the mail). */
  leading: () => boolean;
  /**
   * Mails waiting to be sent (due or not), and the age in seconds of the oldest; read only by the
   * process that sends them (the others answer 0).
   */
  outbox: () => Promise<{ waiting: number; oldestSeconds: number }>;
}

/**
 * A counter that reports a number kept elsewhere: each scrape adds what it grew by since the last.
 * prom-client counters only go up, which is what the number does.
 */
function mirrorCounter<L extends string>(registry: Registry, name: string, help: string, labelName: L, read: () => Record<string, number>) {
  const last = new Map<string, number>();
  return new Counter({
    name, help, labelNames: [labelName], registers: [registry],
    collect() {
      for (const [label, value] of Object.entries(read())) {
        const grew = value - (last.get(label) ?? 0);
        last.set(label, value);
        // `inc` also creates the series at 0, so a quiet transport still shows.
        this.inc({ [labelName]: label } as Record<L, string>, Math.max(0, grew));
      }
    },
  });
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly bids: Counter<'result' | 'code'>;
  readonly bidDuration: Histogram;
  readonly relayLag: Histogram;
  readonly mailSends: Counter<'result'>;

  /** The outbox as last read: a scrape never fails or waits long for the database. */
  private outbox = { waiting: 0, oldestSeconds: 0 };
  private outboxRead: Promise<void> | null = null;
  private outboxReadAt = -Infinity;
  readonly collectErrors: Counter;

  constructor(private readonly sources: MetricsSources) {
    this.registry.setDefaultLabels(workerLabel());
    const registers = [this.registry];
    this.collectErrors = new Counter({
      name: 'auction_metrics_collect_errors_total', help: 'Reads for /metrics that failed or took over 2 s (the last value read is shown meanwhile)', registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route (its pattern; "<static>" for the client\'s files, "<unmatched>" for a 404 without a route), method and status, from arrival to the last byte handed to the socket',
      labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers,
    });
    this.bids = new Counter({
      name: 'auction_bids_total',
      help: 'POST /api/bid answered: result="accepted" (201) or "refused", with the error code (OUTBID, INSUFFICIENT_FUNDS, RATE_LIMITED, …)',
      labelNames: ['result', 'code'], registers,
    });
    this.bids.inc({ result: 'accepted', code: '' }, 0);
    this.bidDuration = new Histogram({
      name: 'auction_bid_command_duration_seconds',
      help: 'The bid command, from the request\'s validated body to its committed result (the lot\'s transaction, queueing for it included)',
      buckets: LATENCY_BUCKETS, registers,
    });
    this.relayLag = new Histogram({
      name: 'auction_relay_lag_seconds',
      help: 'Redis pub/sub: from publishing a live message to hearing it back from Redis (what the other processes wait at least)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1], registers,
    });
    this.mailSends = new Counter({
      name: 'auction_mail_sends_total',
      help: 'Mail send attempts by outcome: "sent", "retry" (refused or unreachable, tried again later) or "failed" (given up)',
      labelNames: ['result'], registers,
    });
    for (const result of ['sent', 'retry', 'failed']) this.mailSends.inc({ result }, 0);

    const { live } = sources;
    new Gauge({
      name: 'auction_live_sockets', help: 'Open live sockets by transport', labelNames: ['transport'], registers,
      collect() {
        for (const [transport, n] of Object.entries(live.sockets())) this.set({ transport }, n);
      },
    });
    mirrorCounter(this.registry, 'auction_live_frames_sent_total', 'Frames written to live sockets (one per socket a frame reached), by transport', 'transport', () => live.frames);
    mirrorCounter(this.registry, 'auction_live_frame_bytes_sent_total', 'Bytes of frame JSON written to live sockets, by transport', 'transport', () => live.frameBytes);
    mirrorCounter(this.registry, 'auction_live_slow_drops_total', 'Live sockets closed for not reading (over 1 MiB waiting to be sent), by transport', 'transport', () => live.slowDrops);
    new Gauge({
      name: 'auction_pg_pool_connections', help: 'PostgreSQL connections of this process: state="in_use" or "free" (absent on SQLite)', labelNames: ['state'], registers,
      collect() {
        const c = sources.connections();
        if (!c) return;
        this.set({ state: 'in_use' }, c.inUse);
        this.set({ state: 'free' }, c.size - c.inUse);
      },
    });
    new Gauge({
      name: 'auction_pg_pool_waiting', help: 'Statements and transactions waiting for a PostgreSQL connection of this process (0 on SQLite)', registers,
      collect() { this.set(sources.connections()?.waiting ?? 0); },
    });
    new Gauge({
      name: 'auction_scheduler_leader', help: '1 in the process that keeps the auction clock and sends the mail, else 0 (the sum over an installation is 1)', registers,
      collect() { this.set(sources.leading() ? 1 : 0); },
    });
    // The outbox is the installation's, not the process's: read by the sender only, merged by the maximum.
    const read = () => this.readOutbox();
    new Gauge({
      name: 'auction_mail_outbox_backlog', help: 'Mails in the outbox not yet sent nor given up (read by the process that sends them; 0 in the others)', registers, aggregator: 'max',
      async collect() { this.set((await read()).waiting); },
    });
    new Gauge({
      name: 'auction_mail_outbox_oldest_seconds', help: 'Age of the oldest mail not yet sent nor given up (0 when none; read by the process that sends them)', registers, aggregator: 'max',
      async collect() { this.set((await read()).oldestSeconds); },
    });
  }

  /**
   * One read for both gauges of a scrape (and for scrapes within a second), by the sending process
   * only, waiting at most 2 s: a database that is down or busy leaves the last value, and a count of it.
   */
  private async readOutbox(): Promise<{ waiting: number; oldestSeconds: number }> {
    if (!this.sources.leading()) return { waiting: 0, oldestSeconds: 0 };
    if (this.outboxRead === null && performance.now() - this.outboxReadAt > 1000) {
      this.outboxReadAt = performance.now();
      this.outboxRead = this.sources.outbox().then(
        (o) => { this.outbox = o; },
        () => { this.collectErrors.inc(); },
      ).finally(() => { this.outboxRead = null; });
    }
    if (this.outboxRead !== null) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => { timer = setTimeout(() => { this.collectErrors.inc(); resolve(); }, 2000); });
      await Promise.race([this.outboxRead, late]);
      clearTimeout(timer);
    }
    return this.outbox;
  }

  /** Both registries' series, for one process's answer. */
  async json() {
    return [...(await processMetrics().getMetricsAsJSON()), ...(await this.registry.getMetricsAsJSON())];
  }

  async text(): Promise<string> {
    return (await processMetrics().metrics()) + (await this.registry.metrics());
  }
}

/** The route label of a request: its pattern, with the client's files as one. */
export function routeLabel(url: string | undefined): string {
  if (url === undefined) return '<unmatched>';
  return url.startsWith('/api/') || url.startsWith('/media/') || url === '/metrics' ? url : '<static>';
}
