-- Two-way reviews after the attack (issue 51, decision 0077):
-- 1. A removed hire closes its blind window instead of deleting it (`closed_at`): a new hire of the
--    pair opens the same window again with its first end, so removing and re-adding a hire cannot
--    discard the digger's review and start a fresh 14 days over and over.
-- 2. The client's review figures are recounted under the client_records row's lock, in a statement
--    that starts after it is taken: two publications committing at once counted from the same stale
--    snapshot and the last one wrote a count one short (as refresh_digger_figures locks first).
ALTER TABLE "review_windows" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "refresh_client_review_figures"("client" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "client_records" ("client_id") VALUES ("client") ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "client_records" WHERE "client_id" = "client" FOR NO KEY UPDATE;
  UPDATE "client_records" SET
    ("review_count", "review_average", "described_yes", "described_no", "reachable_yes", "reachable_no", "paid_yes", "paid_no") = (
      SELECT count(*), coalesce(round(avg("rating"), 2), 0),
        count(*) FILTER (WHERE "as_described"), count(*) FILTER (WHERE NOT "as_described"),
        count(*) FILTER (WHERE "easy_to_reach"), count(*) FILTER (WHERE NOT "easy_to_reach"),
        count(*) FILTER (WHERE "paid_as_agreed"), count(*) FILTER (WHERE NOT "paid_as_agreed")
      FROM "client_reviews"
      WHERE "client_id" = "client" AND "published_at" IS NOT NULL AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id"))
  WHERE "client_id" = "client";
END
$$;--> statement-breakpoint
SELECT "refresh_client_review_figures"("client_id") FROM (SELECT DISTINCT "client_id" FROM "client_reviews") "c";
