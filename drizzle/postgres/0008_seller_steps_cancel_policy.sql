ALTER TABLE "auctions" DROP CONSTRAINT "auctions_increment_ck";--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "increment_amount" bigint DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "increment_tiers" text;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "cancel_policy" text DEFAULT 'until_end' NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_cancel_policy_ck" CHECK ("auctions"."cancel_policy" in ('until_end', 'strict'));--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_increment_ck" CHECK ("auctions"."increment_rule" in ('flat', 'ladder', 'custom') and "auctions"."increment_amount" between 100 and 10000000);