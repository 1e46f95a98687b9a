export * from './money.js';
export * from './limits.js';
export * from './bidding-rules.js';
export * from './errors.js';
export * from './datetime.js';
export * from './schemas/common.js';
export * from './schemas/enums.js';
export * from './schemas/accounts.js';
export * from './schemas/catalogue.js';
export * from './schemas/categories.js';
export * from './schemas/browse.js';
export * from './schemas/bidding.js';
export * from './schemas/wallet.js';
export * from './schemas/admin.js';
// Saved lots and notifications.
export * from './schemas/notifications.js';
// Email addresses, password reset and notice emails.
export * from './schemas/email.js';
export * from './schemas/house.js';
export * from './gst.js';
export * from './all-in.js';
export * from './live.js';
export * from './csv.js';
