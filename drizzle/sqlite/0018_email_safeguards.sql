CREATE TABLE `mail_caps` (
	`address` text NOT NULL,
	`kind` text NOT NULL,
	`window_start` integer NOT NULL,
	`sent` integer NOT NULL,
	PRIMARY KEY(`address`, `kind`)
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_account_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`role` text NOT NULL,
	`account_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	CONSTRAINT "account_tokens_role_ck" CHECK("__new_account_tokens"."role" in ('user', 'admin')),
	CONSTRAINT "account_tokens_purpose_ck" CHECK("__new_account_tokens"."purpose" in ('password_reset', 'verify_email', 'undo_email'))
);
--> statement-breakpoint
INSERT INTO `__new_account_tokens`("id", "role", "account_id", "purpose", "token_hash", "email", "created_at", "expires_at", "used_at") SELECT "id", "role", "account_id", "purpose", "token_hash", "email", "created_at", "expires_at", "used_at" FROM `account_tokens`;--> statement-breakpoint
DROP TABLE `account_tokens`;--> statement-breakpoint
ALTER TABLE `__new_account_tokens` RENAME TO `account_tokens`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `account_tokens_hash_uq` ON `account_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `account_tokens_account_idx` ON `account_tokens` (`role`,`account_id`,`purpose`);