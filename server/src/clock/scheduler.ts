/**
 * Auction timekeeping: `auction:ending` 1 h, 5 min and 1 min before the end, `auction:ended` at the
 * end, then settlement (AUTO_SETTLE). Only the next few due times live in memory: one indexed query
 * loads the auctions ending within the horizon, one timer waits for the earliest, and any catalogue
 * change re-reads them. It survives restarts (what ended while down is settled on start) and follows
 * edits of `valid_until` (a moved end re-arms; each milestone of a given end fires once). A settlement
 * that fails (the database busy past its timeout) is retried every second until it succeeds.
 * Reloads and milestones run one at a time, in order (one chain of promises).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Reads } from '../db/index.js';
import { settleAuction } from '../domain/catalogue.js';
import type { Commands } from '../domain/commands.js';
import type { EventBus } from '../domain/events.js';

import { ENDING_NOTICES } from '../live/watch.js';
import { ENDING_SOON_S, noticeEndingSoon } from '../domain/notices.js';

interface Due {
  at: number;
  auctionId: string;
  ownerId: number;
  validUntil: number;
  /** Seconds before the end for a notice; 0 for the end itself. */
  notice: number;
  /** A retry of a settlement that failed: `auction:ended` has gone out already. */
  settleOnly?: boolean;
}

/** How long after a failed automatic settlement (e.g. the database busy) it is tried again. */
const SETTLE_RETRY_MS = 1000;

const HORIZON_MS = 2 * 3600_000;
/** Auctions read per milestone level and load; more are read as the clock reaches them. */
const DEFAULT_BATCH = 200;
/** A notice whose moment passed more than this long ago (e.g. while the server was down) is skipped. */
const NOTICE_GRACE_MS = 2000;
/** The events that may move or remove an end, after which the milestones are read again. */
const RELOADING_EVENTS = ['auction:created', 'auction:updated', 'auction:deleted', 'auction:settled', 'auction:extended'] as const;
/**
 * Milestones per auction: the room notices, the bidders' "ending soon" notifications 10 minutes
 * before the end (written, not announced: docs/notifications.md), then the end itself (0).
 */
const LEVELS = [...ENDING_NOTICES, ENDING_SOON_S, 0] as const;

type Cursor = { validUntil: number; id: string };

export class AuctionScheduler {
  private due: Due[] = [];
  /** Milestones already fired (key → moment), forgotten once far in the past. */
  private readonly fired = new Map<string, number>();
  /** Settlements to try again, by auction; kept across reloads. */
  private readonly retries = new Map<string, Due>();
  /**
   * Per level (seconds before the end), where reading continues: every milestone of that level
   * before `windowEnd` has been read; the rest are read, a batch at a time, when the clock gets there.
   */
  private cursors = new Map<number, Cursor | null>();
  private timer: NodeJS.Timeout | null = null;
  private windowEnd = 0;
  private reloadQueued = false;
  private unsubscribe: (() => void) | null = null;
  private running = false;
  /** Every reload and tick runs after the one before it. */
  private chain: Promise<void> = Promise.resolve();
  private readonly batch: number;

  constructor(private readonly opts: { reads: Reads; commands: Commands; events: EventBus; now: () => number; autoSettle: boolean; log: FastifyBaseLogger; batch?: number }) {
    this.batch = opts.batch ?? DEFAULT_BATCH;
  }

  /** Resolves once the first load is done and the clock is armed. */
  start(): Promise<void> {
    if (this.running) return this.chain;
    this.running = true;
    this.unsubscribe = this.opts.events.onBatch(RELOADING_EVENTS, () => this.queueReload());
    return this.serial(() => this.reload(true));
  }

  /** Stops the clock; resolves once a milestone already running (a settlement) has finished. */
  stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.chain;
  }

  /** A catalogue change made by another process: re-read what ends next. */
  changed() {
    if (this.running) this.queueReload();
  }

  /** Whether this process keeps the clock now (one process of several does: `Store.elect`). */
  get active() {
    return this.running;
  }

  /** Next due moments, for tests and diagnostics. */
  pending(): readonly Due[] {
    return this.due;
  }

  private serial(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((err: unknown) => this.opts.log.error({ err }, 'scheduler: step failed'));
    return this.chain;
  }

  private queueReload() {
    if (this.reloadQueued) return;
    this.reloadQueued = true;
    setImmediate(() => {
      this.reloadQueued = false;
      if (this.running) void this.serial(() => this.reload(true));
    });
  }

  private key(d: Pick<Due, 'auctionId' | 'validUntil' | 'notice'>) {
    return `${d.auctionId}@${d.validUntil}:${d.notice}`;
  }

  /**
   * Reads milestones: `fresh` (start, a catalogue change) from now on, every level anew; otherwise
   * (the clock reached the end of what was read) each level from its cursor. Each level reads at most
   * one batch, so memory holds a bounded window however many auctions end soon.
   */
  private async reload(fresh = false) {
    if (!this.running) return;
    const now = this.opts.now();
    const until = now + HORIZON_MS;
    if (fresh) {
      for (const [key, at] of this.fired) if (at < now - HORIZON_MS) this.fired.delete(key);
      this.cursors = new Map();
    }
    const loaded: Due[] = [];
    let windowEnd = until;
    try {
      for (const notice of LEVELS) {
        const ms = notice * 1000;
        let after = this.cursors.get(notice);
        if (after === undefined) {
          // From now on (a notice whose moment passed a moment ago still goes out); without
          // auto-settle, auctions that ended long ago stay unsettled, so only ends from now on either.
          after = notice === 0 && this.opts.autoSettle ? null : { validUntil: now - NOTICE_GRACE_MS + ms, id: '' };
        }
        const rows = await this.opts.reads.auctionsEndingBy(until + ms, after, this.batch);
        for (const r of rows) {
          const d: Due = { at: r.validUntil - ms, auctionId: r.id, ownerId: r.ownerId, validUntil: r.validUntil, notice };
          if (!this.fired.has(this.key(d))) loaded.push(d);
        }
        const last = rows.at(-1);
        if (last) this.cursors.set(notice, { validUntil: last.validUntil, id: last.id });
        else this.cursors.set(notice, after);
        // A full batch: this level may have more, from the last one read; read them when the clock gets there.
        if (rows.length === this.batch) windowEnd = Math.min(windowEnd, last!.validUntil - ms);
      }
    } catch (err) {
      // The store is unreachable or busy: keep what is known and look again in a second.
      this.opts.log.error({ err }, 'scheduler: could not load the next endings');
      this.windowEnd = now + SETTLE_RETRY_MS;
      this.cursors = new Map();
      this.arm();
      return;
    }
    this.windowEnd = windowEnd;
    const keep = fresh ? [] : this.due.filter((d) => !d.settleOnly);
    const byKey = new Map([...keep, ...loaded].map((d) => [this.key(d), d]));
    this.due = [...byKey.values(), ...this.retries.values()].sort((a, b) => a.at - b.at || b.notice - a.notice);
    this.arm();
  }

  private arm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.running) return;
    const next = Math.min(this.due[0]?.at ?? Infinity, this.windowEnd);
    const delay = Math.max(0, Math.min(next - this.opts.now(), 2 ** 31 - 1));
    this.timer = setTimeout(this.tick, delay);
  }

  private readonly tick = () => {
    this.timer = null;
    void this.serial(async () => {
      const now = this.opts.now();
      while (this.running && this.due[0] && this.due[0].at <= now) {
        const d = this.due.shift()!;
        this.fired.set(this.key(d), d.at);
        this.retries.delete(d.auctionId);
        try {
          await this.fire(d, now);
        } catch (err) {
          this.opts.log.error({ err, auctionId: d.auctionId }, 'scheduler: milestone failed');
          if (d.notice === 0 && this.opts.autoSettle) this.retry({ ...d, at: now + SETTLE_RETRY_MS, settleOnly: true });
        }
      }
      // Past the end of what was read: read on from the cursors (a catalogue change starts afresh).
      if (now >= this.windowEnd) await this.reload(this.cursors.size === 0);
      else this.arm();
    });
  };

  private retry(d: Due) {
    this.retries.set(d.auctionId, d);
    const i = this.due.findIndex((x) => x.at > d.at);
    this.due.splice(i === -1 ? this.due.length : i, 0, d);
  }

  private async fire(d: Due, now: number) {
    const { commands, reads } = this.opts;
    // The end may have moved (or the auction gone) since this was loaded: act only on the current end.
    const current = await reads.auctionEnd(d.auctionId);
    if (!current || current.validUntil !== d.validUntil || current.settledAt !== null || current.deletedAt !== null) {
      // Moved by an edit this process may not have heard of (another process's): load the new end.
      if (current && current.settledAt === null && current.deletedAt === null) this.queueReload();
      return;
    }
    if (d.notice > 0) {
      // Reached late (the server was busy or down past the end): no "ending" for an auction that ended.
      if (now >= d.validUntil) return;
      if (d.notice === ENDING_SOON_S) {
        // Once per bidder and end, even if a restart or another process fires it again (a dedupe key).
        await commands.run((tx) => noticeEndingSoon(tx, { auctionId: d.auctionId, validUntil: d.validUntil }, now));
        return;
      }
      commands.announce([{ type: 'auction:ending', auctionId: d.auctionId, ownerId: d.ownerId, secondsLeft: d.notice }]);
      return;
    }
    if (!d.settleOnly) commands.announce([{ type: 'auction:ended', auctionId: d.auctionId, ownerId: d.ownerId }]);
    if (!this.opts.autoSettle) return;
    const result = await commands.run((tx) => settleAuction(tx, { auctionId: d.auctionId }, () => Math.max(now, this.opts.now())));
    // Already settled by its admin, deleted meanwhile, or extended by a late bid (re-armed by its event): nothing to do.
    if (result.ok) this.opts.log.info({ auctionId: d.auctionId, sold: result.sold.length, unsold: result.unsold.length }, 'auction settled automatically');
  }
}
