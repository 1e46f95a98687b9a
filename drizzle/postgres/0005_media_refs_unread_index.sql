CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id","read_at") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "product_images_image_idx" ON "product_images" USING btree ("image_name");--> statement-breakpoint
CREATE INDEX "product_images_thumb_idx" ON "product_images" USING btree ("thumb_name");