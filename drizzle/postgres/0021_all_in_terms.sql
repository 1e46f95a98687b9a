ALTER TABLE "auctions" ADD COLUMN "buyer_premium_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "premium_gst_pct" integer DEFAULT 18 NOT NULL;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "held" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "gst_pct" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_premium_ck" CHECK ("auctions"."buyer_premium_bp" between 0 and 5000 and "auctions"."premium_gst_pct" between 0 and 100);--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_held_ck" CHECK ("bids"."held" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_gst_ck" CHECK ("products"."gst_pct" in (0, 5, 12, 18, 28));--> statement-breakpoint
UPDATE "bids" SET "held" = coalesce("max_amount", "amount") WHERE "status" = 'success';
