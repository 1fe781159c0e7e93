-- Ratings come from real purchases after the fact too (issue 30, finding 4; docs/decisions/
-- 0022-earned-trust.md amended, 0031-automatic-approval-bound.md): a purchase whose refunds reach
-- its price (pending or succeeded: a recorded refund is never taken back) no longer counts. Its
-- review leaves average_rating and total_ratings, its hire and the purchase itself leave
-- completion_rate. Every writer of a refund (a client's approval, the automatic one, an
-- operator's, a duplicate or gone-lead payment) re-derives the figures through the trigger below,
-- in the refund's own transaction.
CREATE FUNCTION "purchase_fully_refunded"("purchase" uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT sum("amount_cents") FROM "refunds" WHERE "lead_purchase_id" = "purchase"), 0)
    >= (SELECT "amount_paid_cents" FROM "lead_purchases" WHERE "id" = "purchase")
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "refresh_digger_figures"("digger" uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "digger_profiles" WHERE "id" = "digger" FOR NO KEY UPDATE;
  UPDATE "digger_profiles" SET
    "average_rating" = coalesce((
      SELECT round(avg("rating"), 2) FROM "reviews"
      WHERE "digger_id" = "digger" AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id")), 0),
    "total_ratings" = (
      SELECT count(*) FROM "reviews"
      WHERE "digger_id" = "digger" AND "hidden_at" IS NULL AND NOT "purchase_fully_refunded"("lead_purchase_id")),
    "completion_rate" = coalesce((
      SELECT round(100.0 * count("h"."gig_id") / nullif(count(*), 0))
      FROM "lead_purchases" "p"
      LEFT JOIN "hires" "h" ON "h"."gig_id" = "p"."gig_id" AND "h"."digger_id" = "p"."digger_id"
      WHERE "p"."digger_id" = "digger" AND "p"."status" = 'completed' AND NOT "purchase_fully_refunded"("p"."id")), 0)
  WHERE "id" = "digger";
END
$$;--> statement-breakpoint
CREATE FUNCTION "refund_digger_figures_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "refresh_digger_figures"("digger_id") FROM "lead_purchases" WHERE "id" = OLD."lead_purchase_id";
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP <> 'UPDATE' OR NEW."lead_purchase_id" IS DISTINCT FROM OLD."lead_purchase_id") THEN
    PERFORM "refresh_digger_figures"("digger_id") FROM "lead_purchases" WHERE "id" = NEW."lead_purchase_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "refunds_digger_figures" AFTER INSERT OR DELETE OR UPDATE OF "amount_cents", "lead_purchase_id", "status" ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION "refund_digger_figures_changed"();--> statement-breakpoint
-- The automatic approval's bound (decision 0031): past a digger's second automatic approval in
-- 30 days, an overdue issue waits for an operator until `operator_respond_by` (escalated_at +
-- LEAD_ISSUE_RESPONSE_HOURS), then is approved automatically; an operator's decision is 'operator'.
ALTER TABLE "lead_issues" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_issues" ADD COLUMN "operator_respond_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_escalated_check" CHECK (("escalated_at" IS NULL) = ("operator_respond_by" IS NULL));--> statement-breakpoint
ALTER TABLE "lead_issues" DROP CONSTRAINT "lead_issues_decided_by_check";--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_decided_by_check" CHECK ("decided_by" in ('client', 'automatic', 'operator'));--> statement-breakpoint
ALTER TABLE "lead_issues" ADD CONSTRAINT "lead_issues_operator_check" CHECK ("decided_by" <> 'operator' or "escalated_at" IS NOT NULL);--> statement-breakpoint
-- The bound's count: a digger's automatic approvals, newest first.
CREATE INDEX "lead_issues_digger_automatic_idx" ON "lead_issues" USING btree ("digger_id", "resolved_at") WHERE "decided_by" = 'automatic';--> statement-breakpoint
SELECT "refresh_digger_figures"("id") FROM "digger_profiles";
--> statement-breakpoint
-- An operator's decision on an overdue issue is audited with the issue as its subject.
ALTER TABLE "operator_actions" DROP CONSTRAINT "operator_actions_subject_type_check";--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_subject_type_check" CHECK ("subject_type" in ('user', 'gig', 'review', 'credential', 'profile', 'refund', 'issue'));
