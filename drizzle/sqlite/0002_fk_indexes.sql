CREATE INDEX `products_winner_idx` ON `products` (`winner_id`);--> statement-breakpoint
CREATE INDEX `wallet_tx_bid_idx` ON `wallet_transactions` (`bid_id`);