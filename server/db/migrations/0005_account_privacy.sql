ALTER TABLE "digger_profiles" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "list_unsubscribe_url" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "promotional_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "purged_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_purge_due_idx" ON "users" USING btree ("deleted_at") WHERE "users"."deleted_at" is not null and "users"."purged_at" is null;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_unsubscribe_check" CHECK ("emails"."list_unsubscribe_url" is null or "emails"."kind" = 'promotional');--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_purged_check" CHECK ("users"."purged_at" is null or "users"."deleted_at" is not null);