CREATE TABLE "review_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"review_id" uuid NOT NULL,
	"reporter_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	CONSTRAINT "review_reports_reason_length" CHECK (char_length(btrim("review_reports"."reason")) between 10 and 500),
	CONSTRAINT "review_reports_resolution_check" CHECK (("review_reports"."resolved_at" is null) = ("review_reports"."resolution" is null) and ("review_reports"."resolution" is null or "review_reports"."resolution" in ('hidden', 'kept')))
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_reports_review_reporter_key" ON "review_reports" USING btree ("review_id","reporter_id");--> statement-breakpoint
CREATE INDEX "review_reports_open_idx" ON "review_reports" USING btree ("created_at","id") WHERE "review_reports"."resolved_at" is null;--> statement-breakpoint
-- A hidden review leaves the digger's figures (average_rating, total_ratings) with the profile;
-- hiding and showing it recompute them like any other review write (migration 0016).
CREATE OR REPLACE FUNCTION "refresh_digger_figures"("digger" uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "digger_profiles" WHERE "id" = "digger" FOR NO KEY UPDATE;
  UPDATE "digger_profiles" SET
    "average_rating" = coalesce((SELECT round(avg("rating"), 2) FROM "reviews" WHERE "digger_id" = "digger" AND "hidden_at" IS NULL), 0),
    "total_ratings" = (SELECT count(*) FROM "reviews" WHERE "digger_id" = "digger" AND "hidden_at" IS NULL),
    "completion_rate" = coalesce((
      SELECT round(100.0 * count("h"."gig_id") / nullif(count(*), 0))
      FROM "lead_purchases" "p"
      LEFT JOIN "hires" "h" ON "h"."gig_id" = "p"."gig_id" AND "h"."digger_id" = "p"."digger_id"
      WHERE "p"."digger_id" = "digger" AND "p"."status" = 'completed'), 0)
  WHERE "id" = "digger";
END
$$;--> statement-breakpoint
DROP TRIGGER "reviews_digger_figures" ON "reviews";--> statement-breakpoint
CREATE TRIGGER "reviews_digger_figures" AFTER INSERT OR DELETE OR UPDATE OF "rating", "digger_id", "hidden_at" ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION "digger_figures_changed"();
