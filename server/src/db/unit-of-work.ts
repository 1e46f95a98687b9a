/**
 * The unit of work of both stores: every statement a command runs, written once in SQL that SQLite
 * and PostgreSQL both accept (`Dialect` names the few differences). Each method is one indexed
 * statement, or one per row it changes; the bid path is a constant handful of them.
 */
import { marks, type Dialect, type Param, type SqlRunner } from './sql.js';
import { asAdmin, asBid, columns, isStorableId, type AccountStatus, type AdminRow, type CategoryRow, type AuctionRow, type BidRow, type ProductRow, type Role, type TransactionRow, type UserRow } from './rows.js';
import type { AccountToken, Applied, AutoRaise, ChangeSet, Hold, MailDraft, NewProduct, TokenPurpose, UnitOfWork, UnmailedNotice, Wallet } from './store.js';
import { notificationColumns, type NotificationRow, type ProductImageRow } from './rows.js';
import { FINAL_NOTICE_KINDS, NOTICES_KEPT, type AppliedNotice, type Follower, type NoticeDraft } from './store.js';

const ACCOUNT_TABLE: Record<Role, string> = { user: 'users', admin: 'admins' };

const INSERT_PRODUCTS = 'insert into products (id, name, description, created_by, starting_price, reserve_price, buy_now_price, category_id, created_at, updated_at) values';
const PRODUCT_VALUES = 10;
const productValues = (row: NewProduct): Param[] => [
  row.id, row.name, row.description, row.createdBy, row.startingPrice ?? 0, row.reservePrice ?? null, row.buyNowPrice ?? null, row.categoryId ?? null, row.now, row.now,
];
/**
 * Products per statement in a bulk insert: 10,000 parameters, well under both stores' limits
 * (SQLite 32,766, PostgreSQL 65,535), few enough round trips that a 10,000-row import is ten.
 */
const BULK_ROWS = 1000;

const PRODUCT_COLUMNS: Record<string, string> = {
  name: 'name', description: 'description', auctionId: 'auction_id', status: 'status', soldPrice: 'sold_price',
  winnerId: 'winner_id', bidCount: 'bid_count', version: 'version', deletedAt: 'deleted_at',
  startingPrice: 'starting_price', reservePrice: 'reserve_price', buyNowPrice: 'buy_now_price', categoryId: 'category_id', lotNumber: 'lot_number',
};
const AUCTION_COLUMNS: Record<string, string> = {
  name: 'name', validUntil: 'valid_until', originalValidUntil: 'original_valid_until', incrementRule: 'increment_rule',
  incrementAmount: 'increment_amount', incrementTiers: 'increment_tiers', cancelPolicy: 'cancel_policy',
  softCloseS: 'soft_close_s', maxExtensionS: 'max_extension_s', settledAt: 'settled_at', deletedAt: 'deleted_at',
};
/** The product fields the search index holds or depends on (search.ts). */
const SEARCHED_PRODUCT_FIELDS = ['name', 'description', 'auctionId', 'deletedAt'] as const;
/** A product image's columns from `product_images i` (photos). */
const IMAGE_COLUMNS = 'i.id, i.product_id as "productId", i.position, i.image_name as "imageName", i.thumb_name as "thumbName", i.width, i.height';
/** A hold's columns from `bids b`. */
const HOLD = 'b.id as "bidId", b.user_id as "userId", b.amount, b.max_amount as "maxAmount"';

/**
 * From `bids b`: the outbid bids on a product (?) in an auction (?) of bidders other than one (?) who
 * may still lead there: active, registered, and never cancelled a bid on it in that auction.
 */
const MAY_LEAD = `join users u on u.id = b.user_id
  join registrations r on r.auction_id = b.auction_id and r.user_id = b.user_id
  where b.product_id = ? and b.auction_id = ? and b.status = 'outbid' and b.user_id <> ? and u.status = 'active'
    and not exists (select 1 from bids c where c.product_id = b.product_id and c.auction_id = b.auction_id and c.user_id = b.user_id and c.status = 'rolledback')`;

/** `set a = ?, b = ?, updated_at = ?` and its values, for the keys present in `set` (in a fixed order). */
function assignments(set: Record<string, Param | undefined>, names: Record<string, string>, now: number): { text: string; values: Param[] } {
  const parts: string[] = [];
  const values: Param[] = [];
  for (const [key, column] of Object.entries(names)) {
    const value = set[key];
    if (value === undefined) continue;
    parts.push(`${column} = ?`);
    values.push(value);
  }
  parts.push('updated_at = ?');
  values.push(now);
  return { text: parts.join(', '), values };
}

/**
 * The notices a change set writes, in the order they are written: one per user and `dedupe` key (the
 * first, or with `replace` the last), by user in ascending id order (as every writer takes them) and
 * then as drafted; those that replace a notice with their key first, then those inserted or skipped.
 */
export function orderNotices(drafts: readonly NoticeDraft[]): { replace: NoticeDraft[]; skip: NoticeDraft[] } {
  const byKey = new Map<string, number>();
  const kept: (NoticeDraft | null)[] = [];
  for (const d of drafts) {
    if (d.dedupe === undefined || d.dedupe === null) { kept.push(d); continue; }
    const key = `${d.userId}|${d.dedupe}`;
    const at = byKey.get(key);
    if (at === undefined) { byKey.set(key, kept.length); kept.push(d); continue; }
    if (d.replace) { kept[at] = null; byKey.set(key, kept.length); kept.push(d); }
  }
  const ordered = kept
    .flatMap((d, i) => (d === null ? [] : [{ d, i }]))
    .sort((a, b) => a.d.userId - b.d.userId || a.i - b.i)
    .map((x) => x.d);
  const replaces = (d: NoticeDraft) => Boolean(d.replace && d.dedupe);
  return { replace: ordered.filter(replaces), skip: ordered.filter((d) => !replaces(d)) };
}

export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly sql: SqlRunner, private readonly dialect: Dialect) {}

  async openProductsByName(name: string, now: number, userId: number) {
    const rows = await this.sql.all<{ id: string; registered: number | boolean }>(
      `select p.id, case when exists (select 1 from registrations r where r.auction_id = a.id and r.user_id = ?) then 1 else 0 end as registered
       from products p join auctions a on a.id = p.auction_id
       where p.name = ? and p.deleted_at is null and a.settled_at is null and a.valid_until > ? order by registered desc, p.id limit 2`,
      [userId, name, now],
    );
    return rows.map((r) => ({ id: r.id, registered: Number(r.registered) === 1 }));
  }

  async lockProduct(id: string) {
    const product = await this.sql.get<ProductRow>(`select ${columns.product('p')} from products p where p.id = ? and p.deleted_at is null${this.dialect.forUpdate}`, [id]);
    if (!product) return null;
    // Read after the lock: on PostgreSQL this statement sees whatever committed while we waited.
    const auction = product.auctionId === null ? null
      : (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ?`, [product.auctionId])) ?? null;
    return { product, auction };
  }

  async lockProducts(ids: readonly string[]): Promise<ProductRow[]> {
    if (ids.length === 0) return [];
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where p.id in (${marks(ids.length)}) and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      ids,
    );
  }

  async lockProductsOf(auctionId: string): Promise<ProductRow[]> {
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where p.auction_id = ? and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      [auctionId],
    );
  }

  async lockProductsFor(auctionId: string, ids: readonly string[]): Promise<ProductRow[]> {
    const others = ids.length === 0 ? '' : ` or p.id in (${marks(ids.length)})`;
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where (p.auction_id = ?${others}) and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      [auctionId, ...ids],
    );
  }

  async auction(id: string): Promise<AuctionRow | null> {
    return (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ? and a.deleted_at is null`, [id])) ?? null;
  }

  async lockAuction(id: string): Promise<AuctionRow | null> {
    return (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ? and a.deleted_at is null${this.dialect.forUpdate}`, [id])) ?? null;
  }

  async auctionIdTaken(id: string): Promise<boolean> {
    return (await this.sql.get('select 1 as one from auctions where id = ?', [id])) !== undefined;
  }

  async lockWallets(userIds: readonly number[]): Promise<Map<number, Wallet>> {
    // An id no row can have (past 32 bits: PostgreSQL refuses it as a parameter) names no wallet.
    const ids = [...new Set(userIds)].filter(isStorableId).sort((a, b) => a - b);
    const wallets = new Map<number, Wallet>();
    if (ids.length === 0) return wallets;
    // Ascending ids: two commands that both need wallets A and B always take A first.
    const rows = ids.length === 1
      ? await this.sql.all<Wallet>(`select id, username, status, wallet_balance as balance from users where id = ?${this.dialect.forUpdate}`, ids)
      : await this.sql.all<Wallet>(`select id, username, status, wallet_balance as balance from users where id in (${marks(ids.length)}) order by id${this.dialect.forUpdate}`, ids);
    for (const r of rows) wallets.set(r.id, r);
    return wallets;
  }

  async leader(productId: string): Promise<Hold | null> {
    return (await this.sql.get<Hold>(`select ${HOLD} from bids b where b.product_id = ? and b.status = 'success'`, [productId])) ?? null;
  }

  async leaders(productIds: readonly string[]) {
    if (productIds.length === 0) return [];
    return this.sql.all<Hold & { productId: string }>(
      `select ${HOLD}, b.product_id as "productId" from bids b
       where b.product_id in (${marks(productIds.length)}) and b.status = 'success' order by b.product_id`,
      productIds,
    );
  }

  async isRegistered(auctionId: string, userId: number): Promise<boolean> {
    return (await this.sql.get('select 1 as one from registrations where auction_id = ? and user_id = ?', [auctionId, userId])) !== undefined;
  }

  async bidWithContext(bidId: number) {
    if (!isStorableId(bidId)) return null;
    const row = await this.sql.get<BidRow & { productName: string }>(
      `select ${columns.bid('b')}, p.name as "productName" from bids b join products p on p.id = b.product_id where b.id = ?`,
      [bidId],
    );
    if (!row) return null;
    const auction = await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ?`, [row.auctionId]);
    if (!auction) return null;
    const { productName, ...bid } = row;
    return { bid: asBid(bid), productName, auction };
  }

  async reinstatementCandidates(cancelled: BidRow): Promise<Hold[]> {
    return this.sql.all<Hold>(
      `select ${HOLD} from bids b ${MAY_LEAD} order by b.amount desc, b.id asc`,
      [cancelled.productId, cancelled.auctionId, cancelled.userId],
    );
  }

  async runnerUpTop(productId: string, auctionId: string, userId: number): Promise<number | null> {
    const row = await this.sql.get<{ top: number | null }>(`select max(coalesce(b.max_amount, b.amount)) as top from bids b ${MAY_LEAD}`, [productId, auctionId, userId]);
    return row?.top === null || row?.top === undefined ? null : Number(row.top);
  }

  async autoRaisesOf(bidIds: readonly number[]): Promise<AutoRaise[]> {
    if (bidIds.length === 0) return [];
    return this.sql.all<AutoRaise>(
      `select x.id, x.bid_id as "bidId", x.amount from auto_bids x where x.bid_id in (${marks(bidIds.length)}) and x.status = 'accepted' order by x.id`,
      bidIds,
    );
  }

  async lotBidCount(productId: string, auctionId: string): Promise<number> {
    const row = await this.sql.get<{ n: number }>(
      `select (select count(*) from bids b where b.product_id = ? and b.auction_id = ? and b.status not in ('failed', 'rolledback'))
        + (select count(*) from auto_bids x join bids b on b.id = x.bid_id where x.product_id = ? and b.auction_id = ? and x.status = 'accepted') as n`,
      [productId, auctionId, productId, auctionId],
    );
    return Number(row?.n ?? 0);
  }

  async cancelsBy(userId: number, auctionId: string, productId: string): Promise<{ auction: number; lot: number }> {
    // bids_auction_idx (auction_id, status): an auction's cancelled bids, few by the rule they count for.
    const row = await this.sql.get<{ auction: number; lot: number }>(
      `select count(*) as auction, coalesce(sum(case when b.product_id = ? then 1 else 0 end), 0) as lot
       from bids b where b.auction_id = ? and b.status = 'rolledback' and b.user_id = ? and b.reason = 'CANCELLED'`,
      [productId, auctionId, userId],
    );
    return { auction: Number(row?.auction ?? 0), lot: Number(row?.lot ?? 0) };
  }

  async leadingBidsOf(userId: number): Promise<BidRow[]> {
    if (!isStorableId(userId)) return [];
    return (await this.sql.all<BidRow>(`select ${columns.bid('b')} from bids b where b.user_id = ? and b.status = 'success' order by b.product_id`, [userId])).map(asBid);
  }

  async insertProduct(row: NewProduct) {
    const product = (await this.sql.get<ProductRow>(
      `${INSERT_PRODUCTS} (${marks(PRODUCT_VALUES)}) on conflict do nothing returning ${columns.product('products')}`,
      productValues(row),
    )) ?? null;
    // The search index follows in the same transaction (docs/catalogue.md#search).
    if (product) await this.dialect.search.refreshProducts(this.sql, [product.id]);
    return product;
  }

  async insertProducts(rows: readonly NewProduct[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    const row = `(${marks(PRODUCT_VALUES)})`;
    for (let start = 0; start < rows.length; start += BULK_ROWS) {
      const chunk = rows.slice(start, start + BULK_ROWS);
      const made = await this.sql.all<{ id: string }>(
        `${INSERT_PRODUCTS} ${chunk.map(() => row).join(', ')} on conflict do nothing returning id`,
        chunk.flatMap(productValues),
      );
      const ids = made.map((p) => p.id);
      for (const id of ids) inserted.add(id);
      await this.dialect.search.indexNewProducts(this.sql, ids);
    }
    if (this.dialect.afterBulkInsert !== null && inserted.size >= BULK_ROWS) await this.sql.run(this.dialect.afterBulkInsert);
    return inserted;
  }

  async lockProductImports(): Promise<void> {
    if (this.dialect.productImportLock) await this.sql.get(this.dialect.productImportLock);
  }

  async numberLots(auctionId: string): Promise<void> {
    const lots = await this.sql.all<{ id: string; lotNumber: number | null }>(
      `select p.id, p.lot_number as "lotNumber" from products p where p.auction_id = ? and p.deleted_at is null
       order by p.created_at, ${this.dialect.insertionOrder('p')}`,
      [auctionId],
    );
    const bid = await this.sql.get("select 1 as one from bids b where b.auction_id = ? and b.status <> 'failed' limit 1", [auctionId]);
    let next = bid ? Math.max(0, ...lots.map((l) => l.lotNumber ?? 0)) : 0;
    for (const lot of lots) {
      if (bid && lot.lotNumber !== null) continue;
      next += 1;
      if (lot.lotNumber !== next) await this.sql.run('update products set lot_number = ? where id = ?', [next, lot.id]);
    }
  }

  // ---- categories (docs/catalogue.md) -----------------------------------------------------------

  async lockCategory(id: number): Promise<CategoryRow | null> {
    if (!isStorableId(id)) return null;
    return (await this.sql.get<CategoryRow>(`select ${columns.category('c')} from categories c where c.id = ?${this.dialect.forUpdate}`, [id])) ?? null;
  }

  async categorySlugTaken(slug: string, exceptId?: number): Promise<boolean> {
    return (await this.sql.get('select 1 as one from categories where slug = ? and id <> ?', [slug, exceptId ?? 0])) !== undefined;
  }

  async categoryInUse(id: number): Promise<{ children: boolean; products: boolean }> {
    const row = await this.sql.get<{ children: number | boolean; products: number | boolean }>(
      `select exists (select 1 from categories c where c.parent_id = ?) as children,
        exists (select 1 from products p where p.category_id = ? and p.deleted_at is null) as products`,
      [id, id],
    );
    return { children: Boolean(row?.children), products: Boolean(row?.products) };
  }

  async insertCategory(row: { name: string; slug: string; parentId: number | null; now: number }): Promise<CategoryRow | null> {
    return (await this.sql.get<CategoryRow>(
      `insert into categories (name, slug, parent_id, created_at) values (?, ?, ?, ?) on conflict do nothing returning ${columns.category('categories')}`,
      [row.name, row.slug, row.parentId, row.now],
    )) ?? null;
  }

  async updateCategory(id: number, set: { name: string; slug: string; parentId: number | null }): Promise<CategoryRow | null> {
    return (await this.sql.get<CategoryRow>(
      `update categories set name = ?, slug = ?, parent_id = ? where id = ? returning ${columns.category('categories')}`,
      [set.name, set.slug, set.parentId, id],
    )) ?? null;
  }

  async deleteCategory(id: number): Promise<void> {
    await this.sql.run('update products set category_id = null where category_id = ? and deleted_at is not null', [id]);
    await this.sql.run('delete from categories where id = ?', [id]);
  }

  async insertAuction(row: { id: string; name: string; validUntil: number; createdBy: number; now: number } & Partial<Pick<AuctionRow, 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS'>>) {
    return (await this.sql.get<AuctionRow>(
      `insert into auctions (id, name, valid_until, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, created_by, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.auction('auctions')}`,
      [
        row.id, row.name, row.validUntil, row.validUntil, row.incrementRule ?? 'flat', row.incrementAmount ?? 100, row.incrementTiers ?? null,
        row.cancelPolicy ?? 'until_end', row.softCloseS ?? 0, row.maxExtensionS ?? 3600, row.createdBy, row.now, row.now,
      ],
    )) ?? null;
  }

  async register(auctionId: string, userId: number, now: number): Promise<boolean> {
    return (await this.sql.run('insert into registrations (auction_id, user_id, created_at) values (?, ?, ?) on conflict do nothing', [auctionId, userId, now])) > 0;
  }

  async insertUser(row: { username: string; name: string; mobileNumber: string; passwordHash: string; now: number }) {
    return (await this.sql.get<UserRow>(
      `insert into users (username, name, mobile_number, password_hash, created_at) values (?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.user('users')}`,
      [row.username, row.name, row.mobileNumber, row.passwordHash, row.now],
    )) ?? null;
  }

  async lockAdminSignup(): Promise<void> {
    if (this.dialect.adminSignupLock) await this.sql.get(this.dialect.adminSignupLock);
  }

  async hasOwner(): Promise<boolean> {
    return (await this.sql.get('select 1 as one from admins where is_owner = ?', [true])) !== undefined;
  }

  async insertAdmin(row: { username: string; name: string; mobileNumber: string; passwordHash: string; isOwner: boolean; now: number }) {
    const admin = await this.sql.get<AdminRow>(
      `insert into admins (username, name, mobile_number, password_hash, is_owner, created_at) values (?, ?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.admin('admins')}`,
      [row.username, row.name, row.mobileNumber, row.passwordHash, row.isOwner, row.now],
    );
    return admin ? asAdmin(admin) : null;
  }

  async replacePassword(role: Role, id: number, expected: string, passwordHash: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set password_hash = ?, token_version = token_version + 1 where id = ? and password_hash = ? returning token_version as ver`,
      [passwordHash, id, expected],
    );
    return row?.ver ?? null;
  }

  async setUserStatus(id: number, status: AccountStatus): Promise<UserRow | null> {
    if (!isStorableId(id)) return null;
    // Deactivation bumps the token version (tokens stop working at once); reactivation brings none back.
    const bump = status === 'inactive' ? 1 : 0;
    return (await this.sql.get<UserRow>(
      `update users set status = ?, token_version = token_version + ? where id = ? returning ${columns.user('users')}`,
      [status, bump, id],
    )) ?? null;
  }

  async updateAdminProfile(id: number, name: string, mobileNumber: string): Promise<AdminRow | null> {
    const admin = await this.sql.get<AdminRow>(`update admins set name = ?, mobile_number = ? where id = ? returning ${columns.admin('admins')}`, [name, mobileNumber, id]);
    return admin ? asAdmin(admin) : null;
  }

  // ---- photos (docs/photos.md) --------------------------------------------------------------------

  async productImages(productId: string): Promise<ProductImageRow[]> {
    return this.sql.all<ProductImageRow>(
      `select ${IMAGE_COLUMNS} from product_images i where i.product_id = ? order by i.position, i.id`,
      [productId],
    );
  }

  async insertMedia(row: { name: string; contentType: string; bytes: Buffer; width: number; height: number; now: number }): Promise<void> {
    // Named by the hash of its bytes: the same name is the same rendition, already stored. The no-op
    // update takes the row's lock, as a photo's delete does before it drops renditions no photo names:
    // a rendition is never dropped under an upload that is about to name it (deleteProductImage).
    await this.sql.run(
      'insert into media (name, content_type, bytes, width, height, created_at) values (?, ?, ?, ?, ?, ?) on conflict (name) do update set name = excluded.name',
      [row.name, row.contentType, row.bytes, row.width, row.height, row.now],
    );
  }

  async insertProductImage(row: { productId: string; imageName: string; thumbName: string; width: number; height: number; now: number }): Promise<ProductImageRow> {
    const image = await this.sql.get<ProductImageRow>(
      `insert into product_images (product_id, position, image_name, thumb_name, width, height, created_at)
       values (?, (select coalesce(max(position), -1) + 1 from product_images where product_id = ?), ?, ?, ?, ?, ?)
       returning ${IMAGE_COLUMNS.replaceAll('i.', 'product_images.')}`,
      [row.productId, row.productId, row.imageName, row.thumbName, row.width, row.height, row.now],
    );
    if (!image) throw new Error('store: insert of a product image returned no row');
    return image;
  }

  async deleteProductImage(productId: string, imageId: number): Promise<boolean> {
    if (!isStorableId(imageId)) return false;
    const gone = await this.sql.get<{ image: string; thumb: string }>(
      'delete from product_images where id = ? and product_id = ? returning image_name as image, thumb_name as thumb', [imageId, productId],
    );
    if (!gone) return false;
    // Its renditions go too unless another photo names them (the same bytes uploaded twice share
    // them). Locked first, as an upload of the same bytes locks them, so neither misses the other.
    const names = [...new Set([gone.image, gone.thumb])];
    await this.sql.all(`select name from media where name in (${marks(names.length)}) order by name${this.dialect.forUpdate}`, names);
    await this.sql.run(
      `delete from media where name in (${marks(names.length)})
       and not exists (select 1 from product_images i where i.image_name = media.name)
       and not exists (select 1 from product_images i where i.thumb_name = media.name)`,
      names,
    );
    return true;
  }

  async setImagePositions(productId: string, ids: readonly number[]): Promise<void> {
    for (const [position, id] of ids.entries()) {
      await this.sql.run('update product_images set position = ? where id = ? and product_id = ?', [position, id, productId]);
    }
  }

  async apply(changes: ChangeSet, now: number): Promise<Applied> {
    for (const b of changes.bids ?? []) {
      const set = ['status = ?'];
      const values: Param[] = [b.status];
      if (b.reason !== undefined) { set.push('reason = ?'); values.push(b.reason); }
      if (b.amount !== undefined) { set.push('amount = ?'); values.push(b.amount); }
      if (b.maxAmount !== undefined) { set.push('max_amount = ?'); values.push(b.maxAmount); }
      await this.sql.run(`update bids set ${set.join(', ')}, updated_at = ? where id = ?`, [...values, now, b.id]);
    }
    let newBid: BidRow | null = null;
    if (changes.newBid) {
      const b = changes.newBid;
      const row = await this.sql.get<BidRow>(
        `insert into bids (user_id, product_id, auction_id, amount, placed_amount, max_amount, buy_now, status, reason, extended_from, extended_to, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         returning ${columns.bid('bids')}`,
        [b.userId, b.productId, b.auctionId, b.amount, b.amount, b.maxAmount ?? null, b.buyNow ?? false, b.status, b.reason, b.extendedFrom ?? null, b.extendedTo ?? null, now, now],
      );
      if (!row) throw new Error('store: insert of a bid returned no row');
      newBid = asBid(row);
    }
    for (const a of changes.autoBids ?? []) {
      await this.sql.run('insert into auto_bids (bid_id, product_id, amount, created_at) values (?, ?, ?, ?)', [a.bidId, a.productId, a.amount, now]);
    }
    const undone = changes.autoBidsRolledBack ?? [];
    if (undone.length > 0) await this.sql.run(`update auto_bids set status = 'rolledback' where id in (${marks(undone.length)})`, undone);
    const transactions: TransactionRow[] = [];
    const balances = new Map<number, number>();
    for (const m of changes.moves ?? []) {
      const delta = m.type === 'bid' ? -m.amount : m.amount;
      const wallet = await this.sql.get<{ balance: number }>('update users set wallet_balance = wallet_balance + ? where id = ? returning wallet_balance as balance', [delta, m.userId]);
      if (!wallet) throw new Error(`store: no user ${m.userId}`);
      const bidId = m.bidId === 'new' ? newBid?.id ?? null : m.bidId ?? null;
      if (m.bidId === 'new' && bidId === null) throw new Error('store: a move names a new bid the change set does not have');
      const row = await this.sql.get<TransactionRow>(
        `insert into wallet_transactions (user_id, type, amount, bid_id, product_id, notes, created_at) values (?, ?, ?, ?, ?, ?, ?)
         returning ${columns.transaction('wallet_transactions')}`,
        [m.userId, m.type, m.amount, bidId, m.productId ?? null, m.notes ?? null, now],
      );
      if (!row) throw new Error('store: insert of a ledger row returned no row');
      transactions.push(row);
      balances.set(m.userId, wallet.balance);
    }
    for (const p of changes.products ?? []) {
      const set = p.set.auctionId === null && p.set.lotNumber === undefined ? { ...p.set, lotNumber: null } : p.set;
      const { text, values } = assignments(set, PRODUCT_COLUMNS, now);
      await this.sql.run(`update products set ${text} where id = ?`, [...values, p.id]);
    }
    for (const a of changes.auctions ?? []) {
      const { text, values } = assignments(a.set, AUCTION_COLUMNS, now);
      await this.sql.run(`update auctions set ${text} where id = ?`, [...values, a.id]);
    }
    // The search index follows every change of what it holds, in this transaction (docs/catalogue.md#search):
    // a product's words or auction, a deletion, an auction's name. Bids change none of them.
    const searched = (changes.products ?? []).filter((p) => SEARCHED_PRODUCT_FIELDS.some((k) => p.set[k] !== undefined)).map((p) => p.id);
    await this.dialect.search.refreshProducts(this.sql, [...new Set(searched)]);
    const renamed = (changes.auctions ?? []).filter((a) => a.set.name !== undefined).map((a) => a.id);
    await this.dialect.search.refreshAuctions(this.sql, [...new Set(renamed)]);
    const notices = await this.writeNotices(changes.notices ?? [], now);
    return { newBid, transactions, balances, notices };
  }

  // ---- saved lots and notifications (docs/notifications.md) ------------------------------------

  async followersOf(auctionId: string, opts: { productIds?: readonly string[]; savers?: boolean } = {}): Promise<Follower[]> {
    const ids = opts.productIds;
    if (ids !== undefined && ids.length === 0) return [];
    const only = (column: string) => (ids === undefined ? '' : ` and ${column} in (${marks(ids.length)})`);
    const idParams = ids ?? [];
    const parts = [`select b.user_id, b.product_id, 1 as bid from bids b where b.auction_id = ? and b.status <> 'failed'${only('b.product_id')}`];
    const params: Param[] = [auctionId, ...idParams];
    if (opts.savers) {
      parts.push(`select s.user_id, s.product_id, 0 as bid from saved_lots s join products sp on sp.id = s.product_id where sp.auction_id = ?${only('s.product_id')}`);
      params.push(auctionId, ...idParams);
    }
    const rows = await this.sql.all<Follower & { bid: number | boolean }>(
      `select f.user_id as "userId", f.product_id as "productId", p.name as "productName", max(f.bid) as bid
       from (${parts.join(' union all ')}) f join products p on p.id = f.product_id
       where p.auction_id = ? and p.deleted_at is null
       group by f.user_id, f.product_id, p.name order by f.user_id, f.product_id`,
      [...params, auctionId],
    );
    return rows.map((r) => ({ ...r, bid: Boolean(Number(r.bid)) }));
  }

  async productListed(id: string): Promise<boolean> {
    return (await this.sql.get('select 1 as one from products where id = ? and deleted_at is null and auction_id is not null', [id])) !== undefined;
  }

  async saveLot(userId: number, productId: string, now: number): Promise<boolean> {
    return (await this.sql.run('insert into saved_lots (user_id, product_id, created_at) values (?, ?, ?) on conflict do nothing', [userId, productId, now])) > 0;
  }

  async unsaveLot(userId: number, productId: string): Promise<boolean> {
    return (await this.sql.run('delete from saved_lots where user_id = ? and product_id = ?', [userId, productId])) > 0;
  }

  async enqueueMail(mail: MailDraft, now: number): Promise<number> {
    const row = await this.sql.get<{ id: number }>(
      `insert into mail_outbox (kind, to_address, subject, text_body, html_body, headers, created_at, attempts, next_attempt_at, user_id, topic)
       values (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) returning id`,
      [mail.kind, mail.to, mail.subject, mail.text, mail.html, JSON.stringify(mail.headers ?? {}), now, now, mail.userId ?? null, mail.topic ?? null],
    );
    return row!.id;
  }

  async mailedTopicsSince(pairs: readonly { userId: number; topic: string }[], since: number): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows = await this.sql.all<{ userId: number; topic: string }>(
      `select distinct user_id as "userId", topic from mail_outbox
       where topic is not null and created_at > ? and (${pairs.map(() => '(user_id = ? and topic = ?)').join(' or ')})`,
      [since, ...pairs.flatMap((p) => [p.userId, p.topic])],
    );
    return new Set(rows.map((r) => `${r.userId}|${r.topic}`));
  }

  async enqueueMails(mails: readonly MailDraft[], now: number): Promise<void> {
    for (let at = 0; at < mails.length; at += 100) {
      const chunk = mails.slice(at, at + 100);
      await this.sql.run(
        `insert into mail_outbox (kind, to_address, subject, text_body, html_body, headers, created_at, attempts, next_attempt_at, user_id, topic)
         values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((m) => [m.kind, m.to, m.subject, m.text, m.html, JSON.stringify(m.headers ?? {}), now, now, m.userId ?? null, m.topic ?? null]),
      );
    }
  }

  async claimUnmailedNotices(limit: number): Promise<UnmailedNotice[]> {
    return this.sql.all<UnmailedNotice>(
      `select n.id, n.user_id as "userId", n.kind, n.title, n.body, n.link, n.created_at as "createdAt",
              u.email, u.email_notices as "emailNotices", u.status
       from notifications n join users u on u.id = n.user_id
       where n.mailed_at is null order by n.id limit ?${this.dialect.claim('n')}`,
      [limit],
    );
  }

  async markNoticesMailed(ids: readonly number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.run(`update notifications set mailed_at = ? where id in (${marks(ids.length)})`, [now, ...ids]);
  }

  // ---- email addresses and links (docs/email.md) ------------------------------------------------

  async setPendingEmail(role: Role, id: number, email: string | null): Promise<boolean> {
    return (await this.sql.run(`update ${ACCOUNT_TABLE[role]} set pending_email = ? where id = ?`, [email, id])) > 0;
  }

  async clearEmail(role: Role, id: number): Promise<void> {
    await this.sql.run(`update ${ACCOUNT_TABLE[role]} set email = null, pending_email = null where id = ?`, [id]);
  }

  async accountEmail(role: Role, id: number): Promise<{ email: string | null; status: AccountStatus; username: string; name: string } | null> {
    return (await this.sql.get<{ email: string | null; status: AccountStatus; username: string; name: string }>(
      `select email, status, username, name from ${ACCOUNT_TABLE[role]} where id = ?${this.dialect.forUpdate}`, [id],
    )) ?? null;
  }

  async emailTaken(role: Role, email: string, exceptId: number): Promise<boolean> {
    return (await this.sql.get(`select 1 as one from ${ACCOUNT_TABLE[role]} where email = ? and id <> ?`, [email, exceptId])) !== undefined;
  }

  async confirmEmail(role: Role, id: number, email: string): Promise<boolean> {
    return (await this.sql.run(`update ${ACCOUNT_TABLE[role]} set email = pending_email, pending_email = null where id = ? and pending_email = ?`, [id, email])) > 0;
  }

  async insertAccountToken(row: { role: Role; accountId: number; purpose: TokenPurpose; tokenHash: string; email: string; now: number; expiresAt: number }): Promise<void> {
    await this.sql.run(
      'insert into account_tokens (role, account_id, purpose, token_hash, email, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)',
      [row.role, row.accountId, row.purpose, row.tokenHash, row.email, row.now, row.expiresAt],
    );
  }

  async useAccountToken(tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountToken | null> {
    return (await this.sql.get<AccountToken>(
      `update account_tokens set used_at = ? where token_hash = ? and purpose = ? and used_at is null and expires_at > ?
       returning id, role, account_id as "accountId", email`,
      [now, tokenHash, purpose, now],
    )) ?? null;
  }

  async spendAccountTokens(role: Role, accountId: number, purpose: TokenPurpose, now: number, fromId = 0): Promise<void> {
    await this.sql.run('update account_tokens set used_at = ? where role = ? and account_id = ? and purpose = ? and used_at is null and id >= ?', [now, role, accountId, purpose, fromId]);
  }

  async accountTokensSince(role: Role, accountId: number, purpose: TokenPurpose, since: number): Promise<number> {
    const row = await this.sql.get<{ n: number }>('select count(*) as n from account_tokens where role = ? and account_id = ? and purpose = ? and created_at > ?', [role, accountId, purpose, since]);
    return Number(row?.n ?? 0);
  }

  async countMailTo(address: string, kind: string, now: number, windowMs: number): Promise<number> {
    // One statement, so the row's lock covers the read and the write (both stores' upsert).
    const row = await this.sql.get<{ sent: number }>(
      `insert into mail_caps (address, kind, window_start, sent) values (?, ?, ?, 1)
       on conflict (address, kind) do update set
         sent = case when mail_caps.window_start > ? then mail_caps.sent + 1 else 1 end,
         window_start = case when mail_caps.window_start > ? then mail_caps.window_start else excluded.window_start end
       returning sent`,
      [address, kind, now, now - windowMs, now - windowMs],
    );
    return Number(row!.sent);
  }

  async restoreEmail(role: Role, id: number, email: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set email = ?, pending_email = null, token_version = token_version + 1 where id = ? returning token_version as ver`,
      [email, id],
    );
    return row?.ver ?? null;
  }

  async resetPassword(role: Role, id: number, passwordHash: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set password_hash = ?, token_version = token_version + 1 where id = ? returning token_version as ver`,
      [passwordHash, id],
    );
    return row?.ver ?? null;
  }

  async emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.sql.get<{ kinds: string; email: string | null }>(`select email_notices as kinds, email from users where id = ?${this.dialect.forUpdate}`, [userId]);
    return row ? { kinds: row.kinds.split(',').filter(Boolean), email: row.email } : null;
  }

  async setEmailNotices(userId: number, kinds: readonly string[]): Promise<void> {
    await this.sql.run('update users set email_notices = ? where id = ?', [kinds.join(','), userId]);
  }

  async mailSent(id: number, now: number): Promise<void> {
    await this.sql.run('update mail_outbox set sent_at = ?, attempts = attempts + 1, last_error = null where id = ?', [now, id]);
  }

  async mailRetry(id: number, attempts: number, nextAt: number, error: string): Promise<void> {
    await this.sql.run('update mail_outbox set attempts = ?, next_attempt_at = ?, last_error = ? where id = ? and sent_at is null', [attempts, nextAt, error.slice(0, 500), id]);
  }

  async mailFailed(id: number, attempts: number, now: number, error: string): Promise<void> {
    await this.sql.run('update mail_outbox set attempts = ?, failed_at = ?, last_error = ? where id = ? and sent_at is null', [attempts, now, error.slice(0, 500), id]);
  }

  async markNotificationsRead(userId: number, ids: readonly number[] | null, now: number): Promise<number> {
    const own = ids === null ? null : [...new Set(ids)].filter(isStorableId);
    if (own === null) {
      await this.sql.run('update notifications set read_at = ? where user_id = ? and read_at is null', [now, userId]);
    } else if (own.length > 0) {
      await this.sql.run(`update notifications set read_at = ? where user_id = ? and read_at is null and id in (${marks(own.length)})`, [now, userId, ...own]);
    }
    return (await this.sql.get<{ n: number }>('select count(*) as n from notifications where user_id = ? and read_at is null', [userId]))?.n ?? 0;
  }

  /**
   * Writes notices (one statement per 500): those whose `dedupe` key the user has already are skipped,
   * or with `replace` replace that notice in place (within one change set the first of a key wins, or
   * with `replace` the last). Then, per user written to, keeps NOTICES_KEPT (see there: the notices just
   * written, then final outcomes, then the rest, newest first) and counts what is unread. Users in
   * ascending id order, as every writer takes them.
   */
  private async writeNotices(drafts: readonly NoticeDraft[], now: number): Promise<AppliedNotice[]> {
    if (drafts.length === 0) return [];
    const ordered = orderNotices(drafts);
    const rows: NotificationRow[] = [];
    // Two statements at most: a replaced notice keeps its row (and id), anything else is inserted or skipped.
    const conflict = {
      skip: 'on conflict do nothing',
      replace: `on conflict (user_id, dedupe) where dedupe is not null do update set
        kind = excluded.kind, title = excluded.title, body = excluded.body, link = excluded.link, read_at = null, created_at = excluded.created_at,
        mailed_at = null`,
    };
    // Replacing first: the standing notices come first in every change set that has both kinds.
    for (const mode of ['replace', 'skip'] as const) {
      const mine = ordered[mode];
      for (let at = 0; at < mine.length; at += 500) {
        const chunk = mine.slice(at, at + 500);
        rows.push(...await this.sql.all<NotificationRow>(
          `insert into notifications (user_id, kind, title, body, link, dedupe, created_at) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
           ${conflict[mode]} returning ${notificationColumns('notifications')}`,
          chunk.flatMap((d) => [d.userId, d.kind, d.title, d.body, d.link, d.dedupe ?? null, now]),
        ));
      }
    }
    if (rows.length === 0) return [];
    rows.sort((a, b) => a.id - b.id);
    const users = [...new Set(rows.map((r) => r.userId))].sort((a, b) => a - b);
    // Two counts from indexes alone (notifications_user_idx, and the partial notifications_unread_idx):
    // no notice row is read, however many a user keeps.
    const stats = await this.sql.all<{ userId: number; total: number; unread: number }>(
      `select u.id as "userId",
        (select count(*) from notifications n where n.user_id = u.id) as total,
        (select count(*) from notifications n where n.user_id = u.id and n.read_at is null) as unread
       from users u where u.id in (${marks(users.length)}) order by u.id`,
      users,
    );
    const unread = new Map<number, number>();
    const finals = FINAL_NOTICE_KINDS.map((k) => `'${k}'`).join(', ');
    for (const st of stats) {
      let left = Number(st.unread);
      const excess = Number(st.total) - NOTICES_KEPT;
      if (excess > 0) {
        // The oldest of the rest first, then the oldest final outcomes, and only then (a change that wrote
        // more than NOTICES_KEPT for one user) the oldest of those written just now.
        const written = rows.filter((r) => r.userId === st.userId).map((r) => r.id);
        const gone = await this.sql.all<{ unread: number }>(
          `delete from notifications where id in (
             select n.id from notifications n where n.user_id = ?
             order by case when n.id in (${marks(written.length)}) then 2 when n.kind in (${finals}) then 1 else 0 end, n.id limit ?)
           returning case when read_at is null then 1 else 0 end as unread`,
          [st.userId, ...written, excess],
        );
        left -= gone.reduce((n, g) => n + Number(g.unread), 0);
      }
      unread.set(st.userId, left);
    }
    return rows.map((row) => ({ row, unread: unread.get(row.userId) ?? 0 }));
  }
  // ---- end saved lots and notifications ---------------------------------------------------------
}
