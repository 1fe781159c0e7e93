DROP INDEX "digger_profiles_handle_trgm";--> statement-breakpoint
DROP INDEX "digger_profiles_profession_trgm";--> statement-breakpoint
DROP INDEX "digger_profiles_bio_trgm";--> statement-breakpoint
DROP INDEX "gigs_title_trgm";--> statement-breakpoint
DROP INDEX "gigs_description_trgm";--> statement-breakpoint
CREATE INDEX "digger_profiles_search_trgm" ON "digger_profiles" USING gin (("handle" || ' ' || "profession" || ' ' || "bio") gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin (("title" || ' ' || "description") gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open';--> statement-breakpoint
-- Statistics for the new index expressions, so that the planner can estimate how many rows a search matches.
ANALYZE "digger_profiles";--> statement-breakpoint
ANALYZE "gigs";
