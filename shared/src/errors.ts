/** The error catalog: stable codes and their HTTP statuses, mirrored by the client. */
export const ERROR_STATUS = {
  VALIDATION: 400,
  INVALID_CREDENTIALS: 400,
  WRONG_PASSWORD: 400,
  /** A link's token (password reset, address confirmation, unsubscribe) that is unknown, used or expired. */
  TOKEN_INVALID: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_FUNDS: 402,
  FORBIDDEN: 403,
  NOT_REGISTERED: 403,
  ACCOUNT_INACTIVE: 403,
  SIGNUP_CLOSED: 403,
  NOT_FOUND: 404,
  USERNAME_TAKEN: 409,
  /** Another account of the same kind has confirmed this email address. */
  EMAIL_TAKEN: 409,
  ID_TAKEN: 409,
  /** Another house's invoices already carry this prefix. */
  INVOICE_PREFIX_TAKEN: 409,
  BID_TOO_LOW: 409,
  AUCTION_ENDED: 409,
  AUCTION_SETTLED: 409,
  PRODUCT_SOLD: 409,
  PRODUCT_NOT_AVAILABLE: 409,
  PRODUCT_HAS_BIDS: 409,
  BID_NOT_ACTIVE: 409,
  AMBIGUOUS_PRODUCT: 409,
  BUY_NOW_UNAVAILABLE: 409,
  /** A bidder has cancelled as many bids on the lot, or in the auction, as a bidder may (docs/bidding.md#cancelling-a-bid). */
  CANCEL_NOT_ALLOWED: 409,
  /** A category still has products or subcategories (docs/catalogue.md). */
  CATEGORY_IN_USE: 409,
  /** A product has its 10 photos already (docs/photos.md). */
  TOO_MANY_IMAGES: 409,
  /** Only the scheduler meets it: a bid moved the end (soft close) after it looked. */
  AUCTION_NOT_ENDED: 409,
  /** A request's headers or body took too long to arrive (docs/deploy.md#slow-clients-and-connection-limits); the connection is closed. */
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The request's headers are over Node's 16 KiB; the connection is closed. */
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

// The body of every error response is the `ErrorBody` schema (schemas/common.ts), typed `ApiErrorBody`.
