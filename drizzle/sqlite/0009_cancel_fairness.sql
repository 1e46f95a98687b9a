ALTER TABLE `auto_bids` ADD `status` text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE `bids` ADD `extended_from` integer;--> statement-breakpoint
ALTER TABLE `bids` ADD `extended_to` integer;--> statement-breakpoint
-- The bid count of lots in an auction as the new rule counts it: accepted bids and automatic raises, not cancelled ones.
UPDATE products SET bid_count = (SELECT count(*) FROM bids b WHERE b.product_id = products.id AND b.auction_id = products.auction_id AND b.status NOT IN ('failed', 'rolledback')) + (SELECT count(*) FROM auto_bids x JOIN bids b ON b.id = x.bid_id WHERE x.product_id = products.id AND b.auction_id = products.auction_id AND x.status = 'accepted') WHERE auction_id IS NOT NULL;
