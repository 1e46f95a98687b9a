import { Type } from 'typebox';
import { AuctionStatus } from './catalogue.js';

export const AdminStats = Type.Object({
  total_auctions: Type.Integer(),
  active_auctions: Type.Integer(),
  total_products: Type.Integer(),
  unassigned_products: Type.Integer(),
  total_bids: Type.Integer({ description: 'Bids that did not fail' }),
  revenue: Type.Number({ description: 'Σ won amounts' }),
  pending: Type.Number({ description: 'Σ leading amounts, not yet settled' }),
});

export const Reports = Type.Object({
  auctions: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    valid_until: Type.String(),
    status: AuctionStatus,
    product_count: Type.Integer(),
    bid_count: Type.Integer(),
    revenue: Type.Number(),
    pending: Type.Number(),
  })),
  products: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    status: Type.Union([Type.Literal('available'), Type.Literal('sold'), Type.Literal('unassigned')]),
    auction_id: Type.Union([Type.String(), Type.Null()]),
    bid_count: Type.Integer(),
    highest_bid: Type.Number(),
  })),
});

export const AdminSettings = Type.Object({
  auto_settle: Type.Boolean(),
  admin_signup: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  min_increment: Type.Number(),
  live_frame_ms: Type.Integer(),
  timezone: Type.String(),
});
