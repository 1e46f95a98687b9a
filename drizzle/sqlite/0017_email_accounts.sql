CREATE TABLE `account_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`role` text NOT NULL,
	`account_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	CONSTRAINT "account_tokens_role_ck" CHECK("account_tokens"."role" in ('user', 'admin')),
	CONSTRAINT "account_tokens_purpose_ck" CHECK("account_tokens"."purpose" in ('password_reset', 'verify_email'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_tokens_hash_uq` ON `account_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `account_tokens_account_idx` ON `account_tokens` (`role`,`account_id`,`purpose`);--> statement-breakpoint
ALTER TABLE `admins` ADD `email` text;--> statement-breakpoint
ALTER TABLE `admins` ADD `pending_email` text;--> statement-breakpoint
CREATE UNIQUE INDEX `admins_email_uq` ON `admins` (`email`) WHERE "admins"."email" is not null;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `user_id` integer;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `topic` text;--> statement-breakpoint
CREATE INDEX `mail_outbox_topic_idx` ON `mail_outbox` (`user_id`,`topic`,`created_at`) WHERE "mail_outbox"."topic" is not null;--> statement-breakpoint
ALTER TABLE `notifications` ADD `mailed_at` integer;--> statement-breakpoint
-- Notices written before email existed are not mailed now.
UPDATE `notifications` SET `mailed_at` = `created_at`;--> statement-breakpoint
CREATE INDEX `notifications_unmailed_idx` ON `notifications` (`id`) WHERE "notifications"."mailed_at" is null;--> statement-breakpoint
ALTER TABLE `users` ADD `email` text;--> statement-breakpoint
ALTER TABLE `users` ADD `pending_email` text;--> statement-breakpoint
ALTER TABLE `users` ADD `email_notices` text DEFAULT 'won,outbid,ending_soon' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`) WHERE "users"."email" is not null;