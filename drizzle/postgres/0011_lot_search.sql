CREATE TABLE "lot_search" (
	"product_id" text PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lot_search" ADD CONSTRAINT "lot_search_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lot_search_document_idx" ON "lot_search" USING gin ("document");--> statement-breakpoint
-- What the index holds at first: every live product as it is now (docs/catalogue.md#search).
INSERT INTO "lot_search" ("product_id", "document") SELECT p.id, setweight(to_tsvector('english', p.name), 'A') || setweight(to_tsvector('english', p.description), 'B') || setweight(to_tsvector('english', coalesce(a.name, '')), 'C') FROM products p LEFT JOIN auctions a ON a.id = p.auction_id WHERE p.deleted_at IS NULL;
