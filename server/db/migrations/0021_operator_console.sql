CREATE TABLE "operator_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_user_id" text,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_actions_subject_type_check" CHECK ("operator_actions"."subject_type" in ('user', 'gig', 'review', 'credential', 'profile', 'refund')),
	CONSTRAINT "operator_actions_action_check" CHECK ("operator_actions"."action" ~ '^[a-z_]+\.[a-z_]+$'),
	CONSTRAINT "operator_actions_reason_length" CHECK ("operator_actions"."reason" is null or char_length("operator_actions"."reason") between 1 and 1000)
);
--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "gigs" ADD COLUMN "owner_suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "operator_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "operator_actions_newest_idx" ON "operator_actions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_actions_subject_user_idx" ON "operator_actions" USING btree ("subject_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_actions_operator_idx" ON "operator_actions" USING btree ("operator_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_actions_action_idx" ON "operator_actions" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "gigs" ADD CONSTRAINT "gigs_hidden_reason_check" CHECK (("gigs"."hidden_at" is null) = ("gigs"."hidden_reason" is null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_suspended_reason_check" CHECK (("users"."suspended_at" is null) = ("users"."suspended_reason" is null));--> statement-breakpoint
-- The audit trail is append-only: nothing, not even a mistaken query of ours, changes or removes a row.
CREATE FUNCTION operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER operator_actions_no_update_or_delete BEFORE UPDATE OR DELETE ON "operator_actions" FOR EACH ROW EXECUTE FUNCTION operator_actions_append_only();--> statement-breakpoint
CREATE TRIGGER operator_actions_no_truncate BEFORE TRUNCATE ON "operator_actions" FOR EACH STATEMENT EXECUTE FUNCTION operator_actions_append_only();--> statement-breakpoint
-- A suspended account's open gigs and profile leave every public page, and come back on
-- reinstatement (a profile hidden because its account was deleted stays hidden).
CREATE FUNCTION users_sync_suspension() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gigs" SET "owner_suspended" = (NEW."suspended_at" IS NOT NULL)
    WHERE "consumer_id" = NEW."id" AND "owner_suspended" <> (NEW."suspended_at" IS NOT NULL);
  IF NEW."suspended_at" IS NOT NULL THEN
    UPDATE "digger_profiles" SET "hidden_at" = coalesce("hidden_at", NEW."suspended_at") WHERE "user_id" = NEW."id";
  ELSIF NEW."deleted_at" IS NULL THEN
    UPDATE "digger_profiles" SET "hidden_at" = NULL WHERE "user_id" = NEW."id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_suspension_sync AFTER UPDATE OF "suspended_at" ON "users" FOR EACH ROW
  WHEN (OLD."suspended_at" IS DISTINCT FROM NEW."suspended_at") EXECUTE FUNCTION users_sync_suspension();
