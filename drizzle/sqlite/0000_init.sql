CREATE TABLE `admins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`name` text NOT NULL,
	`mobile_number` text NOT NULL,
	`password_hash` text NOT NULL,
	`is_owner` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "admins_status_ck" CHECK("admins"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admins_username_uq` ON `admins` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `admins_one_owner_uq` ON `admins` (`is_owner`) WHERE "admins"."is_owner" = 1;--> statement-breakpoint
CREATE TABLE `auctions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`valid_until` integer NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `auctions_created_by_idx` ON `auctions` (`created_by`);--> statement-breakpoint
CREATE INDEX `auctions_open_end_idx` ON `auctions` (`valid_until`) WHERE "auctions"."settled_at" is null and "auctions"."deleted_at" is null;--> statement-breakpoint
CREATE TABLE `bids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`product_id` text NOT NULL,
	`auction_id` text NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bids_amount_pos" CHECK("bids"."amount" > 0),
	CONSTRAINT "bids_status_ck" CHECK("bids"."status" in ('success', 'outbid', 'failed', 'rolledback', 'won'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bids_leader_uq` ON `bids` (`product_id`) WHERE "bids"."status" = 'success';--> statement-breakpoint
CREATE INDEX `bids_product_idx` ON `bids` (`product_id`,`auction_id`,`status`);--> statement-breakpoint
CREATE INDEX `bids_user_idx` ON `bids` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `bids_auction_idx` ON `bids` (`auction_id`,`status`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_by` integer NOT NULL,
	`auction_id` text,
	`status` text DEFAULT 'available' NOT NULL,
	`sold_price` integer,
	`winner_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`winner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "products_status_ck" CHECK("products"."status" in ('available', 'sold')),
	CONSTRAINT "products_sold_ck" CHECK(("products"."status" = 'sold') = ("products"."sold_price" is not null))
);
--> statement-breakpoint
CREATE INDEX `products_auction_idx` ON `products` (`auction_id`);--> statement-breakpoint
CREATE INDEX `products_owner_idx` ON `products` (`created_by`,`auction_id`);--> statement-breakpoint
CREATE TABLE `registrations` (
	`auction_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`auction_id`, `user_id`),
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `registrations_user_idx` ON `registrations` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`name` text NOT NULL,
	`mobile_number` text NOT NULL,
	`password_hash` text NOT NULL,
	`wallet_balance` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "users_wallet_nonneg" CHECK("users"."wallet_balance" >= 0),
	CONSTRAINT "users_status_ck" CHECK("users"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_uq` ON `users` (`username`);--> statement-breakpoint
CREATE TABLE `wallet_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`bid_id` integer,
	`product_id` text,
	`notes` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bid_id`) REFERENCES `bids`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "wallet_tx_amount_pos" CHECK("wallet_transactions"."amount" > 0),
	CONSTRAINT "wallet_tx_type_ck" CHECK("wallet_transactions"."type" in ('topup', 'bid', 'refund'))
);
--> statement-breakpoint
CREATE INDEX `wallet_tx_user_idx` ON `wallet_transactions` (`user_id`,`id`);