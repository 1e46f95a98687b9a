PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_auctions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`valid_until` integer NOT NULL,
	`original_valid_until` integer DEFAULT 0 NOT NULL,
	`increment_rule` text DEFAULT 'flat' NOT NULL,
	`increment_amount` integer DEFAULT 100 NOT NULL,
	`increment_tiers` text,
	`cancel_policy` text DEFAULT 'until_end' NOT NULL,
	`soft_close_s` integer DEFAULT 0 NOT NULL,
	`max_extension_s` integer DEFAULT 3600 NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "auctions_increment_ck" CHECK("__new_auctions"."increment_rule" in ('flat', 'ladder', 'custom') and "__new_auctions"."increment_amount" between 100 and 10000000),
	CONSTRAINT "auctions_cancel_policy_ck" CHECK("__new_auctions"."cancel_policy" in ('until_end', 'strict')),
	CONSTRAINT "auctions_soft_close_ck" CHECK("__new_auctions"."soft_close_s" >= 0 and "__new_auctions"."max_extension_s" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_auctions`("id", "name", "valid_until", "original_valid_until", "increment_rule", "increment_amount", "increment_tiers", "cancel_policy", "soft_close_s", "max_extension_s", "created_by", "created_at", "updated_at", "settled_at", "deleted_at") SELECT "id", "name", "valid_until", "original_valid_until", "increment_rule", "increment_amount", "increment_tiers", "cancel_policy", "soft_close_s", "max_extension_s", "created_by", "created_at", "updated_at", "settled_at", "deleted_at" FROM `auctions`;--> statement-breakpoint
DROP TABLE `auctions`;--> statement-breakpoint
ALTER TABLE `__new_auctions` RENAME TO `auctions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `auctions_created_by_idx` ON `auctions` (`created_by`);--> statement-breakpoint
CREATE INDEX `auctions_open_end_idx` ON `auctions` (`valid_until`) WHERE "auctions"."settled_at" is null and "auctions"."deleted_at" is null;