/**
 * The money rules of one bid as a pure function (docs/money.md): given the few rows that matter,
 * refuse with a code and the words the bidder reads, or accept with the change set that makes it so
 * (the old leader's hold released first, then the new bid and its hold) and the events it causes.
 */
import { bidTooLow, formatRupees, toRupees } from '@auction/shared';
import type { Applied, AuctionRow, ChangeSet, Hold, ProductRow, Wallet } from '../db/index.js';
import { refuse, type Refusal, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';
import { walletEvents } from './wallets.js';

export interface BidState {
  bidder: Wallet;
  registered: boolean;
  product: Pick<ProductRow, 'id' | 'name' | 'status' | 'bidCount' | 'version'>;
  auction: Pick<AuctionRow, 'id' | 'name' | 'validUntil' | 'settledAt' | 'createdBy'>;
  leader: Hold | null;
}

export interface AcceptedBid {
  changes: ChangeSet;
  /** The events, once the store has assigned the new bid its id and moved the wallets. */
  events: (applied: Applied) => DomainEvent[];
  highest: number;
}

export function decideBid(s: BidState, amount: number, now: number): Result<AcceptedBid> {
  if (s.bidder.status !== 'active') return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  if (s.product.status === 'sold') return refuse('PRODUCT_SOLD', 'This product has already been sold');
  if (s.auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= s.auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended');
  if (!s.registered) return refuse('NOT_REGISTERED', 'Register for this auction before bidding');
  const highest = s.leader?.amount ?? 0;
  // One rule and one wording with the bid dialog (shared, compared in paise there too).
  const tooLow = bidTooLow(toRupees(amount), toRupees(highest));
  if (tooLow) return refuse('BID_TOO_LOW', tooLow);
  // Raising one's own lead may use the money that lead already holds.
  const ownHold = s.leader?.userId === s.bidder.id ? s.leader.amount : 0;
  if (s.bidder.balance + ownHold < amount) {
    return refuse('INSUFFICIENT_FUNDS', `Insufficient wallet balance: ${formatRupees(toRupees(s.bidder.balance + ownHold))} available for this bid`);
  }

  const { product, auction, bidder, leader } = s;
  const changes: ChangeSet = {
    newBid: { userId: bidder.id, productId: product.id, auctionId: auction.id, amount, status: 'success', reason: null },
    moves: [],
    products: [{ id: product.id, set: { bidCount: product.bidCount + 1, version: product.version + 1 } }],
  };
  const self = leader?.userId === bidder.id;
  if (leader) {
    // Release the old hold first, so raising one's own lead never passes through a negative balance.
    changes.bids = [{ id: leader.bidId, status: 'outbid' }];
    changes.moves!.push({
      userId: leader.userId, type: 'refund', amount: leader.amount, bidId: leader.bidId, productId: product.id,
      notes: self ? `Hold released: you raised your bid on ${product.name}` : `Outbid on ${product.name}: hold released`,
    });
  }
  // The hold names the lot as it was described when bid on (a sold lot cannot be edited afterwards).
  changes.moves!.push({ userId: bidder.id, type: 'bid', amount, bidId: 'new', productId: product.id, notes: `Bid on ${product.name}` });

  const events = (applied: Applied): DomainEvent[] => [
    {
      type: 'bid:placed', auctionId: auction.id, ownerId: auction.createdBy, productId: product.id, bidId: applied.newBid!.id,
      highest: amount, bidCount: product.bidCount + 1, version: product.version + 1, bidderId: bidder.id, bidder: bidder.username, amount, at: now,
    },
    ...(leader && !self
      ? [{ type: 'bid:outbid' as const, userId: leader.userId, auctionId: auction.id, productId: product.id, productName: product.name, highest: amount }]
      : []),
    ...walletEvents(applied),
  ];
  return { ok: true, changes, events, highest: amount };
}

/** A refused bid is recorded with its reason and never debited (docs/money.md). */
export function refusedBid(s: Pick<BidState, 'bidder' | 'product' | 'auction'>, amount: number, refusal: Refusal): ChangeSet {
  return { newBid: { userId: s.bidder.id, productId: s.product.id, auctionId: s.auction.id, amount, status: 'failed', reason: refusal.code } };
}
