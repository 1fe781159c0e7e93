-- The search text takes in the location (issue 23): a generated column's expression cannot be
-- altered, so it is made again, and its index with it (dropping the column dropped it).
ALTER TABLE "gigs" drop column "search_text";--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title || ' ' || description || ' ' || location)) STORED;--> statement-breakpoint
CREATE INDEX "digger_profiles_location_trgm" ON "digger_profiles" USING gin (lower("location") gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "gigs_open_location_trgm" ON "gigs" USING gin (lower("location") gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers";--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers";--> statement-breakpoint
ANALYZE "gigs";--> statement-breakpoint
ANALYZE "digger_profiles";
