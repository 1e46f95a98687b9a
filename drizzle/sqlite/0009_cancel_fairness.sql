ALTER TABLE `auto_bids` ADD `status` text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE `bids` ADD `extended_from` integer;--> statement-breakpoint
ALTER TABLE `bids` ADD `extended_to` integer;