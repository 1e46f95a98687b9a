/**
 * A buyer's billing details (docs/invoices.md; db/billing/). Kept in step with postgres/billing-schema.ts;
 * drizzle.config.ts reads this file beside schema.ts.
 */
import { GST_STATE_CODES } from '@auction/shared';
import { sql } from 'drizzle-orm';
import { check, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sqlList } from '../enum-sql.js';
import { addressColumns } from './houses-schema.js';
import { users } from './schema.js';

/** One row per bidder who gave them; frozen onto each invoice at issue, so changing them changes no invoice. */
export const billingDetails = sqliteTable('billing_details', {
  userId: integer('user_id').primaryKey().references(() => users.id),
  name: text('name').notNull(),
  ...addressColumns(true),
  gstin: text('gstin'),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  check('billing_details_state_ck', sql`${t.stateCode} in (${sqlList(GST_STATE_CODES)})`),
]);
