-- Reply by e-mail (issue 45, decision 0048's amendment): a reply address is signed with the
-- user's key generation, so that changing the password or signing out everywhere kills every
-- address a notice carried before. Better Auth changes a password on several paths (change,
-- reset); the trigger counts each, whatever wrote it. Signing out everywhere is counted by
-- server/auth/endpoint-rules.ts, which alone tells it from a single sign-out.
ALTER TABLE "users" ADD COLUMN "reply_key_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "reply_key_generation_on_password"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "reply_key_generation" = "reply_key_generation" + 1 WHERE "id" = NEW."user_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "accounts_password_reply_key" AFTER UPDATE OF "password" ON "accounts"
  FOR EACH ROW WHEN (OLD."password" IS DISTINCT FROM NEW."password")
  EXECUTE FUNCTION "reply_key_generation_on_password"();
