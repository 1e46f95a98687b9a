/**
 * The server `npm run bench` measures (scripts/bench.ts): the production build on a fresh store of its
 * own (a SQLite file in a temporary folder, or a fresh schema in DATABASE_URL's PostgreSQL database),
 * and its resident memory from /proc.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshTestDatabase } from '../../../server/src/db/testing.js';
import { spawnServer } from '../server-harness.js';

export interface Server { url: string; pid: number | undefined; databaseUrl: string | null; stop: () => Promise<void>; cleanup: () => Promise<void> }

export interface StartOptions {
  store: 'postgres' | 'sqlite';
  /** Node flags for the server (`--server-args`), space-separated. */
  serverArgs: string;
  /** LIVE_FRAME_MS of the server (`--live-frame-ms`); null: the server's own default. */
  liveFrameMs: number | null;
}

export async function startServer({ store, serverArgs, liveFrameMs }: StartOptions): Promise<Server> {
  const { ensureBuilt } = await import('../../build.mjs') as { ensureBuilt: (o: { quiet: boolean; client: boolean }) => Promise<void> };
  // The API is what is measured: the client bundle is not needed.
  await ensureBuilt({ quiet: true, client: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-bench-'));
  // A fresh PostgreSQL schema in DATABASE_URL's database, or a SQLite file in a temporary folder.
  const postgres = store === 'postgres' ? freshTestDatabase('postgres', process.env.DATABASE_URL, { durable: true }) : null;
  const databaseUrl = postgres?.url ?? path.join(dir, 'bench.db');
  const server = await spawnServer({
    args: [...serverArgs.split(' ').filter(Boolean), 'server/dist/index.js'],
    // The watchers and the load all come from 127.0.0.1: no cap per address (docs/deploy.md).
    env: { DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(32).toString('hex'), MAX_CONNECTIONS_PER_IP: '0', ...(liveFrameMs === null ? {} : { LIVE_FRAME_MS: String(liveFrameMs) }) },
    stdio: 'inherit',
  });
  return {
    url: server.url, pid: server.proc.pid, databaseUrl,
    stop: async () => { await server.stop(); },
    cleanup: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

export function rssMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number | null {
  if (!pid) return null;
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}
