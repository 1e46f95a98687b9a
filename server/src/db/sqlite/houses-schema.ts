/**
 * A house's profile and its pickup locations (docs/invoices.md; db/houses/). Kept in step with
 * postgres/houses-schema.ts; drizzle.config.ts reads this file beside schema.ts.
 */
import { GST_STATE_CODES } from '@auction/shared';
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sqlList } from '../enum-sql.js';
import { admins } from './schema.js';

/** An address's columns (line 1–2, city, GST state code, PIN); `required` where a row always has one. */
export function addressColumns(required: boolean) {
  const part = (name: string) => (required ? text(name).notNull() : text(name));
  return { addressLine1: part('address_line1'), addressLine2: text('address_line2'), city: part('city'), stateCode: part('state_code'), pin: part('pin') };
}

/** One row per admin that has filled in any of its profile; the columns are null until filled. */
export const houses = sqliteTable('houses', {
  adminId: integer('admin_id').primaryKey().references(() => admins.id),
  legalName: text('legal_name'),
  displayName: text('display_name'),
  ...addressColumns(false),
  gstin: text('gstin'),
  invoicePrefix: text('invoice_prefix'),
  phone: text('phone'),
  email: text('email'),
  payoutHolder: text('payout_holder'),
  payoutIfsc: text('payout_ifsc'),
  payoutAccount: text('payout_account'),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  uniqueIndex('houses_invoice_prefix_uq').on(t.invoicePrefix).where(sql`${t.invoicePrefix} is not null`),
  check('houses_state_ck', sql`${t.stateCode} is null or ${t.stateCode} in (${sqlList(GST_STATE_CODES)})`),
]);

/** Where a house's buyers collect; a location taken out stays (deleted_at) for what already points at it. */
export const pickupLocations = sqliteTable('pickup_locations', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  adminId: integer('admin_id').notNull().references(() => admins.id),
  name: text('name').notNull(),
  ...addressColumns(true),
  instructions: text('instructions'),
  hours: text('hours'),
  position: integer('position').notNull(),
  createdAt: integer('created_at').notNull(),
  deletedAt: integer('deleted_at'),
}, (t) => [
  index('pickup_locations_admin_idx').on(t.adminId, t.position),
  check('pickup_locations_state_ck', sql`${t.stateCode} in (${sqlList(GST_STATE_CODES)})`),
]);
