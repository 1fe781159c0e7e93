-- Two-way reviews, blind until both have spoken (issue 51, docs/decisions/0077-two-way-reviews.md).
-- A hire opens a 14-day review window (review_windows); the client's review of the digger and the
-- digger's new review of the client (client_reviews) stay unpublished (published_at null) until
-- both are written or the window ends. Figures count published reviews only.
ALTER TABLE "reviews" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
-- Every review written before this change was shown at once: it stays published. A review
-- written outside a window is published as it is written (the default); the writer of a blind
-- one sets null (server/reviews/write-review.ts).
UPDATE "reviews" SET "published_at" = "created_at";--> statement-breakpoint
ALTER TABLE "reviews" ALTER COLUMN "published_at" SET DEFAULT now();--> statement-breakpoint
CREATE TABLE "review_windows" (
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"lead_purchase_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "review_windows_gig_id_digger_id_pk" PRIMARY KEY("gig_id","digger_id"),
	CONSTRAINT "review_windows_ends_check" CHECK ("review_windows"."ends_at" > "review_windows"."opened_at")
);--> statement-breakpoint
ALTER TABLE "review_windows" ADD CONSTRAINT "review_windows_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_windows" ADD CONSTRAINT "review_windows_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_windows" ADD CONSTRAINT "review_windows_lead_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("lead_purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_windows_due_idx" ON "review_windows" USING btree ("ends_at") WHERE "review_windows"."published_at" is null;--> statement-breakpoint
-- Hires recorded before this change: their window runs its 14 days, already published (the
-- client's review was public at once; a digger's review of the client is too).
INSERT INTO "review_windows" ("gig_id", "digger_id", "lead_purchase_id", "opened_at", "ends_at", "published_at")
  SELECT "h"."gig_id", "h"."digger_id", "p"."id", "h"."created_at", "h"."created_at" + interval '14 days', now()
  FROM "hires" "h"
  JOIN "lead_purchases" "p" ON "p"."gig_id" = "h"."gig_id" AND "p"."digger_id" = "h"."digger_id" AND "p"."status" = 'completed'
  WHERE NOT "purchase_fully_refunded"("p"."id")
  ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TABLE "client_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gig_id" uuid NOT NULL,
	"digger_id" uuid NOT NULL,
	"lead_purchase_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"rating" integer NOT NULL,
	"body" text NOT NULL,
	"as_described" boolean,
	"easy_to_reach" boolean,
	"paid_as_agreed" boolean,
	"published_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_reviews_rating_check" CHECK ("client_reviews"."rating" between 1 and 5),
	CONSTRAINT "client_reviews_body_length" CHECK (char_length(btrim("client_reviews"."body")) between 20 and 2000)
);--> statement-breakpoint
ALTER TABLE "client_reviews" ADD CONSTRAINT "client_reviews_gig_id_gigs_id_fk" FOREIGN KEY ("gig_id") REFERENCES "public"."gigs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_reviews" ADD CONSTRAINT "client_reviews_digger_id_digger_profiles_id_fk" FOREIGN KEY ("digger_id") REFERENCES "public"."digger_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_reviews" ADD CONSTRAINT "client_reviews_lead_purchase_id_lead_purchases_id_fk" FOREIGN KEY ("lead_purchase_id") REFERENCES "public"."lead_purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_reviews" ADD CONSTRAINT "client_reviews_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_reviews_gig_digger_key" ON "client_reviews" USING btree ("gig_id","digger_id");--> statement-breakpoint
CREATE INDEX "client_reviews_client_published_idx" ON "client_reviews" USING btree ("client_id","published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "client_reviews"."published_at" is not null and "client_reviews"."hidden_at" is null;--> statement-breakpoint
-- Reports of a digger's review of a client share the Reviews queue: one of the two subjects.
ALTER TABLE "review_reports" ALTER COLUMN "review_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "review_reports" ADD COLUMN "client_review_id" uuid;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_client_review_id_client_reviews_id_fk" FOREIGN KEY ("client_review_id") REFERENCES "public"."client_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_reports_client_review_reporter_key" ON "review_reports" USING btree ("client_review_id","reporter_id");--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_subject_check" CHECK (("review_reports"."review_id" is null) <> ("review_reports"."client_review_id" is null));--> statement-breakpoint
-- The client's record gains their reviews from diggers.
ALTER TABLE "client_records" ADD COLUMN "review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "review_average" numeric(3, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "described_yes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "described_no" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "reachable_yes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "reachable_no" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "paid_yes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_records" ADD COLUMN "paid_no" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A client's review figures, recounted from their published, shown reviews whose purchase was
-- not refunded in full, in the transaction of every change (like the digger's, migration 0027).
CREATE FUNCTION "refresh_client_review_figures"("client" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "client_records" ("client_id", "review_count", "review_average", "described_yes", "described_no", "reachable_yes", "reachable_no", "paid_yes", "paid_no")
    SELECT "client", count(*), coalesce(round(avg("rating"), 2), 0),
      count(*) FILTER (WHERE "as_described"), count(*) FILTER (WHERE NOT "as_described"),
      count(*) FILTER (WHERE "easy_to_reach"), count(*) FILTER (WHERE NOT "easy_to_reach"),
      count(*) FILTER (WHERE "paid_as_agreed"), count(*) FILTER (WHERE NOT "paid_as_agreed")
    FROM "client_reviews"
    WHERE "client_id" = "client" AND "published_at" IS NOT NULL AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id")
  ON CONFLICT ("client_id") DO UPDATE SET
    "review_count" = excluded."review_count", "review_average" = excluded."review_average",
    "described_yes" = excluded."described_yes", "described_no" = excluded."described_no",
    "reachable_yes" = excluded."reachable_yes", "reachable_no" = excluded."reachable_no",
    "paid_yes" = excluded."paid_yes", "paid_no" = excluded."paid_no";
END
$$;--> statement-breakpoint
CREATE FUNCTION "client_reviews_figures_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "refresh_client_review_figures"(OLD."client_id");
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP <> 'UPDATE' OR NEW."client_id" IS DISTINCT FROM OLD."client_id") THEN
    PERFORM "refresh_client_review_figures"(NEW."client_id");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "client_reviews_figures" AFTER INSERT OR DELETE OR UPDATE OF "rating", "as_described", "easy_to_reach", "paid_as_agreed", "published_at", "hidden_at", "client_id" ON "client_reviews"
  FOR EACH ROW EXECUTE FUNCTION "client_reviews_figures_changed"();--> statement-breakpoint
-- A full refund withdraws the digger's review of the client too.
CREATE FUNCTION "refund_client_figures_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "refresh_client_review_figures"("client_id") FROM "client_reviews" WHERE "lead_purchase_id" = OLD."lead_purchase_id";
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP <> 'UPDATE' OR NEW."lead_purchase_id" IS DISTINCT FROM OLD."lead_purchase_id") THEN
    PERFORM "refresh_client_review_figures"("client_id") FROM "client_reviews" WHERE "lead_purchase_id" = NEW."lead_purchase_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "refunds_client_figures" AFTER INSERT OR DELETE OR UPDATE OF "amount_cents", "lead_purchase_id", "status" ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION "refund_client_figures_changed"();--> statement-breakpoint
-- The digger's figures count published reviews only: a blind review counts once it is shown.
CREATE OR REPLACE FUNCTION "refresh_digger_figures"("digger" uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "digger_profiles" WHERE "id" = "digger" FOR NO KEY UPDATE;
  UPDATE "digger_profiles" SET
    "average_rating" = coalesce((
      SELECT round(avg("rating"), 2) FROM "reviews"
      WHERE "digger_id" = "digger" AND "published_at" IS NOT NULL AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id")), 0),
    "total_ratings" = (
      SELECT count(*) FROM "reviews"
      WHERE "digger_id" = "digger" AND "published_at" IS NOT NULL AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id")),
    "completion_rate" = coalesce((
      SELECT round(100.0 * count("h"."gig_id") / nullif(count(*), 0))
      FROM "lead_purchases" "p"
      LEFT JOIN "hires" "h" ON "h"."gig_id" = "p"."gig_id" AND "h"."digger_id" = "p"."digger_id"
      WHERE "p"."digger_id" = "digger" AND "p"."status" = 'completed' AND NOT "purchase_fully_refunded"("p"."id")), 0)
  WHERE "id" = "digger";
END
$$;--> statement-breakpoint
DROP TRIGGER "reviews_digger_figures" ON "reviews";--> statement-breakpoint
CREATE TRIGGER "reviews_digger_figures" AFTER INSERT OR DELETE OR UPDATE OF "rating", "digger_id", "hidden_at", "published_at" ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION "digger_figures_changed"();
