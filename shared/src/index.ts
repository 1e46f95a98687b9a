export * from './money.js';
export * from './limits.js';
export * from './errors.js';
export * from './datetime.js';
export * from './schemas/common.js';
export * from './schemas/accounts.js';
