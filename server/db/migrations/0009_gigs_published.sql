DROP INDEX "gigs_open_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_category_newest_idx";--> statement-breakpoint
DROP INDEX "gigs_open_search_trgm";--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "published" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A gig is public only once its client confirmed their e-mail (docs/decisions/0012-publish-after-e-mail-confirmation.md).
-- "published" mirrors users.email_verified, kept so by the two triggers below for every writer.
UPDATE "gigs" SET "published" = "users"."email_verified" FROM "users" WHERE "users"."id" = "gigs"."consumer_id";--> statement-breakpoint
CREATE FUNCTION "gigs_published_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- FOR SHARE waits for a confirmation in progress, so that a gig posted meanwhile is not left unpublished.
  SELECT "email_verified" INTO NEW."published" FROM "users" WHERE "id" = NEW."consumer_id" FOR SHARE;
  NEW."published" := coalesce(NEW."published", false);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "gigs_published_on_insert" BEFORE INSERT ON "gigs"
  FOR EACH ROW EXECUTE FUNCTION "gigs_published_on_insert"();--> statement-breakpoint
CREATE FUNCTION "users_email_verified_publishes_gigs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gigs" SET "published" = NEW."email_verified", "updated_at" = now() WHERE "consumer_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_email_verified_publishes_gigs" AFTER UPDATE OF "email_verified" ON "users"
  FOR EACH ROW WHEN (NEW."email_verified" IS DISTINCT FROM OLD."email_verified")
  EXECUTE FUNCTION "users_email_verified_publishes_gigs"();--> statement-breakpoint
CREATE INDEX "gigs_open_newest_idx" ON "gigs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published";--> statement-breakpoint
CREATE INDEX "gigs_open_category_newest_idx" ON "gigs" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "gigs"."status" = 'open' and "gigs"."published";--> statement-breakpoint
CREATE INDEX "gigs_open_search_trgm" ON "gigs" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false) WHERE "gigs"."status" = 'open' and "gigs"."published";--> statement-breakpoint
ANALYZE "gigs";
