/**
 * One process of several keeps the auction clock (docs/architecture.md#the-scheduler-and-its-election-serversrcliveschedulerts): a PostgreSQL session advisory lock,
 * tried every second. Stores here stand for processes on one database schema.
 */
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore, type Election, type Store } from '../index.js';
import { freshTestDatabase, TEST_POSTGRES_URL } from '../testing.js';
import { ELECTION_POLL_MS } from './election.js';

const database = freshTestDatabase('postgres');
const reachable = process.env.TEST_POSTGRES === 'available';
const opened: { store: Store; election?: Election }[] = [];

afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.election?.stop();
    await o.store.close();
  }
});
afterAll(async () => { if (reachable) await database.drop(); });

/** A "process": its store and the log of its leadership changes. */
async function member(schemaUrl = database.url) {
  const store = await openStore(schemaUrl, { pgPool: 2 });
  const changes: boolean[] = [];
  const o: { store: Store; election?: Election; changes: boolean[] } = { store, changes };
  opened.push(o);
  o.election = await store.elect('scheduler', (leading) => { changes.push(leading); }, () => undefined);
  return o;
}

const until = async (cond: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.runIf(reachable)('electing the process that keeps the clock', () => {
  it('exactly one of three leads; when it stops, another takes over within about a second', async () => {
    const members = [await member(), await member(), await member()];
    expect(members.map((m) => m.election!.isLeader)).toEqual([true, false, false]);
    expect(members[0]!.changes).toEqual([true]);
    const t0 = Date.now();
    await members[0]!.election!.stop();
    await until(() => members.some((m) => m !== members[0] && m.election!.isLeader), 3 * ELECTION_POLL_MS);
    expect(Date.now() - t0).toBeLessThan(2.5 * ELECTION_POLL_MS);
    expect(members.filter((m) => m.election!.isLeader)).toHaveLength(1);
  });

  it('a leader whose connection is cut stops leading, and leadership passes on', async () => {
    const a = await member();
    const b = await member();
    expect(a.election!.isLeader).toBe(true);
    // The database drops the leader's connection (a restart, a network cut, an operator).
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const schema = new URL(database.url).searchParams.get('schema')!;
      const held = await admin.query<{ pid: number }>(
        `select l.pid from pg_locks l where l.locktype = 'advisory' and l.granted and l.objid = (hashtext($1)::bigint & 4294967295)::oid`,
        [`auction:scheduler:${schema}`],
      );
      expect(held.rows).toHaveLength(1);
      await admin.query('select pg_terminate_backend($1)', [held.rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await until(() => a.changes.includes(false), 5 * ELECTION_POLL_MS);
    await until(() => a.election!.isLeader !== b.election!.isLeader, 5 * ELECTION_POLL_MS);
    expect([a, b].filter((m) => m.election!.isLeader)).toHaveLength(1);
  });

  it('stores in other schemas of the same database elect their own', async () => {
    const other = freshTestDatabase('postgres');
    try {
      const a = await member();
      const b = await member(other.url);
      expect([a.election!.isLeader, b.election!.isLeader]).toEqual([true, true]);
      await b.election!.stop();
      await b.store.close();
      opened.splice(opened.indexOf(b), 1);
    } finally {
      await other.drop();
    }
  });
});
