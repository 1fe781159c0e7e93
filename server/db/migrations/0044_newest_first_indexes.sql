-- The bell's page (`order by created_at desc, id desc` for one user), the audit log
-- (`order by created_at desc, seq desc`, whole or for one user, operator or action) and a digger's
-- credential documents in the data export read newest first, which is DESC NULLS FIRST; their
-- indexes were built DESC NULLS LAST (drizzle-kit's default), an order PostgreSQL cannot use for
-- that even on NOT NULL columns, so each page read all of a user's rows and sorted them (the
-- inbox had the same fault, migration 0043). Rebuilt in the order the queries ask for, the audit
-- log's narrowed ones with its tie-breaker `seq` too.
DROP INDEX "notifications_user_newest_idx";--> statement-breakpoint
CREATE INDEX "notifications_user_newest_idx" ON "notifications" USING btree ("user_id","created_at" DESC,"id" DESC);--> statement-breakpoint
DROP INDEX "operator_actions_newest_idx";--> statement-breakpoint
CREATE INDEX "operator_actions_newest_idx" ON "operator_actions" USING btree ("created_at" DESC,"seq" DESC);--> statement-breakpoint
DROP INDEX "operator_actions_subject_user_idx";--> statement-breakpoint
CREATE INDEX "operator_actions_subject_user_idx" ON "operator_actions" USING btree ("subject_user_id","created_at" DESC,"seq" DESC);--> statement-breakpoint
DROP INDEX "operator_actions_operator_idx";--> statement-breakpoint
CREATE INDEX "operator_actions_operator_idx" ON "operator_actions" USING btree ("operator_id","created_at" DESC,"seq" DESC);--> statement-breakpoint
DROP INDEX "operator_actions_action_idx";--> statement-breakpoint
CREATE INDEX "operator_actions_action_idx" ON "operator_actions" USING btree ("action","created_at" DESC,"seq" DESC);--> statement-breakpoint
DROP INDEX "credential_documents_digger_idx";--> statement-breakpoint
CREATE INDEX "credential_documents_digger_idx" ON "credential_documents" USING btree ("digger_id","created_at" DESC);
