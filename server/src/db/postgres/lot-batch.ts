/**
 * PostgreSQL's lot lanes: the bids (and buys) on one lot that queue in this process are decided
 * together, in arrival order, in one transaction of at most three round trips, whatever their number
 * (docs/performance.md, "PostgreSQL at its database's speed"):
 *
 *   1. `begin; select lot_context(…)`: the lot locked, then everything deciding them reads (its auction
 *      and leading bid, every bidder's wallet locked in ascending id order, registrations, cancels) and
 *      ids for the rows they may write;
 *   2. each command decides against `LotBatch`, an in-memory model of the lot that the commands' own
 *      writes keep current (the same `prepareBid`/`prepareBuyNow` as everywhere, the same pure rules);
 *   3. `select apply_lot_batch(…); commit`: every write of the batch in one function call, then the commit.
 *
 * The functions are in functions/ beside this file (versioned, applied at open). Each command still gets its own answer: a
 * refusal refuses only that command. A command the model cannot serve (a bid naming its product by name,
 * anything touching another lot or another wallet) is handed back (`run` resolves null) and runs as a
 * unit of work of its own; a command that throws is taken out and the batch runs again without it.
 * Deadlocks and serialization failures run the whole batch again, as the store does for a transaction.
 */
import { isStorableId, type AuctionRow, type BidRow, type NotificationRow, type ProductRow, type TransactionRow } from '../rows.js';
import type { SqlRunner } from '../sql.js';
import { FINAL_NOTICE_KINDS, NOTICES_KEPT } from '@auction/shared';
import type { Applied, ChangeSet, ProductChanges } from '../change-set/types.js';
import type { Follower, Hold } from '../lots/types.js';
import type { AppliedNotice, NoticeDraft } from '../notices/types.js';
import type { LotUnitOfWork } from '../store.js';
import type { Wallet } from '../wallet/types.js';
import { orderNotices } from '../notices/write.js';
import { SqlUnitOfWork } from '../unit-of-work.js';
import { postgresDialect } from './runner.js';

/** Commands decided in one batch at most; the rest wait for the next. */
export const MAX_BATCH = 64;

/** A command the batch cannot serve: it runs as a unit of work of its own. */
export class NotInBatch extends Error {}

/** What lot_context returns. */
export interface LotContext extends CallersContext {
  product: ProductRow;
  auction: AuctionRow | null;
  leader: BidRow | null;
}

/** What lot_context reads for its callers, and lot_context_more for callers who join later. */
export interface CallersContext {
  wallets: Wallet[];
  registered: number[];
  cancelled: number[];
  bidIds: number[];
  ledgerIds: number[];
}

/** A bid that was there before the batch, as the batch leaves it (apply_lot_batch's `bids`). */
interface BidUpdate {
  status: BidRow['status'];
  reason?: string | null;
  amount?: number;
  maxAmount?: number | null;
  held?: number;
  updatedAt: number;
}

const PRODUCT_FIELDS = new Set<keyof ProductChanges>(['version', 'bidCount', 'status', 'soldPrice', 'winnerId']);

/**
 * The lot as a batch's commands see it: read once, locked, and kept current by their writes, which it
 * buffers for `payload`. Serves the reads bidding and buying now make (LotUnitOfWork); anything else
 * throws NotInBatch.
 */
export class LotBatch implements LotUnitOfWork {
  private readonly product: ProductRow;
  private readonly auction: AuctionRow | null;
  /** The lot's bids the batch knows: the leader it found, and every bid it wrote. */
  private readonly bids = new Map<number, BidRow>();
  private leaderId: number | null;
  private readonly wallets = new Map<number, Wallet>();
  /** Whose wallets lot_context locked: the commands' callers and the leader it found. */
  private readonly locked: Set<number>;
  private readonly registered: Set<number>;
  private readonly cancelled: Set<number>;
  private readonly bidIds: number[];
  private readonly ledgerIds: number[];
  /** Bids that stopped leading in this batch and may lead again (the runner-up's candidates). */
  private readonly outbid: { userId: number; top: number }[] = [];
  /** The best two bidders' tops among the lot's outbid bids before the batch, read when first needed. */
  private stored: { userId: number; top: number }[] | null = null;

  // What the batch writes.
  private readonly updates = new Map<number, BidUpdate>();
  private readonly newBids = new Map<number, BidRow>();
  private readonly autoBids: { bidId: number; productId: string; amount: number; createdAt: number }[] = [];
  private readonly deltas = new Map<number, number>();
  private readonly ledger: TransactionRow[] = [];
  private productTouched = false;
  private auctionTouched = false;
  /** Notices drafted, with the Applied of the command that drafted them (its notices are filled in after the write). */
  private readonly notices: { draft: NoticeDraft; applied: Applied }[] = [];
  /** When each notice was drafted (its command's time) and each new bid's amount as placed. */
  private readonly draftedAt = new Map<NoticeDraft, number>();
  private readonly placedAt = new Map<number, number>();

  constructor(context: LotContext, private readonly sql: SqlRunner, callers: readonly number[]) {
    this.product = { ...context.product };
    this.auction = context.auction && { ...context.auction };
    this.leaderId = context.leader?.id ?? null;
    if (context.leader) this.bids.set(context.leader.id, { ...context.leader });
    for (const w of context.wallets) this.wallets.set(w.id, { ...w });
    this.locked = new Set([...callers, ...(context.leader ? [context.leader.userId] : [])]);
    this.registered = new Set(context.registered);
    this.cancelled = new Set(context.cancelled);
    this.bidIds = [...context.bidIds];
    this.ledgerIds = [...context.ledgerIds];
  }

  // ---- reads ------------------------------------------------------------------------------------

  async lockProduct(id: string) {
    if (id !== this.product.id) return null;
    return { product: { ...this.product }, auction: this.auction && { ...this.auction } };
  }

  async openProductsByName(): Promise<{ id: string; registered: boolean }[]> {
    throw new NotInBatch('a product named, not given by id');
  }

  async leader(productId: string): Promise<Hold | null> {
    this.ownLot(productId);
    const b = this.leaderId === null ? null : this.bids.get(this.leaderId)!;
    return b && { bidId: b.id, userId: b.userId, amount: b.amount, maxAmount: b.maxAmount, held: b.held };
  }

  async lockWallets(userIds: readonly number[]): Promise<Map<number, Wallet>> {
    const found = new Map<number, Wallet>();
    for (const id of new Set(userIds)) {
      if (!isStorableId(id)) continue;
      if (!this.locked.has(id)) throw new NotInBatch(`wallet ${id} was not locked for the batch`);
      const w = this.wallets.get(id);
      if (w) found.set(id, { ...w });
    }
    return found;
  }

  async isRegistered(auctionId: string, userId: number): Promise<boolean> {
    if (auctionId !== this.auction?.id || !this.locked.has(userId)) throw new NotInBatch('a registration the batch did not read');
    return this.registered.has(userId);
  }

  async runnerUpTop(productId: string, auctionId: string, userId: number): Promise<number | null> {
    this.ownLot(productId);
    // Outbid bids before the batch cannot change within it (only a cancel or a deactivation would
    // change them, and neither runs in a batch): read once, the best two bidders, so one may be left out.
    this.stored ??= await this.sql.all<{ userId: number; top: number }>(
      `select b.user_id as "userId", max(coalesce(b.max_amount, b.amount)) as top from bids b
       join users u on u.id = b.user_id
       join registrations r on r.auction_id = b.auction_id and r.user_id = b.user_id
       where b.product_id = ? and b.auction_id = ? and b.status = 'outbid' and u.status = 'active'
         and not exists (select 1 from bids c where c.product_id = b.product_id and c.auction_id = b.auction_id and c.user_id = b.user_id and c.status = 'rolledback')
       group by b.user_id order by top desc limit 2`,
      [productId, auctionId],
    );
    let top: number | null = null;
    for (const c of [...this.stored, ...this.outbid]) if (c.userId !== userId && (top === null || Number(c.top) > top)) top = Number(c.top);
    return top;
  }

  async followersOf(auctionId: string, opts: { productIds?: readonly string[]; savers?: boolean } = {}): Promise<Follower[]> {
    const stored = await new SqlUnitOfWork(this.sql, postgresDialect).followersOf(auctionId, opts);
    // The batch's own bids are not written yet: their bidders follow the lot too.
    const mine = auctionId === this.auction?.id && (opts.productIds === undefined || opts.productIds.includes(this.product.id));
    if (!mine) return stored;
    const key = (f: Pick<Follower, 'userId' | 'productId'>) => `${f.userId}|${f.productId}`;
    const byKey = new Map(stored.map((f) => [key(f), f]));
    for (const b of this.newBids.values()) {
      if (b.status === 'failed') continue;
      const f = byKey.get(key(b));
      if (f) f.bid = true;
      else byKey.set(key(b), { userId: b.userId, productId: b.productId, productName: this.product.name, bid: true });
    }
    return [...byKey.values()].sort((a, b) => a.userId - b.userId || (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  }

  async bidWithContext(bidId: number) {
    const bid = this.bids.get(bidId);
    if (!bid || !this.auction) throw new NotInBatch(`bid ${bidId} is not one the batch knows`);
    return { bid: { ...bid }, productName: this.product.name, auction: { ...this.auction } };
  }

  // ---- writes -----------------------------------------------------------------------------------

  /** Applies a command's change set to the model and buffers its writes; the Applied's notices are filled in by `written`. */
  async apply(changes: ChangeSet, now: number): Promise<Applied> {
    return this.applyNow(changes, now);
  }

  applyNow(changes: ChangeSet, now: number): Applied {
    if ((changes.autoBidsRolledBack ?? []).length > 0) throw new NotInBatch('cancelling automatic raises');
    for (const a of changes.auctions ?? []) {
      if (a.id !== this.auction?.id || Object.keys(a.set).some((k) => k !== 'validUntil')) throw new NotInBatch('an auction change other than its end');
    }
    for (const p of changes.products ?? []) {
      this.ownLot(p.id);
      if (Object.keys(p.set).some((k) => !PRODUCT_FIELDS.has(k as keyof ProductChanges))) throw new NotInBatch('a product change a bid does not make');
    }
    for (const m of changes.moves ?? []) if (!this.wallets.has(m.userId)) throw new NotInBatch(`wallet ${m.userId} was not locked for the batch`);
    for (const b of changes.bids ?? []) if (!this.bids.has(b.id)) throw new NotInBatch(`bid ${b.id} is not one the batch knows`);
    if (changes.newBid && changes.newBid.productId !== this.product.id) throw new NotInBatch('a bid on another lot');

    for (const b of changes.bids ?? []) {
      const bid = this.bids.get(b.id)!;
      const wasLeading = bid.status === 'success';
      bid.status = b.status;
      if (b.reason !== undefined) bid.reason = b.reason;
      if (b.amount !== undefined) bid.amount = b.amount;
      if (b.maxAmount !== undefined) bid.maxAmount = b.maxAmount;
      if (b.held !== undefined) bid.held = b.held;
      bid.updatedAt = now;
      if (!this.newBids.has(b.id)) {
        const u = this.updates.get(b.id) ?? { status: b.status, updatedAt: now };
        u.status = b.status;
        u.updatedAt = now;
        if (b.reason !== undefined) u.reason = b.reason;
        if (b.amount !== undefined) u.amount = b.amount;
        if (b.maxAmount !== undefined) u.maxAmount = b.maxAmount;
        if (b.held !== undefined) u.held = b.held;
        this.updates.set(b.id, u);
      }
      this.lead(bid, wasLeading);
    }
    let newBid: BidRow | null = null;
    if (changes.newBid) {
      const b = changes.newBid;
      const id = this.bidIds.shift();
      if (id === undefined) throw new Error('lot batch: no bid id left');
      const row: BidRow = {
        id, userId: b.userId, productId: b.productId, auctionId: b.auctionId, amount: b.amount, maxAmount: b.maxAmount ?? null, held: b.held ?? 0, buyNow: b.buyNow ?? false,
        extendedFrom: b.extendedFrom ?? null, extendedTo: b.extendedTo ?? null, status: b.status, reason: b.reason, createdAt: now, updatedAt: now,
      };
      this.bids.set(id, row);
      this.newBids.set(id, row);
      this.placedAt.set(id, b.amount);
      this.lead(row, false);
      newBid = { ...row };
    }
    for (const a of changes.autoBids ?? []) this.autoBids.push({ ...a, createdAt: now });
    const transactions: TransactionRow[] = [];
    const balances = new Map<number, number>();
    for (const m of changes.moves ?? []) {
      const wallet = this.wallets.get(m.userId)!;
      const delta = m.type === 'bid' ? -m.amount : m.amount;
      if (wallet.balance + delta < 0) throw new Error(`lot batch: wallet ${m.userId} would go below zero`);
      wallet.balance += delta;
      this.deltas.set(m.userId, (this.deltas.get(m.userId) ?? 0) + delta);
      const id = this.ledgerIds.shift();
      if (id === undefined) throw new Error('lot batch: no ledger id left');
      const bidId = m.bidId === 'new' ? newBid?.id ?? null : m.bidId ?? null;
      if (m.bidId === 'new' && bidId === null) throw new Error('lot batch: a move names a new bid the change set does not have');
      const row: TransactionRow = { id, userId: m.userId, type: m.type, amount: m.amount, bidId, productId: m.productId ?? null, notes: m.notes ?? null, createdAt: now };
      this.ledger.push(row);
      transactions.push(row);
      balances.set(m.userId, wallet.balance);
    }
    for (const p of changes.products ?? []) {
      Object.assign(this.product, p.set, { updatedAt: now });
      this.productTouched = true;
    }
    for (const a of changes.auctions ?? []) {
      Object.assign(this.auction!, a.set, { updatedAt: now });
      this.auctionTouched = true;
    }
    const applied: Applied = { newBid, transactions, balances, notices: [] };
    for (const draft of changes.notices ?? []) {
      this.notices.push({ draft, applied });
      this.draftedAt.set(draft, now);
    }
    return applied;
  }

  /** Follows who leads, and who may lead again should the leader's bid be cancelled. */
  private lead(bid: BidRow, wasLeading: boolean) {
    if (bid.status === 'success') {
      if (this.leaderId !== null && this.leaderId !== bid.id) throw new Error(`lot batch: bid ${bid.id} would lead beside bid ${this.leaderId}`);
      this.leaderId = bid.id;
      return;
    }
    if (this.leaderId === bid.id) this.leaderId = null;
    const w = this.wallets.get(bid.userId);
    const mayLead = w?.status === 'active' && this.registered.has(bid.userId) && !this.cancelled.has(bid.userId);
    if (bid.status === 'outbid' && (wasLeading || this.newBids.has(bid.id)) && mayLead) {
      this.outbid.push({ userId: bid.userId, top: bid.maxAmount ?? bid.amount });
    }
  }

  private ownLot(productId: string) {
    if (productId !== this.product.id) throw new NotInBatch('another lot');
  }

  /** Whether the batch wrote anything. */
  get dirty(): boolean {
    return this.newBids.size > 0 || this.updates.size > 0 || this.ledger.length > 0 || this.productTouched || this.auctionTouched || this.notices.length > 0;
  }

  /** apply_lot_batch's argument. */
  payload(): { value: Record<string, unknown>; order: { replace: NoticeDraft[]; skip: NoticeDraft[] } } {
    const order = orderNotices(this.notices.map((n) => n.draft));
    const notice = (d: NoticeDraft, ord: number) => ({ ord, user_id: d.userId, kind: d.kind, title: d.title, body: d.body, link: d.link, dedupe: d.dedupe ?? null, created_at: this.draftedAt.get(d) });
    const p = this.product;
    const value: Record<string, unknown> = {
      bids: [...this.updates].map(([id, u]) => ({
        id, status: u.status, set_reason: u.reason !== undefined, reason: u.reason ?? null, amount: u.amount ?? null,
        set_max: u.maxAmount !== undefined, max_amount: u.maxAmount ?? null, held: u.held ?? null, updated_at: u.updatedAt,
      })),
      newBids: [...this.newBids.values()].map((b) => ({
        id: b.id, user_id: b.userId, product_id: b.productId, auction_id: b.auctionId, amount: b.amount, placed_amount: this.placedAt.get(b.id) ?? b.amount,
        max_amount: b.maxAmount, held: b.held, buy_now: b.buyNow, status: b.status, reason: b.reason, extended_from: b.extendedFrom, extended_to: b.extendedTo,
        created_at: b.createdAt, updated_at: b.updatedAt,
      })),
      autoBids: this.autoBids.map((a, ord) => ({ ord, bid_id: a.bidId, product_id: a.productId, amount: a.amount, created_at: a.createdAt })),
      wallets: [...this.deltas].filter(([, d]) => d !== 0).map(([id, delta]) => ({ id, delta, expect: this.wallets.get(id)!.balance })),
      ledger: this.ledger.map((t) => ({ id: t.id, user_id: t.userId, type: t.type, amount: t.amount, bid_id: t.bidId, product_id: t.productId, notes: t.notes, created_at: t.createdAt })),
      ...(this.productTouched ? { product: { id: p.id, status: p.status, bid_count: p.bidCount, version: p.version, sold_price: p.soldPrice, winner_id: p.winnerId, updated_at: p.updatedAt } } : {}),
      ...(this.auctionTouched ? { auction: { id: this.auction!.id, valid_until: this.auction!.validUntil, updated_at: this.auction!.updatedAt } } : {}),
      replace: order.replace.map(notice),
      skip: order.skip.map(notice),
      kept: NOTICES_KEPT,
      finals: FINAL_NOTICE_KINDS,
    };
    // Only what the batch has: each part apply_lot_batch finds missing costs it nothing.
    for (const [key, v] of Object.entries(value)) if (Array.isArray(v) && v.length === 0) delete value[key];
    return { value, order };
  }

  /** Hands the notices apply_lot_batch wrote to the commands that drafted them, with their users' unread counts. */
  written(rows: readonly StoredNotice[], unread: Record<string, number>, order: { replace: NoticeDraft[]; skip: NoticeDraft[] }) {
    const owner = new Map(this.notices.map((n) => [n.draft, n.applied]));
    const byKey = new Map<string, NoticeDraft>();
    for (const d of [...order.replace, ...order.skip]) if (d.dedupe !== undefined && d.dedupe !== null) byKey.set(`${d.userId}|${d.dedupe}`, d);
    const plain = order.skip.filter((d) => d.dedupe === undefined || d.dedupe === null);
    let nextPlain = 0;
    for (const r of rows) {
      const draft = r.dedupe === null ? plain[nextPlain++] : byKey.get(`${r.user_id}|${r.dedupe}`);
      const applied = draft && owner.get(draft);
      if (!applied) throw new Error('lot batch: a notice was written that no command drafted');
      const row: NotificationRow = {
        id: r.id, userId: r.user_id, kind: r.kind, title: r.title, body: r.body, link: r.link, dedupe: r.dedupe, createdAt: Number(r.created_at), readAt: r.read_at === null ? null : Number(r.read_at),
      };
      applied.notices.push({ row, unread: Number(unread[String(r.user_id)] ?? 0) } satisfies AppliedNotice);
    }
    // A standing notice replaced by a later command of the batch was still that command's notice when it
    // was decided: its command tells it as one at a time would have (the same row, its own words), and
    // the later one then replaces it, as on the bidder's screen.
    const winners = new Set([...order.replace, ...order.skip]);
    const rowOf = new Map(rows.filter((r) => r.dedupe !== null).map((r) => [`${r.user_id}|${r.dedupe}`, r]));
    for (const { draft, applied } of this.notices) {
      if (winners.has(draft) || !draft.replace || draft.dedupe === undefined || draft.dedupe === null) continue;
      const final = rowOf.get(`${draft.userId}|${draft.dedupe}`);
      if (!final) continue;
      const row: NotificationRow = {
        id: final.id, userId: draft.userId, kind: draft.kind, title: draft.title, body: draft.body, link: draft.link, dedupe: draft.dedupe,
        createdAt: this.draftedAt.get(draft)!, readAt: null,
      };
      applied.notices.push({ row, unread: Number(unread[String(draft.userId)] ?? 0) });
    }
    for (const { applied } of this.notices) applied.notices.sort((a, b) => a.row.id - b.row.id);
  }
}

/** A notification row as apply_lot_batch returns it (to_jsonb of the table's row). */
export interface StoredNotice {
  id: number;
  user_id: number;
  kind: NotificationRow['kind'];
  title: string;
  body: string;
  link: string;
  dedupe: string | null;
  created_at: number | string;
  read_at: number | string | null;
}
