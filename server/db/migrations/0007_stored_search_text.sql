DROP INDEX "digger_profiles_search_trgm";--> statement-breakpoint
DROP INDEX "gigs_open_search_trgm";--> statement-breakpoint
ALTER TABLE "digger_profiles" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(handle || ' ' || profession || ' ' || bio)) STORED;--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title || ' ' || description)) STORED;--> statement-breakpoint
CREATE INDEX "digger_profiles_search_trgm" ON "digger_profiles" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open';--> statement-breakpoint
-- Statistics for the new columns, so that the planner can estimate how many rows a search matches.
ANALYZE "digger_profiles";--> statement-breakpoint
ANALYZE "gigs";
