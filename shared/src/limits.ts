/** Business constants and input limits. Shared so client forms and server agree. */
export const LIMITS = {
  idMax: 64,
  // `.` and `..` alone are path dot-segments: a URL such as /api/admin/product/.. never reaches the id.
  idPattern: '^(?!\\.{1,2}$)[A-Za-z0-9_.-]{1,64}$',
  nameMax: 120,
  descriptionMax: 2000,
  usernameMin: 3,
  usernameMax: 32,
  usernamePattern: '^[A-Za-z0-9_.-]{3,32}$',
  passwordMin: 6,
  passwordMax: 128,
  /** RFC 5321's longest forward path less its angle brackets. */
  emailMax: 254,
  mobilePattern: '^\\+?[0-9]{7,15}$',
  topupMinRupees: 10,
  topupMaxRupees: 100_000,
  bidMaxRupees: 1_000_000_000,
  minIncrementRupees: 1,
  /** Photos (docs/photos.md): per product; the longest side of the full rendition and of the thumbnail, in pixels. */
  imagesPerProduct: 10,
  imageMaxPx: 1600,
  thumbPx: 400,
} as const;

/**
 * The most rows a list route answers when it is not asked for a page (no `limit`, no cursor): the spec's
 * clients cannot page, so they get the whole list up to this; past it, the newest this many and a cursor.
 */
export const WHOLE_LIST_MAX = 5000;

export const QUICK_TOPUP_AMOUNTS = [500, 1000, 2000, 5000] as const;
export const TOAST_MS = 5000;
export const ENDING_SOON_SECONDS = 24 * 3600;
export const AMBER_BADGE_SECONDS = 3600;

/**
 * How many notices a bidder keeps, pruned in the transaction that writes a new one: the notices it
 * writes stay, then final outcomes (FINAL_NOTICE_KINDS) before the rest, the newest of each first.
 */
export const NOTICES_KEPT = 500;
/** What a bidder must not lose to a flood of other notices: how their lots ended. */
export const FINAL_NOTICE_KINDS = ['won', 'lost', 'unsold'] as const;
