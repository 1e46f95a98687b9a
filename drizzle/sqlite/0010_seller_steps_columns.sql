ALTER TABLE `auctions` ADD `increment_amount` integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE `auctions` ADD `increment_tiers` text;--> statement-breakpoint
ALTER TABLE `auctions` ADD `cancel_policy` text DEFAULT 'until_end' NOT NULL;