-- Issue 19: a cap on a gig's buyers (existing gigs get 5), a checkout's URL to continue it, live holds
-- found by index, and the listing indexes leave out gigs full of completed purchases (decision 0019).
DROP INDEX "gigs_open_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_category_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_search_trgm";--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "max_diggers" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_purchases" ADD COLUMN "checkout_url" text;--> statement-breakpoint
CREATE INDEX "lead_purchases_hold_idx" ON "lead_purchases" USING btree ("gig_id","created_at") WHERE "lead_purchases"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "gigs_open_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers";--> statement-breakpoint
CREATE INDEX "gigs_open_category_newest_idx" ON "gigs" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers";--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers";--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_max_diggers_check" CHECK ("gigs"."max_diggers" between 1 and 5);