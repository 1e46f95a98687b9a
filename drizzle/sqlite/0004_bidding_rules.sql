-- Lot pricing, auction rules, proxy bids, buy now and reserve (docs/bidding.md). Tables are rebuilt to
-- change their CHECKs; the new columns of existing rows get their defaults, and an auction's original
-- end is its current end. Run with foreign keys off (SqliteStore enables them after migrating).
CREATE TABLE `auto_bids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bid_id` integer NOT NULL,
	`product_id` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`bid_id`) REFERENCES `bids`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `auto_bids_product_idx` ON `auto_bids` (`product_id`,`id`);--> statement-breakpoint
CREATE INDEX `auto_bids_bid_idx` ON `auto_bids` (`bid_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_bids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`product_id` text NOT NULL,
	`auction_id` text NOT NULL,
	`amount` integer NOT NULL,
	`max_amount` integer,
	`buy_now` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bids_amount_pos" CHECK("__new_bids"."amount" > 0),
	CONSTRAINT "bids_status_ck" CHECK("__new_bids"."status" in ('success', 'outbid', 'failed', 'rolledback', 'won', 'unsold')),
	CONSTRAINT "bids_max_ck" CHECK("__new_bids"."max_amount" is null or "__new_bids"."max_amount" >= "__new_bids"."amount")
);
--> statement-breakpoint
INSERT INTO `__new_bids`("id", "user_id", "product_id", "auction_id", "amount", "max_amount", "buy_now", "status", "reason", "created_at", "updated_at") SELECT "id", "user_id", "product_id", "auction_id", "amount", NULL, 0, "status", "reason", "created_at", "updated_at" FROM `bids`;--> statement-breakpoint
DROP TABLE `bids`;--> statement-breakpoint
ALTER TABLE `__new_bids` RENAME TO `bids`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `bids_leader_uq` ON `bids` (`product_id`) WHERE "bids"."status" = 'success';--> statement-breakpoint
CREATE INDEX `bids_product_idx` ON `bids` (`product_id`,`auction_id`,`status`);--> statement-breakpoint
CREATE INDEX `bids_user_idx` ON `bids` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `bids_auction_idx` ON `bids` (`auction_id`,`status`);--> statement-breakpoint
CREATE TABLE `__new_auctions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`valid_until` integer NOT NULL,
	`original_valid_until` integer DEFAULT 0 NOT NULL,
	`increment_rule` text DEFAULT 'flat' NOT NULL,
	`soft_close_s` integer DEFAULT 0 NOT NULL,
	`max_extension_s` integer DEFAULT 3600 NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "auctions_increment_ck" CHECK("__new_auctions"."increment_rule" in ('flat', 'ladder')),
	CONSTRAINT "auctions_soft_close_ck" CHECK("__new_auctions"."soft_close_s" >= 0 and "__new_auctions"."max_extension_s" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_auctions`("id", "name", "valid_until", "original_valid_until", "increment_rule", "soft_close_s", "max_extension_s", "created_by", "created_at", "updated_at", "settled_at", "deleted_at") SELECT "id", "name", "valid_until", "valid_until", 'flat', 0, 3600, "created_by", "created_at", "updated_at", "settled_at", "deleted_at" FROM `auctions`;--> statement-breakpoint
DROP TABLE `auctions`;--> statement-breakpoint
ALTER TABLE `__new_auctions` RENAME TO `auctions`;--> statement-breakpoint
CREATE INDEX `auctions_created_by_idx` ON `auctions` (`created_by`);--> statement-breakpoint
CREATE INDEX `auctions_open_end_idx` ON `auctions` (`valid_until`) WHERE "auctions"."settled_at" is null and "auctions"."deleted_at" is null;--> statement-breakpoint
CREATE TABLE `__new_products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_by` integer NOT NULL,
	`auction_id` text,
	`status` text DEFAULT 'available' NOT NULL,
	`bid_count` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`starting_price` integer DEFAULT 0 NOT NULL,
	`reserve_price` integer,
	`buy_now_price` integer,
	`sold_price` integer,
	`winner_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`winner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "products_status_ck" CHECK("__new_products"."status" in ('available', 'sold')),
	CONSTRAINT "products_sold_ck" CHECK(("__new_products"."status" = 'sold') = ("__new_products"."sold_price" is not null)),
	CONSTRAINT "products_pricing_ck" CHECK("__new_products"."starting_price" >= 0 and ("__new_products"."reserve_price" is null or "__new_products"."reserve_price" >= "__new_products"."starting_price") and ("__new_products"."buy_now_price" is null or ("__new_products"."buy_now_price" > "__new_products"."starting_price" and ("__new_products"."reserve_price" is null or "__new_products"."buy_now_price" >= "__new_products"."reserve_price"))))
);
--> statement-breakpoint
INSERT INTO `__new_products`("id", "name", "description", "created_by", "auction_id", "status", "bid_count", "version", "starting_price", "reserve_price", "buy_now_price", "sold_price", "winner_id", "created_at", "updated_at", "deleted_at") SELECT "id", "name", "description", "created_by", "auction_id", "status", "bid_count", "version", 0, NULL, NULL, "sold_price", "winner_id", "created_at", "updated_at", "deleted_at" FROM `products`;--> statement-breakpoint
DROP TABLE `products`;--> statement-breakpoint
ALTER TABLE `__new_products` RENAME TO `products`;--> statement-breakpoint
CREATE INDEX `products_auction_idx` ON `products` (`auction_id`);--> statement-breakpoint
CREATE INDEX `products_owner_idx` ON `products` (`created_by`,`auction_id`);--> statement-breakpoint
CREATE INDEX `products_winner_idx` ON `products` (`winner_id`);