import { Type, type Static } from 'typebox';
import { AdminPublic } from './accounts.js';
import { MobileNumber, Name, PageLimit, X_ERROR, X_MISSING } from './common.js';
import { AuctionStatus, Product } from './catalogue.js';
import { ACCOUNT_STATUSES, literalUnion, PRODUCT_STATUSES } from './enums.js';

export const AdminStats = Type.Object({
  total_auctions: Type.Integer(),
  active_auctions: Type.Integer(),
  total_products: Type.Integer(),
  unassigned_products: Type.Integer(),
  total_bids: Type.Integer({ description: 'Bids that did not fail' }),
  revenue: Type.Number({ description: 'Σ won amounts' }),
  pending: Type.Number({ description: 'Σ leading amounts, not yet settled' }),
});
export type AdminStats = Static<typeof AdminStats>;

/** One auction of the admin's reports. */
export const AuctionReport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  valid_until: Type.String(),
  status: AuctionStatus,
  product_count: Type.Integer(),
  bid_count: Type.Integer(),
  revenue: Type.Number(),
  pending: Type.Number(),
});
export type AuctionReport = Static<typeof AuctionReport>;

/** One product of the admin's reports. */
export const ProductReport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: literalUnion([...PRODUCT_STATUSES, 'unassigned']),
  auction_id: Type.Union([Type.String(), Type.Null()]),
  bid_count: Type.Integer(),
  highest_bid: Type.Number(),
});
export type ProductReport = Static<typeof ProductReport>;

export const Reports = Type.Object({
  auctions: Type.Array(AuctionReport),
  products: Type.Array(ProductReport),
});
export type Reports = Static<typeof Reports>;

export const AdminSettings = Type.Object({
  auto_settle: Type.Boolean(),
  admin_signup: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  min_increment: Type.Number(),
  live_frame_ms: Type.Integer(),
  timezone: Type.String(),
  soft_close_s: Type.Integer({ description: 'SOFT_CLOSE_S: the soft-close window a new auction gets when its admin names none' }),
  max_extension_s: Type.Integer({ description: 'MAX_EXTENSION_S: how far soft close may move an end, by default' }),
  media_max_mb: Type.Integer({ description: 'MEDIA_MAX_MB: the largest photo upload accepted' }),
});
export type AdminSettings = Static<typeof AdminSettings>;

export const AdminUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  mobile_number: Type.String(),
  wallet_balance: Type.Number(),
  auctions_registered: Type.Integer(),
  status: literalUnion(ACCOUNT_STATUSES),
  created_at: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUsers = Type.Object({ users: Type.Array(AdminUser) });
export type AdminUsers = Static<typeof AdminUsers>;
export const AdminUsersQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 120 })) });
export const SetUserStatusBody = Type.Object({
  status: literalUnion(ACCOUNT_STATUSES, { [X_ERROR]: 'status must be "active" or "inactive"', [X_MISSING]: 'status is required' }),
});
export type SetUserStatusBody = Static<typeof SetUserStatusBody>;
export const UserStatusChanged = Type.Object({ message: Type.String(), user: AdminUser });
export type UserStatusChanged = Static<typeof UserStatusChanged>;
export const NumericIdParams = Type.Object({ id: Type.String({ maxLength: 15, pattern: '^[0-9]{1,15}$', [X_ERROR]: 'id must be a number' }) });

export const UpdateProfileBody = Type.Object({ name: Name, mobile_number: MobileNumber });
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;
export const ProfileUpdated = Type.Object({ message: Type.String(), admin: AdminPublic });
export type ProfileUpdated = Static<typeof ProfileUpdated>;

// ---- the admin's paged lists: Users and Manage Products ----------------------------------------------

/** Users or products per page by default. */
export const ADMIN_PAGE_DEFAULT = 24;
const Cursor = Type.String({ maxLength: 400, [X_ERROR]: 'cursor must be the next_cursor of the page before', description: 'The next_cursor of the page before' });

/** `GET /admin/users`: without `limit`, every match at once (as it always was); with it, a page. */
export const AdminUsersPageQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 120 })),
  limit: Type.Optional(PageLimit(ADMIN_PAGE_DEFAULT)),
  cursor: Type.Optional(Cursor),
});
export type AdminUsersPageQuery = Static<typeof AdminUsersPageQuery>;
export const AdminUsersPage = Type.Object({
  users: Type.Array(AdminUser),
  next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Only with `limit`: where the next page starts; null on the last page' })),
});
export type AdminUsersPage = Static<typeof AdminUsersPage>;

export const ADMIN_PRODUCT_FILTERS = ['unassigned', 'assigned', 'sold'] as const;
export type AdminProductFilter = (typeof ADMIN_PRODUCT_FILTERS)[number];

export const AdminProductsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, [X_ERROR]: 'q must be at most 200 characters', description: 'Text the name contains (case-insensitive)' })),
  status: Type.Optional(literalUnion(ADMIN_PRODUCT_FILTERS, { [X_ERROR]: `status must be one of ${ADMIN_PRODUCT_FILTERS.join(', ')}`, description: 'unassigned: in no auction; assigned: in an auction, not sold; sold' })),
  category: Type.Optional(Type.String({ maxLength: 60, [X_ERROR]: 'category must be a category id or slug', description: 'A category id or slug; its subcategories are included' })),
  limit: Type.Optional(PageLimit(ADMIN_PAGE_DEFAULT)),
  cursor: Type.Optional(Cursor),
});
export type AdminProductsQuery = Static<typeof AdminProductsQuery>;

/** A product of the admin's list: the product with its auction's id and name while it is in one. */
export const AdminProductItem = Type.Object({
  ...Product.properties,
  auction: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], { description: 'Its auction; null while in none' }),
});
export type AdminProductItem = Static<typeof AdminProductItem>;

export const AdminProductsPage = Type.Object({
  items: Type.Array(AdminProductItem),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page' }),
  total: Type.Integer({ description: 'How many of the caller’s products match' }),
});
export type AdminProductsPage = Static<typeof AdminProductsPage>;
