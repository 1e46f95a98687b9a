/**
 * One process of several elected to do a job (the scheduler), with a PostgreSQL session advisory lock
 * (docs/architecture.md, "The scheduler and its election"). Each process tries the lock every ELECTION_POLL_MS on a connection of its own; the
 * holder keeps it as long as that connection lives. A process that dies (even SIGKILL) closes its
 * connection, PostgreSQL releases the lock at once, and the next try of another process wins it:
 * a takeover within about a second. A holder that loses its connection (the database restarted, the
 * network dropped) stops the job before it tries again, so two processes never run it knowingly.
 */
import pg from 'pg';
import type { Election } from '../store.js';

export const ELECTION_POLL_MS = 1000;
const TIMEOUT_MS = 2000;

export class AdvisoryElection implements Election {
  private client: pg.Client | null = null;
  private leading = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  /** Tries run one at a time. */
  private busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly key: string,
    private readonly onChange: (leading: boolean) => void | Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  get isLeader() {
    return this.leading;
  }

  /** The first try; then one every ELECTION_POLL_MS until `stop`. */
  async start(): Promise<void> {
    await this.tryOnce();
    if (this.stopped) return;
    this.timer = setInterval(() => { void this.tryOnce(); }, ELECTION_POLL_MS);
    this.timer.unref();
  }

  private tryOnce(): Promise<void> {
    this.busy = this.busy.then(() => this.attempt());
    return this.busy;
  }

  private async attempt() {
    if (this.stopped) return;
    try {
      if (!this.client) {
        // Server-side keepalives: should this host vanish (power, network), PostgreSQL notices within
        // ~15 s and frees the lock, instead of after the OS default of about two hours.
        const keepalives = '-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=5';
        const options = [this.config.options, keepalives].filter(Boolean).join(' ');
        const client = new pg.Client({ ...this.config, options, connectionTimeoutMillis: TIMEOUT_MS, query_timeout: TIMEOUT_MS, keepAlive: true });
        // A dropped connection is noticed by the next statement; the event alone must not crash us.
        client.on('error', () => undefined);
        await client.connect();
        this.client = client;
      }
      if (this.leading) {
        // Still connected, so the lock is still ours.
        await this.client.query('select 1');
        return;
      }
      const { rows } = await this.client.query<{ won: boolean }>('select pg_try_advisory_lock(hashtext($1)) as won', [this.key]);
      if (rows[0]?.won && !this.stopped) {
        this.leading = true;
        await this.onChange(true);
      }
    } catch (err) {
      this.onError(err);
      await this.lose();
    }
  }

  private async lose() {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    if (this.leading) {
      this.leading = false;
      await this.onChange(false);
    }
  }

  /** Stops trying; a holder gives the lock back (by closing its connection) for another to take. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.busy;
    const client = this.client;
    this.client = null;
    this.leading = false;
    await client?.end().catch(() => undefined);
  }
}
