/**
 * The first element of every query key, one per kind of server data. Features define their queries'
 * options in their own `api/` folder; the roots are here so a feature can fold a change into a query
 * another feature reads (the star's `saved` flag on the lot page) without importing that feature.
 */
export const queryRoots = {
  auctionProducts: ['auction-products'],
  lotPage: ['lot-page'],
  savedLots: ['saved-lots'],
  walletBalance: ['wallet-balance'],
  walletLedger: ['wallet-ledger'],
  myBids: ['my-bids'],
  notifications: ['notifications'],
  /** The dashboard's page of the catalogue (the newest auctions and the counts per tab). */
  dashboardAuctions: ['dashboard-auctions'],
  /** The ids of the auctions the bidder registered for (`GET /my_auctions`): the dashboard's Registered Auctions. */
  registeredAuctions: ['registered-auctions'],
  lotSearch: ['lot-search'],
  lotSuggestions: ['lot-suggestions'],
  /** The category tree (`GET /categories`): Browse's and Search's filters, the admin's Categories page and the product form's select. */
  categories: ['categories'],
  /** `GET /me` of the user or the admin signed in (the email address and whether it is confirmed). */
  me: ['me'],
  /** The bidder's email notice settings (`GET /me/notification-settings`). */
  notificationSettings: ['notification-settings'],
  /** The bidder's billing details (`GET /me/billing`): who invoices are made out to, on the Account page. */
  billing: ['billing'],
  /** The admin's house profile (`GET /admin/house`): the House page. */
  house: ['house'],
} as const satisfies Record<string, readonly [string]>;

/** The key of one auction's products. */
export const auctionProductsKey = (auctionId: string) => [...queryRoots.auctionProducts, auctionId] as const;
/** The key of one lot page. */
export const lotPageKey = (productId: string) => [...queryRoots.lotPage, productId] as const;

/** Browse's pages of auction cards (by filters) and one auction read by its id. */
export const browseRoots = {
  browseCards: ['browse-cards'],
  auctionById: ['auction-by-id'],
} as const satisfies Record<string, readonly [string]>;
