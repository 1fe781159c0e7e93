-- A hire ends the sale (issue 47, amends decision 0037): accepting a quote or marking a digger
-- hired takes the gig's lead off sale at once, as one more term of the rule over the gig's own
-- row (server/leads/for-sale.ts), so that Browse Gigs, buying, the alerts and the sitemap keep to
-- the partial indexes. "hired" is kept by a trigger on hires, never written by the app; the
-- client's 'Keep it open for more diggers' sets open_for_more, and removing the last hire
-- clears it (a later hire takes the gig off sale again).
ALTER TABLE "gigs" ADD COLUMN "hired" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "open_for_more" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "gigs" SET "hired" = true WHERE EXISTS (SELECT 1 FROM "hires" WHERE "hires"."gig_id" = "gigs"."id");--> statement-breakpoint
-- Each branch first takes the gig row's lock, then reads hires in a new statement (READ COMMITTED:
-- a fresh snapshot): two hires of one gig removed at once, or one added while the last is removed,
-- are ordered by the lock, so the second sees the first's commit and "hired" matches the rows.
CREATE FUNCTION hires_sync_gig() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "gigs" SET "hired" = true WHERE "id" = NEW."gig_id";
  ELSE
    PERFORM 1 FROM "gigs" WHERE "id" = OLD."gig_id" FOR NO KEY UPDATE;
    IF NOT EXISTS (SELECT 1 FROM "hires" WHERE "gig_id" = OLD."gig_id") THEN
      UPDATE "gigs" SET "hired" = false, "open_for_more" = false WHERE "id" = OLD."gig_id" AND ("hired" OR "open_for_more");
    END IF;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER hires_gig_sync AFTER INSERT OR DELETE ON "hires" FOR EACH ROW EXECUTE FUNCTION hires_sync_gig();--> statement-breakpoint
DROP INDEX "gigs_open_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_category_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_search_trgm";--> statement-breakpoint
DROP INDEX "gigs_open_location_trgm";--> statement-breakpoint
CREATE INDEX "gigs_open_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more");--> statement-breakpoint
CREATE INDEX "gigs_open_category_newest_idx" ON "gigs" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more");--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more");--> statement-breakpoint
CREATE INDEX "gigs_open_location_trgm" ON "gigs" USING gin (lower("location") gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published" and "gigs"."purchase_count" < "gigs"."max_diggers" and (not "gigs"."hired" or "gigs"."open_for_more");
