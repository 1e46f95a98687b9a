ALTER TABLE "products" ADD COLUMN "lot_number" integer;--> statement-breakpoint
-- Lots already in an auction are numbered in the order the auction lists them (docs/catalogue.md#lot-numbers).
UPDATE "products" SET "lot_number" = r.n FROM (SELECT q.id, row_number() OVER (PARTITION BY q.auction_id ORDER BY q.created_at, q.seq) AS n FROM products q WHERE q.auction_id IS NOT NULL AND q.deleted_at IS NULL) r WHERE r.id = products.id;
