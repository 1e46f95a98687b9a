import type { Reads, SessionRow } from '../db/index.js';
import type { Role } from './tokens.js';

/** How long an active session row is trusted without reading it again (ms). */
export const SESSION_TTL_MS = 2_000;
/** Rows remembered at most; the oldest is forgotten first. */
const MAX_ENTRIES = 20_000;

type Entry = { row: SessionRow; until: number };

/**
 * The session check of every authenticated request (`status` and `token_version` of the account) from
 * memory: without it, each request read its account row first, the larger part of a one-row read's
 * cost.
 *
 * Only active accounts are remembered. Revocation stays immediate on this process: a password change
 * or a deactivation forgets the row (`forget`) when its command's events are published, before its
 * answer is sent, and a read that began before the change never stores what it found (a generation
 * counter). Another process forgets it when the change's disconnect message arrives over Redis, within
 * milliseconds; SESSION_TTL_MS bounds the time a revoked token could still be accepted there should
 * that message be lost.
 */
export class SessionCache {
  private readonly rows = new Map<string, Entry>();
  /** Bumped by every `forget`: a read that started under an older generation is not stored. */
  private generation = 0;

  constructor(private readonly reads: Pick<Reads, 'session'>, private readonly now: () => number = Date.now) {}

  async session(role: Role, id: number): Promise<SessionRow | null> {
    const key = `${role}:${id}`;
    const hit = this.rows.get(key);
    const now = this.now();
    if (hit && hit.until > now) return hit.row;
    if (hit) this.rows.delete(key);
    const started = this.generation;
    const row = await this.reads.session(role, id);
    if (row?.status === 'active' && this.generation === started) {
      if (this.rows.size >= MAX_ENTRIES) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(key, { row, until: now + SESSION_TTL_MS });
    }
    return row;
  }

  /** The account's row changed (password, status): the next request reads it again. */
  forget(role: Role, id: number) {
    this.generation++;
    this.rows.delete(`${role}:${id}`);
  }

  /**
   * Forgets every row: a revocation relayed from another process may have been lost (the relay had a
   * gap, live/hub.ts `onRelayGap`).
   */
  clear() {
    this.generation++;
    this.rows.clear();
  }

  /** How many rows are remembered, for tests. */
  get size() {
    return this.rows.size;
  }
}
