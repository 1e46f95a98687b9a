CREATE TABLE "mail_caps" (
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"window_start" bigint NOT NULL,
	"sent" integer NOT NULL,
	CONSTRAINT "mail_caps_address_kind_pk" PRIMARY KEY("address","kind")
);
--> statement-breakpoint
ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_ck";--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_ck" CHECK ("account_tokens"."purpose" in ('password_reset', 'verify_email', 'undo_email'));