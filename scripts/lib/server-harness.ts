/**
 * The real server as a child process, and a second look at its database: shared by `npm run bench`
 * (scripts/bench.ts) and the end-to-end tests (e2e/server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { openStore, type MoneyAudit, type Store } from '../../server/src/db/index.js';

/** The repository root (with a trailing slash). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  proc: ChildProcess;
  /** What it wrote to stdout and stderr so far (nothing when they are inherited). */
  output: () => string;
  /** Sends a signal (unless it has exited) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `node <args>` from the repository root on a free port of 127.0.0.1 (rate limits off, log level
 * warn, then `env` over those and the caller's environment) and resolves once /api/health answers.
 * Throws if it exits first, or (killing it) if it is not healthy within 30 s.
 */
export async function spawnServer(opts: { args: string[]; env?: Record<string, string>; stdio?: 'pipe' | 'inherit' }): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  const stdio = opts.stdio ?? 'pipe';
  const proc = spawn(process.execPath, opts.args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ...opts.env },
    stdio: ['ignore', stdio, stdio],
  });
  proc.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become healthy in 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * A second connection to a database (a SQLite file or a PostgreSQL URL; the server may be running
 * on it), with the checks every process-level test makes: integrity, the money audit, ledger rows
 * against bids. It opens the store as a server would (so a crashed SQLite file is recovered first).
 */
export interface DbInspector {
  store: Store;
  integrity(): Promise<string>;
  audit(): Promise<MoneyAudit>;
  ledgerMismatches(): Promise<number>;
  bidCountMismatches(): Promise<number>;
  bid(id: number): Promise<{ id: number; productId: string; amount: number; status: string } | undefined>;
  rows<T>(q: string, ...params: (string | number)[]): Promise<T[]>;
  count(q: string, ...params: (string | number)[]): Promise<number>;
  close(): Promise<void>;
}

export async function inspectDb(databaseUrl: string): Promise<DbInspector> {
  const store = await openStore(databaseUrl);
  const rows = <T>(q: string, ...params: (string | number)[]) => store.query<T>(q, params);
  const count = async (q: string, ...params: (string | number)[]) => (await rows<{ n: number }>(q, ...params))[0]?.n ?? 0;
  return {
    store,
    integrity: () => store.integrityCheck(),
    audit: () => store.reads.auditMoney(),
    /**
     * Bids whose ledger rows do not match their status (docs/money.md#ledger-kinds): a placed bid
     * (success, outbid) has one `bid` row of its amount (the hold), an outbid one also one `refund` of
     * it (the release); a won one adds to its hold the settlement's release and payment (two `bid` rows
     * and one `refund`, three in all; a buy-now's payment is its only row); a failed one has none. (No
     * bid in these tests is cancelled, reinstated or a maximum, which would add rows.)
     */
    ledgerMismatches: () => count(`
      select count(*) as n from bids b where
        (select count(*) from wallet_transactions t where t.bid_id = b.id and t.type = 'bid' and t.amount = b.amount)
          <> (case when b.status in ('success', 'outbid') or b.buy_now then 1 when b.status = 'won' then 2 else 0 end)
        or (select count(*) from wallet_transactions t where t.bid_id = b.id and t.type = 'refund' and t.amount = b.amount)
          <> (case when b.status = 'outbid' or (b.status = 'won' and not b.buy_now) then 1 else 0 end)
        or (select count(*) from wallet_transactions t where t.bid_id = b.id)
          <> (case when b.buy_now then 1 when b.status = 'outbid' then 2 when b.status = 'won' then 3 when b.status = 'failed' then 0 else 1 end)`),
    /** Products in an auction whose cached bid count differs from what the bid count counts: accepted bids and automatic raises, not cancelled ones. */
    bidCountMismatches: () => count(`
      select count(*) as n from products p where p.auction_id is not null and p.bid_count <>
        (select count(*) from bids b where b.product_id = p.id and b.auction_id = p.auction_id and b.status not in ('failed', 'rolledback'))
        + (select count(*) from auto_bids x join bids b on b.id = x.bid_id where x.product_id = p.id and b.auction_id = p.auction_id and x.status = 'accepted')`),
    bid: async (id: number) => (await rows<{ id: number; productId: string; amount: number; status: string }>(
      'select id, product_id as "productId", amount, status from bids where id = ?', id))[0],
    rows,
    count,
    close: () => store.close(),
  };
}

/** The full money audit of a database (opened, audited, closed; after its server stopped). */
export async function auditDatabase(databaseUrl: string): Promise<MoneyAudit> {
  const db = await inspectDb(databaseUrl);
  try {
    return await db.audit();
  } finally {
    await db.close();
  }
}
