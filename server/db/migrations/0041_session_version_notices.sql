-- Better Auth's signed cookie cache (issue 35, decision 0053): a signed-in request takes its
-- session from a signed cookie instead of the database, so every process must hear at once of
-- any change that ends a session or changes what the cookie carries of its user (sign-out,
-- revocation, suspension, deletion, an operator's grant or removal, a new name or e-mail).
-- Every such row change, whatever wrote it, sends the user's id on the bus's `session_version`
-- channel at its commit; each process then stops trusting that user's cookies
-- (server/auth/session-versions.ts).
-- The user's id is the column named by the trigger's argument (users.id, sessions.user_id).
CREATE OR REPLACE FUNCTION "session_version_notice"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_version', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_version_notice" AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "session_version_notice"('user_id');--> statement-breakpoint
CREATE TRIGGER "users_version_notice" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "session_version_notice"('id');--> statement-breakpoint
-- A TRUNCATE (an operator's "sign everyone out") fires no row trigger: it tells of every user
-- at once ('*'), and each process then trusts no cookie written before it.
CREATE OR REPLACE FUNCTION "session_version_notice_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_version', '*');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_version_notice_all" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_version_notice_all"();--> statement-breakpoint
CREATE TRIGGER "users_version_notice_all" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_version_notice_all"();
