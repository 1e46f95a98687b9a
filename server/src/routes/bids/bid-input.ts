/** What POST /bid asks for, checked beyond its schema: the caller named right, a product, an amount or a maximum, in paise. */
import { BID_MESSAGES, type PlaceBidBody } from '@auction/shared';
import type { Caller } from '../../domain/accounts.js';
import type { BidCommand } from '../../domain/bidding.js';
import { AppError } from '../../errors.js';
import { assertNamesCaller, paise } from '../input.js';

export function bidCommandOf(me: Caller, body: PlaceBidBody): BidCommand {
  const { product_id, product_name, bid_amount, max_amount, user_id, username } = body;
  assertNamesCaller(me, user_id, username);
  const productRef = product_id ?? product_name;
  if (!productRef) throw new AppError('VALIDATION', BID_MESSAGES.invalid, 'product_name');
  if (bid_amount === undefined && max_amount === undefined) throw new AppError('VALIDATION', BID_MESSAGES.invalid, 'bid_amount');
  const amount = bid_amount === undefined ? null : paise(bid_amount, 'bid_amount', BID_MESSAGES.invalid);
  const max = max_amount === undefined ? null : paise(max_amount, 'max_amount', 'Please enter a valid maximum bid');
  if (amount !== null && max !== null && amount > max) throw new AppError('VALIDATION', 'bid_amount must not be more than max_amount', 'bid_amount');
  return { userId: me.id, productRef, amount, max };
}
