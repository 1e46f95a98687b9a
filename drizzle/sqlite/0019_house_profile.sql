CREATE TABLE `houses` (
	`admin_id` integer PRIMARY KEY NOT NULL,
	`legal_name` text,
	`display_name` text,
	`address_line1` text,
	`address_line2` text,
	`city` text,
	`state_code` text,
	`pin` text,
	`gstin` text,
	`invoice_prefix` text,
	`phone` text,
	`email` text,
	`payout_holder` text,
	`payout_ifsc` text,
	`payout_account` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "houses_state_ck" CHECK("houses"."state_code" is null or "houses"."state_code" in ('01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '26', '27', '29', '30', '31', '32', '33', '34', '35', '36', '37', '38', '97'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `houses_invoice_prefix_uq` ON `houses` (`invoice_prefix`) WHERE "houses"."invoice_prefix" is not null;--> statement-breakpoint
CREATE TABLE `pickup_locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer NOT NULL,
	`name` text NOT NULL,
	`address_line1` text NOT NULL,
	`address_line2` text,
	`city` text NOT NULL,
	`state_code` text NOT NULL,
	`pin` text NOT NULL,
	`instructions` text,
	`hours` text,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "pickup_locations_state_ck" CHECK("pickup_locations"."state_code" in ('01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '26', '27', '29', '30', '31', '32', '33', '34', '35', '36', '37', '38', '97'))
);
--> statement-breakpoint
CREATE INDEX `pickup_locations_admin_idx` ON `pickup_locations` (`admin_id`,`position`);