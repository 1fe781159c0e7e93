CREATE TABLE "hires" (
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hires_gig_id_digger_id_pk" PRIMARY KEY("gig_id","digger_id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"lead_purchase_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"body" text NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_body_length" CHECK (char_length(btrim("reviews"."body")) between 20 and 2000),
	CONSTRAINT "reviews_reply_length" CHECK ("reviews"."reply" is null or char_length(btrim("reviews"."reply")) between 10 and 1000),
	CONSTRAINT "reviews_replied_check" CHECK (("reviews"."reply" is null) = ("reviews"."replied_at" is null))
);
--> statement-breakpoint
ALTER TABLE "hires" ADD CONSTRAINT "hires_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hires" ADD CONSTRAINT "hires_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_lead_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("lead_purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hires_digger_idx" ON "hires" USING btree ("digger_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_gig_digger_key" ON "reviews" USING btree ("gig_id","digger_id");--> statement-breakpoint
CREATE INDEX "reviews_digger_newest_idx" ON "reviews" USING btree ("digger_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- A digger's figures come from what happened, never from a form (docs/decisions/0022-earned-trust.md):
-- average_rating and total_ratings from their reviews, completion_rate from the share of their
-- completed purchases whose client marked them hired. Recomputed by the database in the
-- transaction of every write that changes them. The profile row is locked first: a concurrent
-- writer for the same digger waits there, and under READ COMMITTED each later statement takes a
-- new snapshot, so it counts the rows the other committed (two AVGs can never miss each other).
-- FOR NO KEY UPDATE, not FOR UPDATE: each writer already holds FOR KEY SHARE on this row (its
-- foreign key to digger_profiles), and two of them upgrading to FOR UPDATE would deadlock.
CREATE FUNCTION "refresh_digger_figures"("digger" uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "digger_profiles" WHERE "id" = "digger" FOR NO KEY UPDATE;
  UPDATE "digger_profiles" SET
    "average_rating" = coalesce((SELECT round(avg("rating"), 2) FROM "reviews" WHERE "digger_id" = "digger"), 0),
    "total_ratings" = (SELECT count(*) FROM "reviews" WHERE "digger_id" = "digger"),
    "completion_rate" = coalesce((
      SELECT round(100.0 * count("h"."gig_id") / nullif(count(*), 0))
      FROM "lead_purchases" "p"
      LEFT JOIN "hires" "h" ON "h"."gig_id" = "p"."gig_id" AND "h"."digger_id" = "p"."digger_id"
      WHERE "p"."digger_id" = "digger" AND "p"."status" = 'completed'), 0)
  WHERE "id" = "digger";
END
$$;--> statement-breakpoint
CREATE FUNCTION "digger_figures_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "refresh_digger_figures"(OLD."digger_id"); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."digger_id" IS DISTINCT FROM OLD."digger_id") THEN
    PERFORM "refresh_digger_figures"(NEW."digger_id");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reviews_digger_figures" AFTER INSERT OR DELETE OR UPDATE OF "rating", "digger_id" ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION "digger_figures_changed"();--> statement-breakpoint
CREATE TRIGGER "hires_digger_figures" AFTER INSERT OR DELETE OR UPDATE ON "hires"
  FOR EACH ROW EXECUTE FUNCTION "digger_figures_changed"();--> statement-breakpoint
CREATE TRIGGER "lead_purchases_completed_digger_figures" AFTER INSERT ON "lead_purchases"
  FOR EACH ROW WHEN (NEW."status" = 'completed') EXECUTE FUNCTION "digger_figures_changed"();--> statement-breakpoint
CREATE TRIGGER "lead_purchases_status_digger_figures" AFTER UPDATE OF "status", "digger_id" ON "lead_purchases"
  FOR EACH ROW WHEN (NEW."status" IS DISTINCT FROM OLD."status" OR NEW."digger_id" IS DISTINCT FROM OLD."digger_id")
  EXECUTE FUNCTION "digger_figures_changed"();--> statement-breakpoint
-- Figures typed before this migration (demo data) give way to what the reviews and hires say;
-- response time is not measured yet, so it is unknown rather than invented.
UPDATE "digger_profiles" SET "response_time_hours" = NULL;--> statement-breakpoint
SELECT "refresh_digger_figures"("id") FROM "digger_profiles";
