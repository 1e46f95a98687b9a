-- All-in prices (docs/money.md#all-in-prices): the auction's buyer's premium and the GST on it, the lot's
-- GST, and what each bid holds. Hand-written as ADD COLUMN (drizzle-kit would rebuild the tables, and a
-- rebuilt products table would renumber the rowids the lot search index is keyed by); the checks are
-- column constraints here, table constraints in the snapshot, the same rules.
ALTER TABLE `auctions` ADD COLUMN `buyer_premium_bp` integer DEFAULT 0 NOT NULL CONSTRAINT `auctions_premium_ck` CHECK (`buyer_premium_bp` between 0 and 5000);--> statement-breakpoint
ALTER TABLE `auctions` ADD COLUMN `premium_gst_pct` integer DEFAULT 18 NOT NULL CONSTRAINT `auctions_premium_gst_ck` CHECK (`premium_gst_pct` between 0 and 100);--> statement-breakpoint
ALTER TABLE `products` ADD COLUMN `gst_pct` integer DEFAULT 0 NOT NULL CONSTRAINT `products_gst_ck` CHECK (`gst_pct` in (0, 5, 12, 18, 28));--> statement-breakpoint
ALTER TABLE `bids` ADD COLUMN `held` integer DEFAULT 0 NOT NULL CONSTRAINT `bids_held_ck` CHECK (`held` >= 0);--> statement-breakpoint
-- Until now a leading bid held its top: its maximum, or its amount.
UPDATE `bids` SET `held` = coalesce(`max_amount`, `amount`) WHERE `status` = 'success';
