CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`read_at`) WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX `product_images_image_idx` ON `product_images` (`image_name`);--> statement-breakpoint
CREATE INDEX `product_images_thumb_idx` ON `product_images` (`thumb_name`);