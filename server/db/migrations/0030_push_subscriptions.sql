-- Web Push (issue 34): one row per device (browser) a user turned notifications on for. It
-- belongs to the session that made it, so it goes with that session (sign-out, revocation,
-- suspension, deletion) and with the account; the push job deletes it when the push service
-- answers 404 or 410. The endpoint is the device's: it is unique, and a device turned on
-- again (or by another account signed in on it) takes the row over.
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"session_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"device" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id","created_at");
--> statement-breakpoint
-- At most 10 devices per user, counted under a lock on the user's row so that two devices
-- turned on at once cannot both pass 9. A device already on (its endpoint) is not counted
-- again when it is turned on anew. The error names the limit as its constraint
-- (server/push/devices.ts turns it into the person's message).
CREATE FUNCTION "push_subscriptions_per_user_limit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "users" WHERE "id" = NEW."user_id" FOR UPDATE;
  IF (SELECT count(*) FROM "push_subscriptions" WHERE "user_id" = NEW."user_id" AND "endpoint" <> NEW."endpoint") >= 10 THEN
    RAISE EXCEPTION 'at most 10 devices per user' USING ERRCODE = 'check_violation', CONSTRAINT = 'push_subscriptions_per_user_limit';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "push_subscriptions_per_user_limit" BEFORE INSERT OR UPDATE OF "user_id" ON "push_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "push_subscriptions_per_user_limit"();
