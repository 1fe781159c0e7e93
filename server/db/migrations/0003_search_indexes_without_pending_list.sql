DROP INDEX "digger_profiles_handle_trgm";--> statement-breakpoint
DROP INDEX "digger_profiles_profession_trgm";--> statement-breakpoint
DROP INDEX "digger_profiles_bio_trgm";--> statement-breakpoint
DROP INDEX "gigs_title_trgm";--> statement-breakpoint
DROP INDEX "gigs_description_trgm";--> statement-breakpoint
CREATE INDEX "digger_profiles_handle_trgm" ON "digger_profiles" USING gin ("handle" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "digger_profiles_profession_trgm" ON "digger_profiles" USING gin ("profession" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "digger_profiles_bio_trgm" ON "digger_profiles" USING gin ("bio" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "gigs_title_trgm" ON "gigs" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "gigs_description_trgm" ON "gigs" USING gin ("description" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open';