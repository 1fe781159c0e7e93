-- How to reach me (issue 34; docs/decisions/0046-how-to-reach-me.md): each user's E-mail and
-- Push choice per group of events. No row: both on. 'E-mail me about new messages'
-- (users.message_email, migration 0033) moves onto the 'messages' row's E-mail choice.
CREATE TABLE "reach_preferences" (
	"user_id" text NOT NULL,
	"group" text NOT NULL,
	"email" boolean DEFAULT true NOT NULL,
	"push" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reach_preferences_user_id_group_pk" PRIMARY KEY("user_id","group"),
	CONSTRAINT "reach_preferences_group_check" CHECK ("reach_preferences"."group" in ('messages', 'quotes', 'lead-alerts', 'purchases', 'account'))
);
--> statement-breakpoint
ALTER TABLE "reach_preferences" ADD CONSTRAINT "reach_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "reach_preferences" ("user_id", "group", "email", "push") SELECT "id", 'messages', false, true FROM "users" WHERE "message_email" = false;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "message_email";
