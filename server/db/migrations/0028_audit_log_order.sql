-- The audit log's order has a real tie-breaker (issue 31): two actions whose transactions got the
-- same now() (PGlite's clock gives quick ones the same value) fell to their random ids. `seq`
-- numbers the rows in the order they were written; newest first is (created_at, seq) descending.
ALTER TABLE "operator_actions" ADD COLUMN "seq" bigint GENERATED ALWAYS AS IDENTITY;--> statement-breakpoint
DROP INDEX "operator_actions_newest_idx";--> statement-breakpoint
CREATE INDEX "operator_actions_newest_idx" ON "operator_actions" USING btree ("created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);
