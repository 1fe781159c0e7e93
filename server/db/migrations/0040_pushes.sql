-- Batched push delivery (issue 35, decision 0052): one row per push to one device, made with its
-- `push.send` job in the event's transaction and deleted once the push service took it, so a
-- re-run of the job sends nothing twice. A delivery holds the row for a minute
-- (`sending_until`): two runs of the same job at once send it once. It goes with its device.
CREATE TABLE "pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"urgency" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sending_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pushes_urgency_check" CHECK ("urgency" in ('high', 'normal'))
);
--> statement-breakpoint
ALTER TABLE "pushes" ADD CONSTRAINT "pushes_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "pushes_subscription_idx" ON "pushes" USING btree ("subscription_id");
--> statement-breakpoint
CREATE INDEX "pushes_created_idx" ON "pushes" USING btree ("created_at");
