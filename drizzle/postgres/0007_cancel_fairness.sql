ALTER TABLE "auto_bids" ADD COLUMN "status" text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "extended_from" bigint;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "extended_to" bigint;