/**
 * The admin's catalogue: products and auctions, settlement and registration. Only the creating admin
 * changes what they made. Deletions are soft, and every hold they release is refunded through the
 * ledger. Locks are taken auction first, then products by ascending id, then wallets (store.ts).
 */
import { FLAT_STEP, formatRupees, toRupees, type StepTier } from '@auction/shared';
import type { AuctionRow, CancelPolicy, ChangeSet, Hold, IncrementRule, NewProduct, ProductRow, UnitOfWork } from '../db/index.js';
import { heldBy, holdFor, termsOf } from './holds.js';
import { stepsOf, storedTiers } from './steps.js';
import { refuse, type Refusal, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';
import { walletEvents } from './wallets.js';
import { lostNotice, noticeEvents, unsoldNotice, wonNotice } from './notices.js';
import { checkCategory } from './categories.js';
import { checkPricing, NO_PRICING, type PricingInput } from './pricing.js';

export type { PricingInput } from './pricing.js';

function owned<T extends { createdBy: number }>(row: T | null | undefined, adminId: number, what: 'product' | 'auction'): Result<{ row: T }> {
  if (!row) return refuse('NOT_FOUND', what === 'product' ? 'Product not found' : 'Auction not found');
  if (row.createdBy !== adminId) return refuse('FORBIDDEN', `Only the admin who created this ${what} may change it`);
  return { ok: true, row };
}

export async function createProduct(tx: UnitOfWork, cmd: { adminId: number; input: { id: string; name: string; description: string; categoryId?: number | null } & PricingInput }, now: number): Promise<Result<{ product: ProductRow }>> {
  const { adminId, input } = cmd;
  const priced = checkPricing(NO_PRICING, input);
  if (!priced.ok) return priced;
  const category = await checkCategory(tx, input.categoryId);
  if (!category.ok) return category;
  const product = await tx.insertProduct({ id: input.id, name: input.name.trim(), description: input.description.trim(), createdBy: adminId, now, ...priced.pricing, categoryId: input.categoryId ?? null });
  if (!product) return refuse('ID_TAKEN', `A product with id ${input.id} already exists (ids of deleted products stay reserved)`, 'id');
  return { ok: true, product };
}

export type ProductInput = { id: string; name: string; description: string; categoryId?: number | null } & PricingInput;

/**
 * Many products at once (the bulk import), each checked as createProduct checks one, written in a
 * few statements. Resolves with the refusals by the input's index (in order); the caller decides
 * whether any refusal undoes the rest. Imports take turns (the store's import lock, first): two at
 * once never deadlock on each other's ids or categories, and each finds the ids the one before it
 * took already taken. Its rows are inserted in the file's order (the order of their lots later).
 */
export async function createProducts(tx: UnitOfWork, cmd: { adminId: number; inputs: readonly ProductInput[] }, now: number): Promise<{ created: number; refused: { index: number; refusal: Refusal }[] }> {
  const refused: { index: number; refusal: Refusal }[] = [];
  await tx.lockProductImports();
  const categories = new Map<number, Result<Record<never, never>>>();
  const rows: (NewProduct & { index: number })[] = [];
  for (const [index, input] of cmd.inputs.entries()) {
    const priced = checkPricing(NO_PRICING, input);
    if (!priced.ok) {
      refused.push({ index, refusal: priced });
      continue;
    }
    const categoryId = input.categoryId ?? null;
    if (categoryId !== null && !categories.has(categoryId)) categories.set(categoryId, await checkCategory(tx, categoryId));
    const category = categoryId === null ? null : categories.get(categoryId)!;
    if (category && !category.ok) {
      refused.push({ index, refusal: category });
      continue;
    }
    rows.push({ index, id: input.id, name: input.name.trim(), description: input.description.trim(), createdBy: cmd.adminId, now, ...priced.pricing, categoryId });
  }
  const inserted = await tx.insertProducts(rows);
  for (const row of rows) {
    if (!inserted.has(row.id)) refused.push({ index: row.index, refusal: refuse('ID_TAKEN', `A product with id ${row.id} already exists (ids of deleted products stay reserved)`, 'id') });
  }
  refused.sort((a, b) => a.index - b.index);
  return { created: inserted.size, refused };
}

export async function updateProduct(tx: UnitOfWork, cmd: { adminId: number; productId: string; input: { name: string; description: string; categoryId?: number | null } & PricingInput }, now: number): Promise<Result<{ productId: string; events: DomainEvent[] }>> {
  const { adminId, productId, input } = cmd;
  const check = owned((await tx.lockProducts([productId]))[0], adminId, 'product');
  if (!check.ok) return check;
  const product = check.row;
  // What was bought stays what was described: a sold product is never edited.
  if (product.status === 'sold') return refuse('PRODUCT_SOLD', 'A sold product cannot be edited: what was bought stays what was described');
  const priced = checkPricing(product, input);
  if (!priced.ok) return priced;
  const { pricing } = priced;
  const prices = pricing.startingPrice !== product.startingPrice || pricing.reservePrice !== product.reservePrice || pricing.buyNowPrice !== product.buyNowPrice;
  const repriced = prices || pricing.gstPct !== product.gstPct;
  // Bidders bid on the terms they saw: prices and the lot's GST are frozen once the lot has a bid.
  if (repriced && (await tx.leader(productId))) {
    return refuse('PRODUCT_HAS_BIDS', `This product has bids: ${prices ? 'its prices' : 'its GST'} can no longer change`, prices ? 'starting_price' : 'gst_pct');
  }
  const category = await checkCategory(tx, input.categoryId);
  if (!category.ok) return category;
  await tx.apply({ products: [{ id: productId, set: {
    name: input.name.trim(), description: input.description.trim(), ...(repriced ? { ...pricing, version: product.version + 1 } : {}),
    ...(input.categoryId === undefined ? {} : { categoryId: input.categoryId }),
  } }] }, now);
  const events: DomainEvent[] = product.auctionId ? [{ type: 'auction:updated', auctionId: product.auctionId, ownerId: adminId }] : [];
  return { ok: true, productId, events };
}

/** The change set that refunds these leading bids, each with a note saying why. */
export function releaseHolds(leaders: (Hold & { productId: string })[], names: Map<string, string>, reason: string, notes: (productName: string) => string): ChangeSet {
  return {
    bids: leaders.map((l) => ({ id: l.bidId, status: 'rolledback' as const, reason })),
    moves: leaders.map((l) => ({ userId: l.userId, type: 'refund' as const, amount: heldBy(l), bidId: l.bidId, productId: l.productId, notes: notes(names.get(l.productId) ?? l.productId) })),
  };
}

export async function deleteProduct(tx: UnitOfWork, cmd: { adminId: number; productId: string }, now: number): Promise<Result<{ events: DomainEvent[] }>> {
  const check = owned((await tx.lockProducts([cmd.productId]))[0], cmd.adminId, 'product');
  if (!check.ok) return check;
  const product = check.row;
  if (product.status === 'sold') return refuse('PRODUCT_SOLD', 'A sold product cannot be deleted');
  const leaders = await tx.leaders([product.id]);
  await tx.lockWallets(leaders.map((l) => l.userId));
  const changes = releaseHolds(leaders, new Map([[product.id, product.name]]), 'PRODUCT_DELETED', (name) => `Hold released: ${name} was withdrawn from the auction`);
  changes.products = [{ id: product.id, set: { deletedAt: now, auctionId: null } }];
  const applied = await tx.apply(changes, now);
  if (product.auctionId) await tx.numberLots(product.auctionId);
  const events: DomainEvent[] = product.auctionId ? [{ type: 'auction:updated', auctionId: product.auctionId, ownerId: cmd.adminId }] : [];
  return { ok: true, events: [...events, ...walletEvents(applied)] };
}

/** Refuses unless every id is one of the admin's own unassigned products (locked, given). */
function checkAssignable(locked: ProductRow[], adminId: number, productIds: string[]): Refusal | null {
  const ok = new Set(locked.filter((p) => p.createdBy === adminId && p.auctionId === null && p.status === 'available').map((p) => p.id));
  const bad = productIds.find((id) => !ok.has(id));
  return bad === undefined ? null : refuse('PRODUCT_NOT_AVAILABLE', `Product ${bad} is not one of your unassigned products`, 'product_ids');
}

/** Products moving into or out of an auction start its count of bids afresh. */
const assign = (productIds: string[], auctionId: string | null): ChangeSet['products'] =>
  productIds.map((id) => ({ id, set: { auctionId, bidCount: 0 } }));

export interface AuctionInput {
  id: string;
  name: string;
  /** Epoch ms. */
  validUntil: number;
  productIds: string[];
  /** Left out: flat ₹1, until_end, and the configured soft close (docs/bidding.md); on an edit, what it was. */
  incrementRule?: IncrementRule;
  /** Paise: the flat rule's step. */
  incrementAmount?: number;
  /** Paise: the custom rule's tiers, already checked well formed (`tiersProblem`). */
  incrementTiers?: StepTier[];
  cancelPolicy?: CancelPolicy;
  softCloseS?: number;
  maxExtensionS?: number;
  /** The buyer's premium in basis points (docs/money.md#all-in-prices); left out: 0, on an edit what it was. */
  buyerPremiumBp?: number;
  /** PREMIUM_GST_PCT now: what GST on the premium becomes when the premium is set. */
  premiumGstPct?: number;
}

/** SOFT_CLOSE_S and MAX_EXTENSION_S: the rules a new auction gets when its admin names none (none given: no soft close). */
export interface RuleDefaults {
  softCloseS: number;
  maxExtensionS: number;
  /** PREMIUM_GST_PCT. */
  premiumGstPct?: number;
}

const mustBeFuture = () => refuse('VALIDATION', 'valid_until must be in the future', 'valid_until');

/** Custom steps need tiers: given now, or kept from before. */
const needsTiers = (rule: IncrementRule, tiers: string | null | undefined) =>
  rule === 'custom' && !tiers ? refuse('VALIDATION', 'increment_tiers must list the tiers of custom steps', 'increment_tiers') : null;

/** The steps bidders bid by, as text to compare: only the part the rule uses. */
const stepsKey = (a: Pick<AuctionRow, 'incrementRule' | 'incrementAmount' | 'incrementTiers'>) => {
  const steps = stepsOf(a);
  return JSON.stringify([steps.rule, steps.rule === 'flat' ? steps.amount : null, steps.rule === 'custom' ? steps.tiers : null]);
};

export async function createAuction(tx: UnitOfWork, cmd: { adminId: number; input: AuctionInput; defaults?: RuleDefaults }, now: number): Promise<Result<{ auction: AuctionRow; events: DomainEvent[] }>> {
  const { adminId, input } = cmd;
  if (input.validUntil <= now) return mustBeFuture();
  const productIds = [...new Set(input.productIds)];
  const taken = () => refuse('ID_TAKEN', `An auction with id ${input.id} already exists (ids of deleted auctions stay reserved)`, 'id');
  if (await tx.auctionIdTaken(input.id)) return taken();
  const refusal = checkAssignable(await tx.lockProducts(productIds), adminId, productIds);
  if (refusal) return refusal;
  const incrementTiers = storedTiers(input.incrementTiers) ?? null;
  const noTiers = needsTiers(input.incrementRule ?? 'flat', incrementTiers);
  if (noTiers) return noTiers;
  const auction = await tx.insertAuction({
    id: input.id, name: input.name.trim(), validUntil: input.validUntil, createdBy: adminId, now,
    incrementRule: input.incrementRule ?? 'flat', incrementAmount: input.incrementAmount ?? FLAT_STEP, incrementTiers, cancelPolicy: input.cancelPolicy ?? 'until_end',
    softCloseS: input.softCloseS ?? cmd.defaults?.softCloseS ?? 0, maxExtensionS: input.maxExtensionS ?? cmd.defaults?.maxExtensionS ?? 3600,
    buyerPremiumBp: input.buyerPremiumBp ?? 0, premiumGstPct: input.premiumGstPct ?? cmd.defaults?.premiumGstPct ?? 18,
  });
  if (!auction) return taken();
  await tx.apply({ products: assign(productIds, auction.id) }, now);
  await tx.numberLots(auction.id);
  return { ok: true, auction, events: [{ type: 'auction:created', auctionId: auction.id, ownerId: adminId }] };
}

export async function updateAuction(
  tx: UnitOfWork,
  cmd: { adminId: number; auctionId: string; input: Omit<AuctionInput, 'id' | 'productIds'> & { productIds?: string[] } },
  now: number,
): Promise<Result<{ auctionId: string; events: DomainEvent[] }>> {
  const { adminId, auctionId, input } = cmd;
  const check = owned(await tx.lockAuction(auctionId), adminId, 'auction');
  if (!check.ok) return check;
  const current = check.row;
  if (current.settledAt !== null) return refuse('AUCTION_SETTLED', 'A settled auction cannot be edited');
  // Moving the end is allowed, to a future time only (which reopens an ended, unsettled auction).
  if (input.validUntil !== current.validUntil && input.validUntil <= now) return mustBeFuture();

  // An edit of the end is the admin's new end: soft close starts counting from it again.
  const endMoved = input.validUntil !== current.validUntil;
  const rules = {
    incrementRule: input.incrementRule, incrementAmount: input.incrementAmount, incrementTiers: storedTiers(input.incrementTiers),
    cancelPolicy: input.cancelPolicy, softCloseS: input.softCloseS, maxExtensionS: input.maxExtensionS,
  };
  const next = {
    incrementRule: rules.incrementRule ?? current.incrementRule, incrementAmount: rules.incrementAmount ?? current.incrementAmount,
    incrementTiers: rules.incrementTiers === undefined ? current.incrementTiers : rules.incrementTiers,
  };
  const noTiers = needsTiers(next.incrementRule, next.incrementTiers);
  if (noTiers) return noTiers;
  const stepsChange = stepsKey(next) !== stepsKey(current);
  const premiumChange = input.buyerPremiumBp !== undefined && input.buyerPremiumBp !== current.buyerPremiumBp;
  if (stepsChange || premiumChange || (rules.cancelPolicy !== undefined && rules.cancelPolicy !== current.cancelPolicy)) {
    // Steps, the cancel policy and the premium are part of the terms bidders bid on (docs/bidding.md,
    // docs/money.md#all-in-prices): a lead holds the all-in price of its top on the terms it was placed under.
    const products = await tx.lockProductsOf(auctionId);
    const bid = (await tx.leaders(products.map((p) => p.id)))[0];
    const [what, field] = stepsChange ? ['the bid steps', 'increment_rule'] : premiumChange ? ['the buyer’s premium', 'buyer_premium_pct'] : ['the cancel policy', 'cancel_policy'];
    if (bid) return refuse('PRODUCT_HAS_BIDS', `Product ${bid.productId} has bids: ${what} can no longer change`, field);
  }
  const changes: ChangeSet = {
    auctions: [{
      id: auctionId,
      set: {
        name: input.name.trim(), validUntil: input.validUntil, ...(endMoved ? { originalValidUntil: input.validUntil } : {}),
        ...Object.fromEntries(Object.entries(rules).filter(([, v]) => v !== undefined)),
        ...(premiumChange ? { buyerPremiumBp: input.buyerPremiumBp, premiumGstPct: input.premiumGstPct ?? current.premiumGstPct } : {}),
      },
    }],
  };
  if (input.productIds) {
    const wanted = new Set(input.productIds);
    // Its products and the ones to add, locked together in one ascending order.
    const locked = await tx.lockProductsFor(auctionId, [...wanted]);
    const present = locked.filter((p) => p.auctionId === auctionId).map((p) => p.id);
    const removed = present.filter((id) => !wanted.has(id));
    const added = [...wanted].filter((id) => !present.includes(id));
    const withBids = (await tx.leaders(removed))[0];
    if (withBids) return refuse('PRODUCT_HAS_BIDS', `Product ${withBids.productId} has bids and cannot be removed`, 'product_ids');
    const bought = locked.find((p) => removed.includes(p.id) && p.status === 'sold');
    if (bought) return refuse('PRODUCT_SOLD', `Product ${bought.id} has been bought and cannot be removed`, 'product_ids');
    const refusal = checkAssignable(locked, adminId, added);
    if (refusal) return refusal;
    changes.products = [...assign(removed, null)!, ...assign(added, auctionId)!];
  }
  await tx.apply(changes, now);
  if (input.productIds) await tx.numberLots(auctionId);
  return { ok: true, auctionId, events: [{ type: 'auction:updated', auctionId, ownerId: adminId }] };
}

export async function deleteAuction(tx: UnitOfWork, cmd: { adminId: number; auctionId: string }, now: number): Promise<Result<{ refunded: number; events: DomainEvent[] }>> {
  const { adminId, auctionId } = cmd;
  const check = owned(await tx.lockAuction(auctionId), adminId, 'auction');
  if (!check.ok) return check;
  const auction = check.row;
  if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'A settled auction cannot be deleted');
  const products = await tx.lockProductsOf(auctionId);
  const bought = products.find((p) => p.status === 'sold');
  if (bought) return refuse('PRODUCT_SOLD', `Product ${bought.id} has been bought at its buy-now price: this auction can no longer be deleted`);
  const leaders = await tx.leaders(products.map((p) => p.id));
  await tx.lockWallets(leaders.map((l) => l.userId));
  const names = new Map(products.map((p) => [p.id, p.name]));
  const changes = releaseHolds(leaders, names, 'AUCTION_DELETED', (name) => `Hold released on ${name}: auction ${auction.name} was deleted`);
  changes.products = assign(products.map((p) => p.id), null);
  changes.auctions = [{ id: auctionId, set: { deletedAt: now } }];
  const applied = await tx.apply(changes, now);
  return { ok: true, refunded: leaders.length, events: [{ type: 'auction:deleted', auctionId, ownerId: adminId }, ...walletEvents(applied)] };
}

export interface Settlement {
  sold: { productId: string; amount: number }[];
  unsold: { id: string; reason: 'NO_BIDS' | 'RESERVE_NOT_MET' }[];
}

/**
 * Settling, decided (docs/bidding.md#settling): every leading bid that reaches its lot's reserve wins
 * (its hold is released and its price paid, two ledger rows: docs/money.md#ledger-kinds) and the
 * lot is sold; a leading bid below the reserve is `unsold` and refunded; lots without a bid, or below
 * their reserve, go back to unassigned; lots already bought at their buy-now price stay sold. Settling
 * before the end moves the end to now.
 */
export function decideSettlement(
  auction: AuctionRow, products: ProductRow[], leaders: (Hold & { productId: string })[], now: number,
  /** Who bid on each lot (bids that did not fail), for the notices (docs/notifications.md); none when left out. */
  bidders: readonly { userId: number; productId: string }[] = [],
) {
  const leaderOf = new Map(leaders.map((l) => [l.productId, l]));
  const biddersOf = new Map<string, Set<number>>();
  for (const b of bidders) biddersOf.set(b.productId, (biddersOf.get(b.productId) ?? new Set()).add(b.userId));
  const sold: Settlement['sold'] = [];
  const unsold: Settlement['unsold'] = [];
  const events: DomainEvent[] = [];
  const changes: ChangeSet = { bids: [], moves: [], products: [], auctions: [{ id: auction.id, set: { settledAt: now, validUntil: Math.min(auction.validUntil, now) } }], notices: [] };
  for (const p of products) {
    if (p.status === 'sold') {
      sold.push({ productId: p.id, amount: p.soldPrice ?? 0 });
      continue;
    }
    const l = leaderOf.get(p.id);
    if (!l) {
      unsold.push({ id: p.id, reason: 'NO_BIDS' });
      continue;
    }
    if (p.reservePrice !== null && l.amount < p.reservePrice) {
      unsold.push({ id: p.id, reason: 'RESERVE_NOT_MET' });
      changes.bids!.push({ id: l.bidId, status: 'unsold', reason: 'RESERVE_NOT_MET' });
      changes.moves!.push({ userId: l.userId, type: 'refund', amount: heldBy(l), bidId: l.bidId, productId: p.id, notes: `Reserve not met on ${p.name}: hold released` });
      changes.products!.push({ id: p.id, set: { version: p.version + 1 } });
      events.push({ type: 'bid:unsold', userId: l.userId, auctionId: auction.id, productId: p.id, productName: p.name, amount: l.amount });
      changes.notices!.push(unsoldNotice(l.userId, { auctionId: auction.id, productId: p.id, productName: p.name }, l.amount));
      continue;
    }
    changes.bids!.push({ id: l.bidId, status: 'won' });
    // The winner pays the all-in price of the hammer (docs/money.md#all-in-prices): at most what the lead held.
    const total = holdFor(l.amount, termsOf(auction, p));
    // The hold is released and the price paid as two rows of the winning bid, so the ledger shows the
    // payment itself (docs/money.md#ledger-kinds). The balance moves by hold − all-in price, as it must:
    // a maximum's unused part comes back, a plain bid's balance does not change.
    changes.moves!.push(
      { userId: l.userId, type: 'refund', amount: heldBy(l), bidId: l.bidId, productId: p.id, notes: `Hold released: you won ${p.name}` },
      {
        userId: l.userId, type: 'bid', amount: total, bidId: l.bidId, productId: p.id,
        notes: `Won ${p.name} for ${formatRupees(toRupees(l.amount))}` + (total === l.amount ? '' : `: ${formatRupees(toRupees(total))} in all (premium and GST)`),
      },
    );
    changes.products!.push({ id: p.id, set: { status: 'sold', soldPrice: l.amount, winnerId: l.userId, version: p.version + 1 } });
    sold.push({ productId: p.id, amount: l.amount });
    events.push({ type: 'product:sold', auctionId: auction.id, ownerId: auction.createdBy, productId: p.id, amount: l.amount, version: p.version + 1, buyNow: false });
    events.push({ type: 'bid:won', userId: l.userId, auctionId: auction.id, productId: p.id, amount: l.amount });
    // The winner, then once each every other bidder on the lot (docs/notifications.md).
    const lot = { auctionId: auction.id, productId: p.id, productName: p.name };
    changes.notices!.push(wonNotice(l.userId, lot, l.amount));
    for (const userId of biddersOf.get(p.id) ?? []) if (userId !== l.userId) changes.notices!.push(lostNotice(userId, lot, l.amount));
  }
  changes.products!.push(...assign(unsold.map((u) => u.id), null)!);
  events.push({ type: 'auction:settled', auctionId: auction.id, ownerId: auction.createdBy });
  return { changes, events, sold, unsold };
}

/**
 * Settles an auction. `adminId` (the button) must be the creator; the scheduler passes none, and
 * settles only an auction whose end has come (a bid may have moved it since the scheduler looked). A
 * second settlement is refused and changes nothing.
 */
export async function settleAuction(tx: UnitOfWork, cmd: { auctionId: string; adminId?: number }, clock: () => number): Promise<Result<Settlement & { events: DomainEvent[] }>> {
  const auction = await tx.lockAuction(cmd.auctionId);
  if (!auction) return refuse('NOT_FOUND', 'Auction not found');
  if (cmd.adminId !== undefined && auction.createdBy !== cmd.adminId) return refuse('FORBIDDEN', 'Only the admin who created this auction may settle it');
  if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has already been settled');
  if (cmd.adminId === undefined && clock() < auction.validUntil) return refuse('AUCTION_NOT_ENDED', 'This auction has not ended yet');
  const products = await tx.lockProductsOf(auction.id);
  const leaders = await tx.leaders(products.map((p) => p.id));
  await tx.lockWallets(leaders.map((l) => l.userId));
  // The settlement's time is read once every lot is locked: a bid or buy-now that held a
  // lot meanwhile (PostgreSQL: this waited for it) committed before now, never after the settled time.
  const now = clock();
  const bidders = await tx.followersOf(auction.id);
  const { changes, events, sold, unsold } = decideSettlement(auction, products, leaders, now, bidders);
  const applied = await tx.apply(changes, now);
  return { ok: true, sold, unsold, events: [...events, ...walletEvents(applied), ...noticeEvents(applied)] };
}

/** A bidder registers for an auction; idempotent; refused once it has ended. */
export async function registerForAuction(tx: UnitOfWork, cmd: { userId: number; auctionId: string }, now: number): Promise<Result<{ already: boolean }>> {
  const auction = await tx.auction(cmd.auctionId);
  if (!auction) return refuse('NOT_FOUND', 'Auction not found');
  if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended');
  return { ok: true, already: !(await tx.register(cmd.auctionId, cmd.userId, now)) };
}

