-- The lot search index (server/src/db/sqlite/search.ts, docs/catalogue.md#search): FTS5 over a live
-- product's name, description and auction's name, under the product's rowid, with the porter stemmer.
-- A virtual table drizzle-kit does not describe, hence this hand-written migration.
CREATE VIRTUAL TABLE `lot_search` USING fts5(`name`, `description`, `auction_name`, tokenize = 'porter unicode61');
--> statement-breakpoint
INSERT INTO `lot_search` (`rowid`, `name`, `description`, `auction_name`) SELECT p.rowid, p.name, p.description, coalesce(a.name, '') FROM products p LEFT JOIN auctions a ON a.id = p.auction_id WHERE p.deleted_at IS NULL;
