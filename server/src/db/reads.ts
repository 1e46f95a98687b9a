/**
 * The read side of both stores: one statement per answer, never one per row, in SQL that SQLite and
 * PostgreSQL both accept. Reads see committed data only.
 */
import { WHOLE_LIST_MAX } from '@auction/shared';
import type { Dialect, Param, SqlRunner } from './sql.js';
import type { MailRow } from './store.js';
import { lotSearchPage, type LotSearch, type LotSearchKey } from './search/lot-search.js';

export type { LotSearch, LotSearchKey } from './search/lot-search.js';
import { notificationColumns, type NotificationRow, type ProductImageRow } from './rows.js';
import { asAdmin, columns, isStorableId, type AccountStatus, type AdminRow, type BidStatus, type CancelPolicy, type IncrementRule, type ProductStatus, type Role, type TransactionRow, type UserRow } from './rows.js';

export interface AuctionView {
  id: string;
  name: string;
  validUntil: number;
  originalValidUntil: number;
  incrementRule: IncrementRule;
  /** Paise (see AuctionRow). */
  incrementAmount: number;
  /** As stored (see AuctionRow and `stepsOf`). */
  incrementTiers: string | null;
  cancelPolicy: CancelPolicy;
  softCloseS: number;
  maxExtensionS: number;
  createdBy: number;
  createdAt: number;
  settledAt: number | null;
  productIds: string[];
  registrations: number[];
  /** Browse's card: the cover of its first product, in product order, that has a photo; null when none has one. */
  cover: { imageName: string; thumbName: string } | null;
  /** Paise: the highest leading (or, once sold, winning) bid among its lots; 0 when none has one. */
  highest: number;
  /** The sum of its lots' bid counts. */
  bidCount: number;
}

export interface ProductView {
  id: string;
  name: string;
  description: string;
  status: ProductStatus;
  auctionId: string | null;
  /** Paise: the leading (or winning) bid, 0 when none. */
  highest: number;
  /** Whether it has a leading or winning bid. */
  hasBid: boolean;
  bidCount: number;
  version: number;
  createdBy: number;
  /** Paise. */
  startingPrice: number;
  reservePrice: number | null;
  buyNowPrice: number | null;
  /** Its auction's steps (flat ₹1 when unassigned; see AuctionRow) and whether that auction is over (ended or settled). */
  incrementRule: IncrementRule;
  incrementAmount: number;
  incrementTiers: string | null;
  auctionOver: boolean;
  /** Its auction's name, end and settlement; null while it is in none. */
  auctionName: string | null;
  auctionValidUntil: number | null;
  auctionSettledAt: number | null;
  /** The username of the bidder who won or bought it (`winner_id`), null when none. */
  winner: string | null;
  /** Its photos in order (the first is the cover). */
  images: ProductImageView[];
  /** Its category (docs/catalogue.md), null when in none. */
  category: CategoryRef | null;
  /** Its number in its auction (docs/catalogue.md#lot-numbers); null while in none. */
  lotNumber: number | null;
}

/** A category as a product shows it. */
export interface CategoryRef {
  id: number;
  name: string;
  slug: string;
}

/** A category with the number of open lots in it (for a top-level one, its subcategories' included). */
export interface CategoryView extends CategoryRef {
  parentId: number | null;
  openLots: number;
}

/** A product photo as stored: the media names of its renditions. */
export interface ProductImageView {
  id: number;
  imageName: string;
  thumbName: string;
}

/** A bidder's own standing on the lots of an auction (docs/bidding.md#what-you-see). */
export interface MyStanding {
  productId: string;
  /** The caller's best bid status there: success (leading), won, or outbid/unsold (bid, not leading). */
  status: BidStatus;
  maxAmount: number | null;
}

export interface UserBidView {
  id: number;
  productId: string;
  productName: string;
  auctionId: string;
  auctionName: string;
  amount: number;
  maxAmount: number | null;
  buyNow: boolean | number;
  createdAt: number;
  status: BidStatus;
  reason: string | null;
  /** Its auction's end (as soft close moved it), settlement and cancel policy: what a list of the bidder's bids says of cancelling each. */
  auctionValidUntil: number;
  auctionSettledAt: number | null;
  auctionCancelPolicy: CancelPolicy;
}

export interface ProductBidView {
  id: number;
  auctionId: string;
  amount: number;
  status: BidStatus;
  createdAt: number;
  username: string;
  auctionOwner: number;
  buyNow: boolean | number;
}

/** A ledger row with the name of its product (null without one, or when the product row is gone) and what it means to the bidder. */
export interface TransactionView extends TransactionRow {
  productName: string | null;
  kind: LedgerKind;
  buyNow: boolean | number | null;
}

export type LedgerKind = 'topup' | 'hold' | 'release' | 'payment' | 'unused_refund';

/**
 * A ledger row's kind (docs/money.md#ledger-kinds), from its type and its bid, for `t` joined to its bid
 * as `b`. A bid that is not won only ever held and released. For a won bid, the `bid` rows after its
 * last release that precedes its last `bid` row are what it paid (settling writes release then payment;
 * a buy-now pays at once; rows written before settling wrote a payment: the hold that became it), and
 * a `refund` after its last `bid` row gave back the unused part of a maximum (such older rows only).
 */
const LAST_BID_ROW = `(select max(h.id) from wallet_transactions h where h.bid_id = t.bid_id and h.type = 'bid')`;
const LEDGER_KIND = `case
    when t.type = 'topup' then 'topup'
    when t.type = 'bid' then case when b.status = 'won' and t.id > coalesce((select max(r.id) from wallet_transactions r
      where r.bid_id = t.bid_id and r.type = 'refund' and r.id < ${LAST_BID_ROW}), 0) then 'payment' else 'hold' end
    else case when b.status = 'won' and t.id > ${LAST_BID_ROW} then 'unused_refund' else 'release' end
  end`;

export interface AuctionReportRow {
  id: string; name: string; validUntil: number; settledAt: number | null;
  productCount: number; bidCount: number; revenue: number; pending: number;
}

export interface ProductReportRow {
  id: string; name: string; description: string; status: ProductStatus; auctionId: string | null;
  bidCount: number; highest: number;
}

export interface AdminStatsRow {
  totalAuctions: number; activeAuctions: number; totalProducts: number; unassignedProducts: number;
  totalBids: number; revenue: number; pending: number;
}

export interface UserAdminRow {
  id: number; name: string; username: string; mobileNumber: string; walletBalance: number;
  auctionsRegistered: number; status: AccountStatus; createdAt: number;
}

export interface SessionRow {
  username: string;
  status: AccountStatus;
  tokenVersion: number;
  isOwner: boolean;
}

export interface MoneyAudit {
  topups: number;
  balances: number;
  held: number;
  paid: number;
  /** Users whose cached balance differs from the sum of their ledger. */
  ledgerMismatches: number;
  negativeBalances: number;
  /** Products with more than one leading bid. */
  multipleLeaders: number;
  ok: boolean;
}

/** An auction the scheduler watches: not settled, not deleted. */
export interface OpenAuction {
  id: string;
  validUntil: number;
  ownerId: number;
}

const parseList = <T>(json: string | T[]): T[] => (typeof json === 'string' ? (JSON.parse(json) as T[]) : json);

// ---- photos (docs/photos.md): a product's photos travel in its row as `id:image:thumb` texts
// (one portable JSON array of strings; media names are hex hashes, so `:` cannot occur in them).
const IMAGE_ENTRY = "cast(i.id as text) || ':' || i.image_name || ':' || i.thumb_name";
const imageOf = (entry: string): ProductImageView => {
  const [id, imageName, thumbName] = entry.split(':') as [string, string, string];
  return { id: Number(id), imageName, thumbName };
};

/** An auction's cover, read as `image:thumb` (one scalar subquery; the names are hex, so `:` cannot occur in them). */
const coverOf = (entry: string): AuctionView['cover'] => {
  const [imageName, thumbName] = entry.split(':') as [string, string];
  return { imageName, thumbName };
};

/** A stored rendition (`GET /media/{name}.webp`). */
export interface MediaView {
  contentType: string;
  bytes: Buffer;
}

/** One entry of a lot's history: a bid, or (`auto`) an automatic raise of the maximum bid `bidId`. */
export interface LotHistoryView {
  bidId: number;
  amount: number;
  status: BidStatus;
  createdAt: number;
  userId: number;
  username: string;
  auto: boolean;
  /** A purchase at the buy-now price (never an automatic raise). */
  buyNow: boolean;
  /** The bidder's number on the lot: 1, 2, 3… in the order of their first bid there. */
  alias: number | null;
}

/** Where an entry stands in a lot's history (its order: amount, time, auto, bid id; all descending). */
export interface LotHistoryKey {
  amount: number;
  createdAt: number;
  auto: boolean;
  bidId: number;
}

/** What `adminProductPage` reads: `status` unassigned (in no auction), assigned (in one, not sold) or sold. */
export interface AdminProductPageFilter {
  adminId: number;
  nameLike: string | null;
  status: 'unassigned' | 'assigned' | 'sold' | null;
  categoryIds: number[] | null;
  after: LotSearchKey | null;
  /** Products per page. */
  limit: number;
}

export interface AdminProductHit {
  product: ProductView;
  auctionName: string | null;
  /** Its place in the order: created_at, id. */
  key: LotSearchKey;
}

/** A LIKE pattern for text that contains `term` as typed (its `%`, `_` and `\\` taken literally). */
function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}


export interface LotSearchHit {
  product: ProductView;
  auction: { id: string; name: string; validUntil: number };
  key: LotSearchKey;
}

/** The paged auctions of the catalogue (docs/catalogue.md#paged-auctions). */
export interface AuctionSearch {
  /** active: open; ending: open and ending within `endingWithin` ms; ended: past its end or settled. */
  tab: 'active' | 'ending' | 'ended';
  /** Auctions with a live lot that matches every word (the lot's words and the auction's name); null: any. */
  words: readonly string[] | null;
  /** Auctions with a live lot in one of these categories; null: any. */
  categoryIds: readonly number[] | null;
  /** Only auctions this bidder registered for; null: any. */
  registeredBy: number | null;
  sort: 'ending' | 'newest' | 'bids';
  after: LotSearchKey | null;
  limit: number;
  now: number;
  endingWithin: number;
}

/** The filters of `AuctionSearch` that its counts per tab obey, and the clock they are counted at. */
export type AuctionCountsFilter = Pick<AuctionSearch, 'words' | 'categoryIds' | 'registeredBy' | 'now' | 'endingWithin'>;

/** How many auctions are in each tab of the paged catalogue. */
export interface AuctionTabCounts {
  active: number;
  ending: number;
  ended: number;
}

/**
 * How far the store's writes have got: `generation` moves as each transaction begins and once it has
 * ended, `open` counts those under way. What is read while it stays the same, with none open, is
 * what the store holds (a cache of reads keeps it until the generation moves: cache/auction-counts.ts).
 */
export interface WriteState {
  generation: number;
  open: number;
}

/** A filter by lots: the auctions its lots are in (`from`), checked per auction (`probeFrom`). */
interface LotFilter {
  from: string;
  probeFrom: string;
  text: string;
  values: Param[];
}

/** The lot filters of a search of auctions (words, category), in order; null when its category has none. */
function lotFilters(d: Dialect, s: AuctionCountsFilter): LotFilter[] | null {
  const filters: LotFilter[] = [];
  if (s.words !== null) {
    const m = d.search.match(s.words);
    filters.push({ from: `from products p ${m.join}`, probeFrom: `from products p ${m.probeJoin}`, text: m.where.text, values: m.where.params });
  }
  if (s.categoryIds !== null) {
    if (s.categoryIds.length === 0) return null;
    filters.push({ from: 'from products p', probeFrom: 'from products p', text: `p.category_id in (${s.categoryIds.map(() => '?').join(', ')})`, values: [...s.categoryIds] });
  }
  return filters;
}

/** Each lot filter as a list of the auctions its lots are in. */
const listedBy = (f: LotFilter) => `a.id in (select p.auction_id ${f.from} where p.deleted_at is null and ${f.text})`;
/** The condition that the auction is one the bidder registered for. */
const REGISTERED = 'a.id in (select r.auction_id from registrations r where r.user_id = ?)';
const OPEN = 'a.settled_at is null and a.valid_until > ?';
const SOON = `${OPEN} and a.valid_until <= ?`;
const OVER = '(a.settled_at is not null or a.valid_until <= ?)';

/** The order an auction lists its lots in: by lot number (docs/catalogue.md#lot-numbers), then as created. */
const LOT_ORDER = (d: Dialect) => `p.lot_number, p.created_at, ${d.insertionOrder('p')}`;

/** A words or category filter matched by at least this many lots is checked per auction in the page's order. */
const DENSE_FILTER_LOTS = 500;
/** How many auctions of the tab, in the page's order, a dense filter is checked on before the page is read from the filter's list. */
const PROBED_AUCTIONS = 200;

export class Reads {
  private generation = 0;
  private writes = 0;

  constructor(private readonly sql: SqlRunner, private readonly dialect: Dialect) {}

  // ---- accounts --------------------------------------------------------------------------------

  async user(id: number): Promise<UserRow | null> {
    if (!isStorableId(id)) return null;
    return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.id = ?`, [id])) ?? null;
  }

  async userByUsername(username: string): Promise<UserRow | null> {
    return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.username = ?`, [username])) ?? null;
  }

  async adminByUsername(username: string): Promise<AdminRow | null> {
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.username = ?`, [username]);
    return row ? asAdmin(row) : null;
  }

  async passwordHash(role: Role, id: number): Promise<string | null> {
    const table = role === 'user' ? 'users' : 'admins';
    return (await this.sql.get<{ hash: string }>(`select password_hash as hash from ${table} where id = ?`, [id]))?.hash ?? null;
  }

  /** What a token's session check needs: one indexed lookup on every authenticated request. */
  async session(role: Role, id: number): Promise<SessionRow | null> {
    const row = role === 'user'
      ? await this.sql.get<SessionRow>('select username, status, token_version as "tokenVersion" from users where id = ?', [id])
      : await this.sql.get<SessionRow>('select username, status, token_version as "tokenVersion", is_owner as "isOwner" from admins where id = ?', [id]);
    return row ? { ...row, isOwner: Boolean(row.isOwner) } : null;
  }

  // ---- auctions and products -------------------------------------------------------------------

  /** Auctions (not deleted), newest first, each with its products and registrations. */
  async auctions(filter: { createdBy?: number; id?: string; ids?: readonly string[] } = {}): Promise<AuctionView[]> {
    const where = ['a.deleted_at is null'];
    const params: Param[] = [];
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return [];
      where.push(`a.id in (${filter.ids.map(() => '?').join(', ')})`);
      params.push(...filter.ids);
    }
    if (filter.createdBy !== undefined) { where.push('a.created_by = ?'); params.push(filter.createdBy); }
    if (filter.id !== undefined) { where.push('a.id = ?'); params.push(filter.id); }
    const d = this.dialect;
    const lots = 'p.auction_id = a.id and p.deleted_at is null';
    const productOrder = LOT_ORDER(d);
    const rows = await this.sql.all<Omit<AuctionView, 'productIds' | 'registrations' | 'cover'> & { productIds: string; registrations: string; cover: string | null }>(
      `select a.id, a.name, a.valid_until as "validUntil", a.original_valid_until as "originalValidUntil", a.increment_rule as "incrementRule",
        a.increment_amount as "incrementAmount", a.increment_tiers as "incrementTiers", a.cancel_policy as "cancelPolicy",
        a.soft_close_s as "softCloseS", a.max_extension_s as "maxExtensionS", a.created_by as "createdBy", a.created_at as "createdAt", a.settled_at as "settledAt",
        ${d.jsonArray('p.id', `from products p where ${lots}`, productOrder)} as "productIds",
        ${d.jsonArray('r.user_id', 'from registrations r where r.auction_id = a.id', 'r.user_id')} as "registrations",
        (select i.image_name || ':' || i.thumb_name from products p join product_images i on i.product_id = p.id
          where ${lots} order by ${productOrder}, i.position, i.id limit 1) as cover,
        (select coalesce(max(b.amount), 0) from bids b join products p on p.id = b.product_id
          where b.auction_id = a.id and b.status in ('success', 'won') and ${lots}) as highest,
        (select coalesce(sum(p.bid_count), 0) from products p where ${lots}) as "bidCount"
      from auctions a where ${where.join(' and ')}
      order by a.created_at desc, ${d.insertionOrder('a')} desc`,
      params,
    );
    return rows.map((r) => ({
      ...r, productIds: parseList<string>(r.productIds), registrations: parseList<number>(r.registrations),
      cover: r.cover === null ? null : coverOf(r.cover),
      // PostgreSQL's sum of integers is a bigint: a number here, whatever the driver's parsers.
      highest: Number(r.highest), bidCount: Number(r.bidCount),
    }));
  }

  /**
   * What Browse's cards of these auctions show (deleted ones left out), in one statement: the same
   * read as a page of `GET /api/catalogue/auctions`, for the live channel's `catalogue:card`.
   */
  async auctionCards(ids: readonly string[]): Promise<AuctionView[]> {
    return this.auctions({ ids });
  }

  /** Every bidder who bid in an auction (refused attempts aside) and how many of their bids there they cancelled, most first. */
  async bidderCancels(auctionId: string): Promise<{ userId: number; username: string; cancels: number }[]> {
    const rows = await this.sql.all<{ userId: number; username: string; cancels: number }>(
      `select u.id as "userId", u.username, sum(case when b.status = 'rolledback' and b.reason = 'CANCELLED' then 1 else 0 end) as cancels
       from bids b join users u on u.id = b.user_id where b.auction_id = ? and b.status <> 'failed'
       group by u.id, u.username order by cancels desc, u.username`,
      [auctionId],
    );
    return rows.map((r) => ({ ...r, cancels: Number(r.cancels) }));
  }

  async auction(id: string): Promise<AuctionView | null> {
    return (await this.auctions({ id }))[0] ?? null;
  }

  /** Whether an auction exists; `includeDeleted` for history (bids stay readable after a delete). */
  async auctionExists(id: string, includeDeleted = false): Promise<boolean> {
    const row = await this.sql.get(`select 1 as one from auctions where id = ?${includeDeleted ? '' : ' and deleted_at is null'}`, [id]);
    return row !== undefined;
  }

  /** An auction's end as stored now, deleted or not (the scheduler checks before it acts). */
  async auctionEnd(id: string): Promise<{ validUntil: number; settledAt: number | null; deletedAt: number | null } | null> {
    return (await this.sql.get<{ validUntil: number; settledAt: number | null; deletedAt: number | null }>(
      'select valid_until as "validUntil", settled_at as "settledAt", deleted_at as "deletedAt" from auctions where id = ?',
      [id],
    )) ?? null;
  }

  /**
   * Open auctions ending by `until`, soonest first (then by id), after `after` in that order if given:
   * a cursor, so that any number of auctions ending at the same moment are read page by page.
   */
  async auctionsEndingBy(until: number, after: { validUntil: number; id: string } | null, limit: number): Promise<OpenAuction[]> {
    return this.sql.all<OpenAuction>(
      `select id, valid_until as "validUntil", created_by as "ownerId" from auctions
       where settled_at is null and deleted_at is null and valid_until <= ?${after === null ? '' : ' and (valid_until > ? or (valid_until = ? and id > ?))'}
       order by valid_until asc, id asc limit ?`,
      after === null ? [until, limit] : [until, after.validUntil, after.validUntil, after.id, limit],
    );
  }

  private productSelect(where: string, order: string) {
    // At most one success-or-won bid per product exists at any time (settlement turns the one into the other).
    return `select p.id, p.name, p.description, p.status, p.auction_id as "auctionId", p.bid_count as "bidCount", p.version, p.created_by as "createdBy",
        coalesce(b.amount, 0) as highest, case when b.id is null then 0 else 1 end as "hasBid",
        p.starting_price as "startingPrice", p.reserve_price as "reservePrice", p.buy_now_price as "buyNowPrice",
        coalesce(a.increment_rule, 'flat') as "incrementRule", coalesce(a.increment_amount, 100) as "incrementAmount", a.increment_tiers as "incrementTiers", w.username as winner,
        case when a.settled_at is not null or a.valid_until <= ? then 1 else 0 end as "auctionOver",
        a.name as "auctionName", a.valid_until as "auctionValidUntil", a.settled_at as "auctionSettledAt",
        ${this.dialect.jsonArray(IMAGE_ENTRY, 'from product_images i where i.product_id = p.id', 'i.position, i.id')} as images,
        c.id as "categoryId", c.name as "categoryName", c.slug as "categorySlug", p.lot_number as "lotNumber"
      from products p left join bids b on b.product_id = p.id and b.status in ('success', 'won')
        left join auctions a on a.id = p.auction_id left join users w on w.id = p.winner_id left join categories c on c.id = p.category_id
      where ${where} order by ${order}`;
  }

  private async products(where: string, order: string, params: Param[], now: number): Promise<ProductView[]> {
    type Row = Omit<ProductView, 'images' | 'category'> & { images: string | string[]; categoryId: number | null; categoryName: string | null; categorySlug: string | null };
    const rows = await this.sql.all<Row>(this.productSelect(where, order), [now, ...params]);
    return rows.map(({ categoryId, categoryName, categorySlug, ...r }) => ({
      ...r, hasBid: Boolean(r.hasBid), auctionOver: Boolean(r.auctionOver), images: parseList<string>(r.images).map(imageOf),
      category: categoryId === null ? null : { id: categoryId, name: categoryName ?? '', slug: categorySlug ?? '' },
    }));
  }

  /**
   * The caller's standing on each lot of an auction where they bid (lots they never bid on are left
   * out): leading, won, else outbid (or unsold). Cancelled and refused bids do not count.
   */
  async myStandings(userId: number, auctionId: string): Promise<MyStanding[]> {
    if (!isStorableId(userId)) return [];
    return this.sql.all<MyStanding>(
      `select b.product_id as "productId",
        case max(case b.status when 'won' then 3 when 'success' then 2 else 1 end) when 3 then 'won' when 2 then 'success' else 'outbid' end as status,
        max(case when b.status = 'success' then b.max_amount end) as "maxAmount"
      from bids b where b.user_id = ? and b.auction_id = ? and b.status in ('success', 'won', 'outbid', 'unsold')
      group by b.product_id`,
      [userId, auctionId],
    );
  }

  // ---- categories (docs/catalogue.md) -----------------------------------------------------------

  /**
   * Every category, each top-level one followed by its subcategories (by name), with its count of open
   * lots: live products in an auction that is neither settled nor past its end, and not yet sold; a
   * top-level category counts its subcategories' lots too.
   */
  async categories(now: number): Promise<CategoryView[]> {
    const rows = await this.sql.all<Omit<CategoryView, 'openLots'> & { own: number }>(
      `select c.id, c.name, c.slug, c.parent_id as "parentId",
        (select count(*) from products p join auctions a on a.id = p.auction_id
          where p.category_id = c.id and p.deleted_at is null and p.status = 'available'
            and a.deleted_at is null and a.settled_at is null and a.valid_until > ?) as own
      from categories c order by c.name, c.id`,
      [now],
    );
    const total = new Map<number, number>();
    for (const r of rows) total.set(r.id, (total.get(r.id) ?? 0) + Number(r.own));
    for (const r of rows) if (r.parentId !== null) total.set(r.parentId, (total.get(r.parentId) ?? 0) + Number(r.own));
    const view = (r: (typeof rows)[number]): CategoryView => ({ id: r.id, name: r.name, slug: r.slug, parentId: r.parentId, openLots: total.get(r.id) ?? 0 });
    return rows.filter((r) => r.parentId === null).flatMap((top) => [view(top), ...rows.filter((r) => r.parentId === top.id).map(view)]);
  }

  /** A category with its subcategories' ids (none for a subcategory): what a filter by it covers. */
  async categoryScope(idOrSlug: number | string): Promise<{ id: number; ids: number[] } | null> {
    const byId = typeof idOrSlug === 'number';
    if (byId && !isStorableId(idOrSlug)) return null;
    const rows = await this.sql.all<{ id: number; parentId: number | null }>(
      `select c.id, c.parent_id as "parentId" from categories c where c.${byId ? 'id' : 'slug'} = ?
       union all select k.id, k.parent_id as "parentId" from categories k join categories c on c.id = k.parent_id where c.${byId ? 'id' : 'slug'} = ?`,
      [idOrSlug, idOrSlug],
    );
    const self = rows.find((r) => !rows.some((o) => o.id === r.parentId));
    if (!self) return null;
    return { id: self.id, ids: rows.map((r) => r.id) };
  }

  // ---- lot search (docs/catalogue.md#search) ------------------------------------------------------

  /**
   * A page of the lots that match, in the search's order (each sort key, then id; keyset after
   * `after`), and how many match in all, counted up to `countUpTo` (past it, one more).
   */
  async searchLots(s: LotSearch, countUpTo: number): Promise<{ hits: LotSearchHit[]; total: number }> {
    // The statement and what it reads: lot-search.ts (docs/catalogue.md#what-a-search-costs).
    const { rows: page, total } = await lotSearchPage(this.sql, this.dialect, s, countUpTo);
    const views = page.length === 0 ? [] : await this.products(`p.id in (${page.map(() => '?').join(', ')})`, 'p.id', page.map((r) => r.id), s.now);
    const byId = new Map(views.map((v) => [v.id, v]));
    const hits = page.flatMap((r) => {
      const product = byId.get(r.id);
      return product ? [{ product, auction: { id: r.auctionId, name: r.auctionName, validUntil: Number(r.validUntil) }, key: { key: Number(r.k), id: r.id } }] : [];
    });
    return { hits, total };
  }

  /**
   * A page of auctions in the tab, in the order asked (its key, then id; keyset after `after`), with
   * the page's keys. Its counts per tab under the same filters: `auctionTabCounts`.
   *
   * A filter by words or category that many lots match is checked per auction, walking the auctions in
   * the page's order (an index serves it), so the read stops after a page; one that few lots match
   * lists those lots' auctions first.
   */
  async searchAuctions(s: AuctionSearch): Promise<{ ids: string[]; keys: LotSearchKey[] }> {
    const filters = lotFilters(this.dialect, s);
    if (filters === null) return { ids: [], keys: [] };
    // Each filter as a list of the auctions its lots are in (`listed`), and for the dense ones as a check per auction (`probed`).
    const listed: string[] = ['a.deleted_at is null'];
    const probed: string[] = ['a.deleted_at is null'];
    const params: Param[] = [];
    let dense = false;
    // PostgreSQL turns an EXISTS into a join over every row it names unless it has an OFFSET: this keeps it a check per auction.
    const perAuction = this.dialect.name === 'postgres' ? ' offset 0' : '';
    for (const f of filters) {
      const list = listedBy(f);
      listed.push(list);
      if (await this.fewerThan(`select 1 ${f.from} where p.deleted_at is null and ${f.text}`, f.values, DENSE_FILTER_LOTS)) probed.push(list);
      else {
        dense = true;
        probed.push(`exists (select 1 ${f.probeFrom} where p.auction_id = a.id and p.deleted_at is null and ${f.text}${perAuction})`);
      }
      params.push(...f.values);
    }
    if (s.registeredBy !== null) {
      listed.push(REGISTERED);
      probed.push(REGISTERED);
      params.push(s.registeredBy);
    }
    const tab = s.tab === 'active' ? { text: OPEN, params: [s.now] } : s.tab === 'ending' ? { text: SOON, params: [s.now, s.now + s.endingWithin] } : { text: OVER, params: [s.now] };
    const bids = '(select coalesce(sum(p.bid_count), 0) from products p where p.auction_id = a.id and p.deleted_at is null)';
    const key = s.sort === 'newest' ? 'a.created_at' : s.sort === 'bids' ? bids : 'a.valid_until';
    // Ending soonest first while open; once over, the most recently ended first.
    const descending = s.sort !== 'ending' || s.tab === 'ended';
    // Written as a range on the key (and a tie-break) so that an index on the key can start there.
    const after = s.after === null ? '' : `and ${key} ${descending ? '<=' : '>='} ? and (${key} ${descending ? '<' : '>'} ? or a.id > ?)`;
    const afterParams: Param[] = s.after === null ? [] : [s.after.key, s.after.key, s.after.id];
    const order = `order by k ${descending ? 'desc' : 'asc'}, a.id asc`;
    type Row = { id: string; k: number };
    let page: Row[] | null = null;
    if (dense) {
      // The first PROBED_AUCTIONS auctions of the tab in the page's order, each checked: a dense filter fills a page from them.
      const walked = await this.sql.all<Row>(
        `select a.id, x.k from (select a.id, ${key} as k from auctions a where a.deleted_at is null and ${tab.text} ${after} ${order} limit ?) x
         join auctions a on a.id = x.id where ${probed.join(' and ')} order by x.k ${descending ? 'desc' : 'asc'}, a.id asc limit ?`,
        [...tab.params, ...afterParams, PROBED_AUCTIONS, ...params, s.limit],
      );
      if (walked.length === s.limit) page = walked;
    }
    page ??= await this.sql.all<Row>(
      `select a.id, ${key} as k from auctions a where ${listed.join(' and ')} and ${tab.text} ${after} ${order} limit ?`,
      [...params, ...tab.params, ...afterParams, s.limit],
    );
    return { ids: page.map((r) => r.id), keys: page.map((r) => ({ key: Number(r.k), id: r.id })) };
  }

  /**
   * The number of auctions in each tab under the filters of a search of auctions (`searchAuctions`),
   * in one statement.
   */
  async auctionTabCounts(s: AuctionCountsFilter): Promise<AuctionTabCounts> {
    const filters = lotFilters(this.dialect, s);
    if (filters === null) return { active: 0, ending: 0, ended: 0 };
    const listed = ['a.deleted_at is null', ...filters.map(listedBy), ...(s.registeredBy === null ? [] : [REGISTERED])];
    const params = [...filters.flatMap((f) => f.values), ...(s.registeredBy === null ? [] : [s.registeredBy])];
    const row = await this.sql.get<AuctionTabCounts>(
      `select coalesce(sum(case when ${OPEN} then 1 else 0 end), 0) as active, coalesce(sum(case when ${SOON} then 1 else 0 end), 0) as ending,
        coalesce(sum(case when ${OVER} then 1 else 0 end), 0) as ended
       from auctions a where ${listed.join(' and ')}`,
      [s.now, s.now, s.now + s.endingWithin, s.now, ...params],
    );
    return { active: Number(row?.active ?? 0), ending: Number(row?.ending ?? 0), ended: Number(row?.ended ?? 0) };
  }

  /** Whether `select` (rows of a filter) gives fewer than `n` rows; it reads at most `n`. */
  private async fewerThan(select: string, params: Param[], n: number): Promise<boolean> {
    const row = await this.sql.get<{ n: number }>(`select count(*) as n from (${select} limit ?) t`, [...params, n]);
    return Number(row?.n ?? 0) < n;
  }

  /**
   * The store calls this as a transaction begins (`true`) and once it has ended (`false`): see
   * `writeState`.
   */
  writing(begins: boolean): void {
    this.writes += begins ? 1 : -1;
    this.generation++;
  }

  /** How far the store's writes have got (for caches of reads, which keep nothing read across a write). */
  writeState(): WriteState {
    return { generation: this.generation, open: this.writes };
  }

  /** `now` decides whether the auction is over (for the callers' `my_status`). */
  async productsOfAuction(auctionId: string, now = Date.now()): Promise<ProductView[]> {
    return this.products('p.auction_id = ? and p.deleted_at is null', LOT_ORDER(this.dialect), [auctionId], now);
  }

  async unassignedProducts(adminId: number, now = Date.now()): Promise<ProductView[]> {
    return this.products('p.created_by = ? and p.auction_id is null and p.deleted_at is null', `p.created_at desc, ${this.dialect.insertionOrder('p')} desc`, [adminId], now);
  }

  /** Every live product an admin created, oldest first (the products export). */
  async productsBy(adminId: number, now = Date.now()): Promise<ProductView[]> {
    return this.products('p.created_by = ? and p.deleted_at is null', `p.created_at, ${this.dialect.insertionOrder('p')}`, [adminId], now);
  }

  /**
   * A page of an admin's own live products, newest first (created, then id, both descending; keyset
   * after `after`), each with its auction's name while it is in one, and how many match in all.
   * `nameLike`: text the name contains, any case. `categoryIds`: a category and its subcategories.
   */
  async adminProductPage(f: AdminProductPageFilter, now: number): Promise<{ hits: AdminProductHit[]; total: number; next: LotSearchKey | null }> {
    const where = ['p.created_by = ?', 'p.deleted_at is null'];
    const params: Param[] = [f.adminId];
    if (f.nameLike !== null) { where.push("lower(p.name) like ? escape '\\'"); params.push(likePattern(f.nameLike)); }
    if (f.status === 'unassigned') where.push('p.auction_id is null');
    else if (f.status === 'assigned') where.push("p.auction_id is not null and p.status <> 'sold'");
    else if (f.status === 'sold') where.push("p.status = 'sold'");
    if (f.categoryIds !== null) {
      if (f.categoryIds.length === 0) return { hits: [], total: 0, next: null };
      where.push(`p.category_id in (${f.categoryIds.map(() => '?').join(', ')})`);
      params.push(...f.categoryIds);
    }
    const from = `from products p where ${where.join(' and ')}`;
    const after = f.after === null ? '' : 'and (p.created_at < ? or (p.created_at = ? and p.id < ?))';
    const afterParams: Param[] = f.after === null ? [] : [f.after.key, f.after.key, f.after.id];
    // One row more than the page: whether there is a next page.
    const rows = await this.sql.all<{ id: string; k: number; auctionName: string | null }>(
      `select p.id, p.created_at as k, a.name as "auctionName"
       from products p left join auctions a on a.id = p.auction_id
       where ${where.join(' and ')} ${after} order by p.created_at desc, p.id desc limit ?`,
      [...params, ...afterParams, f.limit + 1],
    );
    const page = rows.slice(0, f.limit);
    const last = page.at(-1);
    const counted = await this.sql.get<{ n: number }>(`select count(*) as n ${from}`, params);
    const views = page.length === 0 ? [] : await this.products(`p.id in (${page.map(() => '?').join(', ')})`, 'p.id', page.map((r) => r.id), now);
    const byId = new Map(views.map((v) => [v.id, v]));
    const hits = page.flatMap((r) => {
      const product = byId.get(r.id);
      return product ? [{ product, auctionName: r.auctionName, key: { key: Number(r.k), id: r.id } }] : [];
    });
    // A product deleted between the two reads leaves a shorter page, never an early end.
    return { hits, total: Number(counted?.n ?? 0), next: rows.length > f.limit && last ? { key: Number(last.k), id: last.id } : null };
  }

  async product(id: string, now = Date.now()): Promise<ProductView | null> {
    return (await this.products('p.id = ? and p.deleted_at is null', 'p.id', [id], now))[0] ?? null;
  }

  /** A product with its auction's end, for `GET /time-left`. */
  async productTiming(productId: string) {
    return (await this.sql.get<{ productId: string; auctionId: string | null; validUntil: number | null; settledAt: number | null; createdBy: number }>(
      `select p.id as "productId", a.id as "auctionId", a.valid_until as "validUntil", a.settled_at as "settledAt", p.created_by as "createdBy"
       from products p left join auctions a on a.id = p.auction_id where p.id = ? and p.deleted_at is null`,
      [productId],
    )) ?? null;
  }

  /** Ids of the (not deleted) auctions a bidder registered for, newest first. */
  async registeredAuctionIds(userId: number): Promise<string[]> {
    const rows = await this.sql.all<{ id: string }>(
      `select a.id from registrations r join auctions a on a.id = r.auction_id
       where r.user_id = ? and a.deleted_at is null order by a.created_at desc, ${this.dialect.insertionOrder('a')} desc`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  // ---- saved lots and notifications (docs/notifications.md) ------------------------------------

  /**
   * The products a bidder saved (not deleted), the most recently saved first; a lot that went back
   * to its seller unsold (in no auction: a draft, which only its admin may read) shows again once listed.
   */
  async savedProducts(userId: number, now = Date.now()): Promise<ProductView[]> {
    if (!isStorableId(userId)) return [];
    return this.products(
      'p.id in (select s.product_id from saved_lots s where s.user_id = ?) and p.deleted_at is null and p.auction_id is not null',
      '(select s.created_at from saved_lots s where s.user_id = ? and s.product_id = p.id) desc, p.id',
      [userId, userId], now,
    );
  }

  /** The bidder's standing on each lot they saved, in the lot's current auction (see myStandings). */
  async savedStandings(userId: number): Promise<MyStanding[]> {
    if (!isStorableId(userId)) return [];
    return this.sql.all<MyStanding>(
      `select b.product_id as "productId",
        case max(case b.status when 'won' then 3 when 'success' then 2 else 1 end) when 3 then 'won' when 2 then 'success' else 'outbid' end as status,
        max(case when b.status = 'success' then b.max_amount end) as "maxAmount"
      from saved_lots s join products p on p.id = s.product_id
        join bids b on b.product_id = s.product_id and b.user_id = s.user_id and b.auction_id = p.auction_id
      where s.user_id = ? and b.status in ('success', 'won', 'outbid', 'unsold')
      group by b.product_id`,
      [userId],
    );
  }

  /** Ids of the lots of an auction the bidder saved. */
  async savedIn(userId: number, auctionId: string): Promise<string[]> {
    if (!isStorableId(userId)) return [];
    const rows = await this.sql.all<{ id: string }>(
      'select s.product_id as id from saved_lots s join products p on p.id = s.product_id where s.user_id = ? and p.auction_id = ?',
      [userId, auctionId],
    );
    return rows.map((r) => r.id);
  }

  /** The account with this confirmed address (lower-cased), if any. */
  async accountByEmail(role: Role, email: string): Promise<UserRow | AdminRow | null> {
    if (role === 'user') return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.email = ?`, [email])) ?? null;
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.email = ?`, [email]);
    return row ? asAdmin(row) : null;
  }

  /** An account as its owner sees it (GET /me). */
  async account(role: Role, id: number): Promise<UserRow | AdminRow | null> {
    if (!isStorableId(id)) return null;
    if (role === 'user') return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.id = ?`, [id])) ?? null;
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.id = ?`, [id]);
    return row ? asAdmin(row) : null;
  }

  /** The kinds of notice the bidder also gets by email, and their confirmed address. */
  async emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.sql.get<{ kinds: string; email: string | null }>('select email_notices as kinds, email from users where id = ?', [userId]);
    return row ? { kinds: row.kinds.split(',').filter(Boolean), email: row.email } : null;
  }

  /** Outbox mails due by `now` (neither sent nor failed), oldest first. */
  async dueMails(now: number, limit: number): Promise<MailRow[]> {
    const rows = await this.sql.all<Omit<MailRow, 'headers'> & { headers: string }>(
      `select id, kind, to_address as "to", subject, text_body as "text", html_body as "html", headers, attempts, created_at as "createdAt"
       from mail_outbox where sent_at is null and failed_at is null and next_attempt_at <= ? order by next_attempt_at, id limit ?`,
      [now, limit],
    );
    return rows.map((r) => ({ ...r, headers: JSON.parse(r.headers) as Record<string, string> }));
  }

  /** Whether the bidder saved this product. */
  async isSaved(userId: number, productId: string): Promise<boolean> {
    if (!isStorableId(userId)) return false;
    return (await this.sql.get('select 1 as one from saved_lots where user_id = ? and product_id = ?', [userId, productId])) !== undefined;
  }

  /** A bidder's notices, newest first, older than `before` (an id) when given. */
  async notifications(userId: number, before: number | null, limit: number): Promise<NotificationRow[]> {
    if (!isStorableId(userId)) return [];
    const older = before !== null && before <= 2_147_483_647;
    return this.sql.all<NotificationRow>(
      `select ${notificationColumns('n')} from notifications n where n.user_id = ?${older ? ' and n.id < ?' : ''} order by n.id desc limit ?`,
      older ? [userId, before, limit] : [userId, limit],
    );
  }

  async unreadNotifications(userId: number): Promise<number> {
    if (!isStorableId(userId)) return 0;
    return (await this.sql.get<{ n: number }>('select count(*) as n from notifications where user_id = ? and read_at is null', [userId]))?.n ?? 0;
  }

  // ---- bids and wallets ------------------------------------------------------------------------

  /** A bidder's own bids, newest first, the newest WHOLE_LIST_MAX at most (names kept even when the product or auction was deleted). */
  async userBids(userId: number, auctionId?: string): Promise<UserBidView[]> {
    return this.sql.all<UserBidView>(
      `select b.id, b.product_id as "productId", p.name as "productName", b.auction_id as "auctionId", a.name as "auctionName",
        b.amount, b.max_amount as "maxAmount", b.buy_now as "buyNow", b.created_at as "createdAt", b.status, b.reason,
        a.valid_until as "auctionValidUntil", a.settled_at as "auctionSettledAt", a.cancel_policy as "auctionCancelPolicy"
      from bids b join products p on p.id = b.product_id join auctions a on a.id = b.auction_id
      where b.user_id = ?${auctionId === undefined ? '' : ' and b.auction_id = ?'} order by b.id desc limit ${WHOLE_LIST_MAX}`,
      auctionId === undefined ? [userId] : [userId, auctionId],
    );
  }

  /**
   * A page of a product's bids, newest first (by id: bids on a product are written under its lock, so
   * ids follow commit order), older than `before` when given, with the bidder's username and the
   * auction's owner.
   */
  async productBids(productId: string, page: { before: number | null; limit: number }): Promise<ProductBidView[]> {
    const older = page.before !== null && page.before <= 2_147_483_647;
    return this.sql.all<ProductBidView>(
      `select b.id, b.auction_id as "auctionId", b.amount, b.status, b.created_at as "createdAt", u.username, a.created_by as "auctionOwner", b.buy_now as "buyNow"
      from bids b join users u on u.id = b.user_id join auctions a on a.id = b.auction_id
      where b.product_id = ?${older ? ' and b.id < ?' : ''} order by b.id desc limit ?`,
      older ? [productId, page.before, page.limit] : [productId, page.limit],
    );
  }

  /** The balance and what the caller's leading bids hold (a maximum all of itself), in one statement. */
  async wallet(userId: number): Promise<{ balance: number; onHold: number }> {
    const row = await this.sql.get<{ balance: number; onHold: number }>(
      `select u.wallet_balance as balance,
        (select coalesce(sum(coalesce(b.max_amount, b.amount)), 0) from bids b where b.user_id = u.id and b.status = 'success') as "onHold"
      from users u where u.id = ?`,
      [userId],
    );
    return row ?? { balance: 0, onHold: 0 };
  }

  async walletBalance(userId: number): Promise<number> {
    return (await this.sql.get<{ b: number }>('select wallet_balance as b from users where id = ?', [userId]))?.b ?? 0;
  }

  /**
   * A page of the user's ledger, newest first, each row with its product's current name: at most
   * `limit` rows older than `before` (an id) when given. Keyset order by id (wallet_tx_user_idx): a
   * user's rows are written under their wallet's lock, so ids follow commit order and a page after the
   * first never sees a row written since the first was read.
   */
  async transactions(userId: number, page: { before: number | null; limit: number }): Promise<TransactionView[]> {
    if (!isStorableId(userId)) return [];
    // Past the largest id a row can have, "older than" is every row.
    const older = page.before !== null && page.before <= 2_147_483_647;
    return this.sql.all<TransactionView>(
      `select ${columns.transaction('t')}, p.name as "productName", ${LEDGER_KIND} as kind, b.buy_now as "buyNow"
      from wallet_transactions t left join products p on p.id = t.product_id left join bids b on b.id = t.bid_id
      where t.user_id = ?${older ? ' and t.id < ?' : ''} order by t.id desc limit ?`,
      older ? [userId, page.before, page.limit] : [userId, page.limit],
    );
  }

  /** The sums of the user's whole ledger by type (paise), its row count, and what was spent (payments less unused refunds): the wallet's exact figures. */
  async ledgerTotals(userId: number): Promise<{ topup: number; bid: number; refund: number; count: number; spent: number }> {
    if (!isStorableId(userId)) return { topup: 0, bid: 0, refund: 0, count: 0, spent: 0 };
    const row = await this.sql.get<{ topup: number; bid: number; refund: number; count: number; spent: number }>(
      `select coalesce(sum(case when x.type = 'topup' then x.amount else 0 end), 0) as topup,
        coalesce(sum(case when x.type = 'bid' then x.amount else 0 end), 0) as bid,
        coalesce(sum(case when x.type = 'refund' then x.amount else 0 end), 0) as refund,
        count(*) as count,
        coalesce(sum(case when x.kind = 'payment' then x.amount when x.kind = 'unused_refund' then -x.amount else 0 end), 0) as spent
      from (select t.type, t.amount, ${LEDGER_KIND} as kind
        from wallet_transactions t left join bids b on b.id = t.bid_id where t.user_id = ?) x`,
      [userId],
    );
    // PostgreSQL's sums of bigints are numerics: numbers here, whatever the driver's parsers.
    return { topup: Number(row?.topup ?? 0), bid: Number(row?.bid ?? 0), refund: Number(row?.refund ?? 0), count: Number(row?.count ?? 0), spent: Number(row?.spent ?? 0) };
  }

  // ---- admin figures ---------------------------------------------------------------------------

  async auctionReport(adminId: number): Promise<AuctionReportRow[]> {
    return this.sql.all<AuctionReportRow>(
      `select a.id, a.name, a.valid_until as "validUntil", a.settled_at as "settledAt",
        (select count(*) from products p where p.auction_id = a.id and p.deleted_at is null) as "productCount",
        -- The lots' bid counts (docs/bidding.md#the-bid-count), from the rows: kept for lots that left the auction unsold.
        ((select count(*) from bids b where b.auction_id = a.id and b.status not in ('failed', 'rolledback'))
          + (select count(*) from auto_bids x join bids b on b.id = x.bid_id where b.auction_id = a.id and x.status = 'accepted')) as "bidCount",
        (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'won') as revenue,
        (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'success') as pending
      from auctions a
      where a.created_by = ? and a.deleted_at is null
      order by a.created_at desc, ${this.dialect.insertionOrder('a')} desc`,
      [adminId],
    );
  }

  async productReport(adminId: number): Promise<ProductReportRow[]> {
    return this.sql.all<ProductReportRow>(
      `select p.id, p.name, p.description, p.status, p.auction_id as "auctionId", p.bid_count as "bidCount",
        coalesce((select b.amount from bids b where b.product_id = p.id and b.status in ('success', 'won')), 0) as highest
      from products p
      where p.created_by = ? and p.deleted_at is null
      order by p.created_at desc, ${this.dialect.insertionOrder('p')} desc`,
      [adminId],
    );
  }

  async adminStats(adminId: number, now: number): Promise<AdminStatsRow> {
    const row = await this.sql.get<AdminStatsRow>(
      `select
        (select count(*) from auctions a where a.created_by = ? and a.deleted_at is null) as "totalAuctions",
        (select count(*) from auctions a where a.created_by = ? and a.deleted_at is null and a.settled_at is null and a.valid_until > ?) as "activeAuctions",
        (select count(*) from products p where p.created_by = ? and p.deleted_at is null) as "totalProducts",
        (select count(*) from products p where p.created_by = ? and p.deleted_at is null and p.auction_id is null) as "unassignedProducts",
        ((select count(*) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and a.deleted_at is null and b.status not in ('failed', 'rolledback'))
          + (select count(*) from auto_bids x join bids b on b.id = x.bid_id join auctions a on a.id = b.auction_id
             where a.created_by = ? and a.deleted_at is null and x.status = 'accepted')) as "totalBids",
        (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and b.status = 'won') as revenue,
        (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and b.status = 'success') as pending`,
      [adminId, adminId, now, adminId, adminId, adminId, adminId, adminId, adminId],
    );
    if (!row) throw new Error('store: admin stats returned no row');
    return row;
  }

  /** `limit`: the first so many only. */
  private usersForOwner(where: string, params: Param[], limit?: number): Promise<UserAdminRow[]> {
    return this.sql.all<UserAdminRow>(
      `select u.id, u.name, u.username, u.mobile_number as "mobileNumber", u.wallet_balance as "walletBalance",
        (select count(*) from registrations r join auctions a on a.id = r.auction_id where r.user_id = u.id and a.deleted_at is null) as "auctionsRegistered",
        u.status, u.created_at as "createdAt"
      from users u
      where ${where}
      order by u.created_at desc, u.id desc${limit === undefined ? '' : ' limit ?'}`,
      limit === undefined ? params : [...params, limit],
    );
  }

  /** Newest first, the newest WHOLE_LIST_MAX at most; `q` matches name, username or mobile number (case-insensitive, contains). */
  async listUsersForOwner(q?: string): Promise<UserAdminRow[]> {
    const term = q?.trim().toLowerCase();
    if (!term) return this.usersForOwner('1 = 1', [], WHOLE_LIST_MAX);
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.usersForOwner(`lower(u.name) like ? escape '\\' or u.username like ? escape '\\' or u.mobile_number like ? escape '\\'`, [like, like, like], WHOLE_LIST_MAX);
  }

  /**
   * A page of `listUsersForOwner`'s list (newest first: joined, then id, both descending), keyset
   * after `after`.
   */
  async listUsersPageForOwner(q: string | undefined, after: { key: number; id: number } | null, limit: number): Promise<UserAdminRow[]> {
    const term = q?.trim().toLowerCase();
    const where: string[] = [];
    const params: Param[] = [];
    if (term) {
      const like = likePattern(term);
      where.push(`(lower(u.name) like ? escape '\\' or u.username like ? escape '\\' or u.mobile_number like ? escape '\\')`);
      params.push(like, like, like);
    }
    if (after !== null) {
      where.push('(u.created_at < ? or (u.created_at = ? and u.id < ?))');
      params.push(after.key, after.key, after.id);
    }
    return this.usersForOwner(where.length > 0 ? where.join(' and ') : '1 = 1', params, limit);
  }

  async userForOwner(id: number): Promise<UserAdminRow | null> {
    if (!isStorableId(id)) return null;
    return (await this.usersForOwner('u.id = ?', [id]))[0] ?? null;
  }

  // ---- photos and the lot page (docs/photos.md) ----------------------------------------------

  /** A product's photos in order (the cover first), with their sizes. */
  async productImages(productId: string): Promise<ProductImageRow[]> {
    return this.sql.all<ProductImageRow>(
      `select i.id, i.product_id as "productId", i.position, i.image_name as "imageName", i.thumb_name as "thumbName", i.width, i.height
       from product_images i where i.product_id = ? order by i.position, i.id`,
      [productId],
    );
  }

  async media(name: string): Promise<MediaView | null> {
    const row = await this.sql.get<{ contentType: string; bytes: Buffer | Uint8Array }>('select content_type as "contentType", bytes from media where name = ?', [name]);
    return row ? { contentType: row.contentType, bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes) } : null;
  }

  /**
   * A page of a lot's history in one auction, highest first (then newest; a bid before its own
   * automatic raises at the same moment): its bids that were not refused (cancelled ones included,
   * status `rolledback`), and the automatic raises of maximum bids (auto_bids; `rolledback` when
   * cancelled with the bid they answered), each with the bidder and their number on the lot (1, 2, 3… in the order
   * of their first bid there). At most `limit` entries after `after` in that order, a keyset: an entry
   * keeps its place however many are written meanwhile (its amount and time never change).
   */
  async lotHistory(productId: string, auctionId: string, page: { after: LotHistoryKey | null; limit: number }): Promise<LotHistoryView[]> {
    const a = page.after;
    const keyset = a === null ? '' : `where h.amount < ? or (h.amount = ? and (h.created_at < ? or (h.created_at = ? and (h.auto < ? or (h.auto = ? and h.bid_id < ?)))))`;
    const rows = await this.sql.all<Omit<LotHistoryView, 'auto' | 'buyNow'> & { auto: number; buyNow: number }>(
      `with h as (
         select b.id as bid_id, coalesce(b.placed_amount, b.amount) as amount, b.status, b.created_at, b.user_id, 0 as auto, case when b.buy_now then 1 else 0 end as buy_now
         from bids b where b.product_id = ? and b.auction_id = ? and b.status <> 'failed'
         union all
         select x.bid_id, x.amount, case when x.status = 'rolledback' then 'rolledback' else b.status end, x.created_at, b.user_id, 1, 0
         from auto_bids x join bids b on b.id = x.bid_id
         where x.product_id = ? and b.auction_id = ?
       ), f as (
         select b.user_id, row_number() over (order by min(b.id)) as n
         from bids b where b.product_id = ? and b.auction_id = ? and b.status <> 'failed' group by b.user_id
       )
       select h.bid_id as "bidId", h.amount, h.status, h.created_at as "createdAt", h.user_id as "userId", u.username, h.auto, h.buy_now as "buyNow", f.n as alias
       from h join users u on u.id = h.user_id left join f on f.user_id = h.user_id
       ${keyset}
       order by h.amount desc, h.created_at desc, h.auto desc, h.bid_id desc limit ?`,
      [productId, auctionId, productId, auctionId, productId, auctionId,
        ...(a === null ? [] : [a.amount, a.amount, a.createdAt, a.createdAt, a.auto ? 1 : 0, a.auto ? 1 : 0, a.bidId]), page.limit],
    );
    return rows.map((r) => ({ ...r, auto: Boolean(Number(r.auto)), buyNow: Boolean(Number(r.buyNow)), alias: r.alias === null ? null : Number(r.alias) }));
  }

  // ---- the money audit -------------------------------------------------------------------------

  /**
   * The money invariant (docs/money.md#the-invariant): Σ topups = Σ balances + Σ held + Σ paid, exact to the paisa, plus the structural rules
   * that make it meaningful. Used by tests after every concurrent scenario and by the benchmark.
   */
  async auditMoney(): Promise<MoneyAudit> {
    const r = await this.sql.get<Omit<MoneyAudit, 'ok'>>(`
      select
        (select coalesce(sum(amount), 0) from wallet_transactions where type = 'topup') as topups,
        (select coalesce(sum(wallet_balance), 0) from users) as balances,
        (select coalesce(sum(coalesce(max_amount, amount)), 0) from bids where status = 'success') as held,
        (select coalesce(sum(amount), 0) from bids where status = 'won') as paid,
        (select count(*) from users u where u.wallet_balance <> (
          select coalesce(sum(case t.type when 'bid' then -t.amount else t.amount end), 0) from wallet_transactions t where t.user_id = u.id)) as "ledgerMismatches",
        (select count(*) from users where wallet_balance < 0) as "negativeBalances",
        (select count(*) from (select product_id from bids where status = 'success' group by product_id having count(*) > 1) m) as "multipleLeaders"`);
    if (!r) throw new Error('store: audit returned no row');
    const ok = r.topups === r.balances + r.held + r.paid && r.ledgerMismatches === 0 && r.negativeBalances === 0 && r.multipleLeaders === 0;
    return { ...r, ok };
  }
}
