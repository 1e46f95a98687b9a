/**
 * A buyer's billing details (docs/invoices.md; db/billing/). Kept in step with sqlite/billing-schema.ts;
 * drizzle.postgres.config.ts reads this file beside schema.ts.
 */
import { GST_STATE_CODES } from '@auction/shared';
import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sqlList } from '../enum-sql.js';
import { addressColumns } from './houses-schema.js';
import { users } from './schema.js';

const int53 = (name: string) => bigint(name, { mode: 'number' });

/** One row per bidder who gave them; frozen onto each invoice at issue, so changing them changes no invoice. */
export const billingDetails = pgTable('billing_details', {
  userId: integer('user_id').primaryKey().references(() => users.id),
  name: text('name').notNull(),
  ...addressColumns(true),
  gstin: text('gstin'),
  updatedAt: int53('updated_at').notNull(),
}, (t) => [
  check('billing_details_state_ck', sql`${t.stateCode} in (${sqlList(GST_STATE_CODES)})`),
]);
