-- Site visits booked in the thread (issue 50, docs/decisions/0076-site-visits.md): the digger
-- proposes one to three times, the client books one; both get a calendar invitation and
-- reminders; after the window each side says how it went, and kept and missed visits become
-- each side's 'Kept {k} of {n} visits'.
--
-- A proposal: one to three options, written in the digger's zone (`zone`), shown to the client
-- in theirs. It sits in the thread's one list by (created_at, seq), as quotes do (migration
-- 0045). `visit_id`: new times for a booked visit (Reschedule); null for a new visit. One open
-- proposal per thread: a new one replaces it ('replaced').
CREATE TABLE "visit_proposals" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "thread_id" uuid NOT NULL REFERENCES "threads"("id") ON DELETE CASCADE,
  "visit_id" uuid,
  "note" text,
  "zone" text NOT NULL,
  "status" text DEFAULT 'open' NOT NULL,
  "booked_position" smallint,
  "decided_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "seq" bigint DEFAULT nextval('messages_seq_seq'::regclass) NOT NULL,
  CONSTRAINT "visit_proposals_status_check" CHECK ("status" in ('open', 'booked', 'replaced', 'other_times', 'withdrawn')),
  CONSTRAINT "visit_proposals_note_check" CHECK ("note" is null or char_length("note") between 1 and 500),
  CONSTRAINT "visit_proposals_booked_check" CHECK (("status" = 'booked') = ("booked_position" is not null))
);--> statement-breakpoint
CREATE UNIQUE INDEX "visit_proposals_one_open_key" ON "visit_proposals" USING btree ("thread_id") WHERE "status" = 'open';--> statement-breakpoint
CREATE INDEX "visit_proposals_thread_idx" ON "visit_proposals" USING btree ("thread_id", "created_at" DESC, "seq" DESC);--> statement-breakpoint
--
-- A proposal's options, in the order written: a start and an arrival window (0: exact).
CREATE TABLE "visit_options" (
  "proposal_id" uuid NOT NULL REFERENCES "visit_proposals"("id") ON DELETE CASCADE,
  "position" smallint NOT NULL,
  "starts_at" timestamp with time zone NOT NULL,
  "window_minutes" smallint NOT NULL,
  CONSTRAINT "visit_options_pkey" PRIMARY KEY ("proposal_id", "position"),
  CONSTRAINT "visit_options_position_check" CHECK ("position" between 0 and 2),
  CONSTRAINT "visit_options_window_check" CHECK ("window_minutes" in (0, 60, 120, 240))
);--> statement-breakpoint
--
-- A booked visit: its UID in calendars is its id, `sequence` counts its changes (iCalendar's
-- SEQUENCE), `proposal_id` is the proposal booked last. Cancelled by a party (with a reason,
-- 'Late cancellation' within 24 hours of the window) or by the system (a suspension, a block).
-- After the window each side may mark it once: the digger 'visited' or 'client_absent', the
-- client 'digger_absent'.
CREATE TABLE "visits" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "thread_id" uuid NOT NULL REFERENCES "threads"("id") ON DELETE CASCADE,
  "digger_user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "client_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "proposal_id" uuid NOT NULL REFERENCES "visit_proposals"("id") ON DELETE CASCADE,
  "starts_at" timestamp with time zone NOT NULL,
  "window_minutes" smallint NOT NULL,
  "ends_at" timestamp with time zone NOT NULL,
  "sequence" integer DEFAULT 0 NOT NULL,
  "status" text DEFAULT 'booked' NOT NULL,
  "cancelled_by" text,
  "cancel_reason" text,
  "cancelled_at" timestamp with time zone,
  "late_cancellation" boolean DEFAULT false NOT NULL,
  "client_confirmed_at" timestamp with time zone,
  "change_requested_at" timestamp with time zone,
  "digger_outcome" text,
  "digger_marked_at" timestamp with time zone,
  "client_outcome" text,
  "client_marked_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "visits_status_check" CHECK ("status" in ('booked', 'cancelled')),
  CONSTRAINT "visits_window_check" CHECK ("window_minutes" in (0, 60, 120, 240) and "ends_at" >= "starts_at"),
  CONSTRAINT "visits_cancel_check" CHECK (("status" = 'cancelled') = ("cancelled_at" is not null and "cancelled_by" is not null)),
  CONSTRAINT "visits_cancelled_by_check" CHECK ("cancelled_by" is null or "cancelled_by" in ('digger', 'client', 'system')),
  CONSTRAINT "visits_cancel_reason_check" CHECK ("cancel_reason" is null or char_length("cancel_reason") <= 200),
  CONSTRAINT "visits_late_check" CHECK (not "late_cancellation" or "cancelled_by" in ('digger', 'client')),
  CONSTRAINT "visits_digger_outcome_check" CHECK ("digger_outcome" is null or ("digger_outcome" in ('visited', 'client_absent') and "digger_marked_at" is not null and "status" = 'booked')),
  CONSTRAINT "visits_client_outcome_check" CHECK ("client_outcome" is null or ("client_outcome" = 'digger_absent' and "client_marked_at" is not null and "status" = 'booked'))
);--> statement-breakpoint
ALTER TABLE "visit_proposals" ADD CONSTRAINT "visit_proposals_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "visits"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "visits_proposal_key" ON "visits" USING btree ("proposal_id");--> statement-breakpoint
-- A visit's parties are its thread's, which the database keeps: the key below names them together.
CREATE UNIQUE INDEX "threads_parties_key" ON "threads" USING btree ("id", "digger_user_id", "client_id");--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_thread_parties_fk" FOREIGN KEY ("thread_id", "digger_user_id", "client_id") REFERENCES "threads"("id", "digger_user_id", "client_id") ON DELETE CASCADE ON UPDATE CASCADE;--> statement-breakpoint
CREATE INDEX "visits_thread_idx" ON "visits" USING btree ("thread_id", "starts_at");--> statement-breakpoint
CREATE INDEX "visits_digger_idx" ON "visits" USING btree ("digger_user_id", "starts_at", "id");--> statement-breakpoint
CREATE INDEX "visits_client_idx" ON "visits" USING btree ("client_id", "starts_at", "id");--> statement-breakpoint
--
-- Each booked visit's two reminders (24 hours and 2 hours before the window opens), kept by the
-- trigger below: written at booking, moved with the visit (sent_at cleared), deleted when it is
-- cancelled; none when its time has already passed. A reminder job sends a row only if it is
-- still due at the time the job was started for, and marks it sent in the same statement:
-- exactly once across servers.
CREATE TABLE "visit_reminders" (
  "visit_id" uuid NOT NULL REFERENCES "visits"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "due_at" timestamp with time zone NOT NULL,
  "sent_at" timestamp with time zone,
  CONSTRAINT "visit_reminders_pkey" PRIMARY KEY ("visit_id", "kind"),
  CONSTRAINT "visit_reminders_kind_check" CHECK ("kind" in ('day', 'hours'))
);--> statement-breakpoint
CREATE INDEX "visit_reminders_due_idx" ON "visit_reminders" USING btree ("due_at") WHERE "sent_at" is null;--> statement-breakpoint
CREATE FUNCTION "visit_reminders_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'booked' THEN
    DELETE FROM visit_reminders WHERE visit_id = NEW.id;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.starts_at = NEW.starts_at THEN
    RETURN NEW;
  END IF;
  DELETE FROM visit_reminders WHERE visit_id = NEW.id;
  INSERT INTO visit_reminders (visit_id, kind, due_at)
  SELECT NEW.id, r.kind, NEW.starts_at - r.ahead
  FROM (VALUES ('day', interval '24 hours'), ('hours', interval '2 hours')) AS r(kind, ahead)
  WHERE NEW.starts_at - r.ahead > now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "visit_reminders_keep" AFTER INSERT OR UPDATE OF "status", "starts_at" ON "visits" FOR EACH ROW EXECUTE FUNCTION "visit_reminders_keep"();--> statement-breakpoint
--
-- Each person's kept and counted visits, as a digger and as a client, derived by the database
-- (the trigger below) for profiles, Browse Talent and the client's record: 'Kept {k} of {n}
-- visits' from n >= 3. For the digger a visit is missed when the client marked 'Digger did not
-- come' or the digger cancelled late, kept when the digger marked it 'Visited' or 'Client was
-- not there'; for the client, missed when the digger marked 'Client was not there' or the
-- client cancelled late, kept when marked 'Visited' or 'Digger did not come'. A visit both sides
-- marked in contradiction (the digger came, the client says not) counts in neither figure.
CREATE TABLE "visit_records" (
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "role" text NOT NULL,
  "kept" integer DEFAULT 0 NOT NULL,
  "counted" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "visit_records_pkey" PRIMARY KEY ("user_id", "role"),
  CONSTRAINT "visit_records_role_check" CHECK ("role" in ('digger', 'client')),
  CONSTRAINT "visit_records_counts_check" CHECK ("kept" between 0 and "counted")
);--> statement-breakpoint
-- One person's figures are counted under a transaction-level advisory lock of their own: two
-- visits of one person changed at once count one after the other, each seeing the other's
-- committed change (a plpgsql statement after the lock takes a new snapshot).
CREATE FUNCTION "visit_records_refresh"(who text, as_role text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('visit_records'), hashtext(who || ':' || as_role));
  WITH marked AS (
    SELECT v.*, (v.digger_outcome IS NOT NULL AND v.client_outcome = 'digger_absent') AS contradicted
    FROM visits v
    WHERE (as_role = 'digger' AND v.digger_user_id = who) OR (as_role = 'client' AND v.client_id = who)
  ), judged AS (
    SELECT CASE
      WHEN contradicted THEN NULL
      WHEN as_role = 'digger' AND ((status = 'cancelled' AND late_cancellation AND cancelled_by = 'digger') OR client_outcome = 'digger_absent') THEN false
      WHEN as_role = 'digger' AND digger_outcome IN ('visited', 'client_absent') THEN true
      WHEN as_role = 'client' AND ((status = 'cancelled' AND late_cancellation AND cancelled_by = 'client') OR digger_outcome = 'client_absent') THEN false
      WHEN as_role = 'client' AND (digger_outcome = 'visited' OR client_outcome = 'digger_absent') THEN true
    END AS kept
    FROM marked
  )
  INSERT INTO visit_records (user_id, role, kept, counted)
  SELECT who, as_role, count(*) FILTER (WHERE kept), count(kept) FROM judged
  -- Not for an account being deleted (its visits go with it).
  HAVING EXISTS (SELECT 1 FROM users WHERE users.id = who)
  ON CONFLICT (user_id, role) DO UPDATE SET kept = excluded.kept, counted = excluded.counted;
END $$;--> statement-breakpoint
CREATE FUNCTION "visit_records_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The parties of a visit never change (see visits_thread_parties_fk): an update refreshes each once.
  IF TG_OP = 'DELETE' THEN
    PERFORM visit_records_refresh(OLD.digger_user_id, 'digger');
    PERFORM visit_records_refresh(OLD.client_id, 'client');
  ELSE
    PERFORM visit_records_refresh(NEW.digger_user_id, 'digger');
    PERFORM visit_records_refresh(NEW.client_id, 'client');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "visit_records_keep" AFTER INSERT OR DELETE OR UPDATE OF "status", "late_cancellation", "cancelled_by", "digger_outcome", "client_outcome" ON "visits" FOR EACH ROW EXECUTE FUNCTION "visit_records_keep"();--> statement-breakpoint
--
-- How to reach me's new row, 'Visits' (reminders and the other party's changes).
ALTER TABLE "reach_preferences" DROP CONSTRAINT "reach_preferences_group_check";--> statement-breakpoint
ALTER TABLE "reach_preferences" ADD CONSTRAINT "reach_preferences_group_check" CHECK ("group" in ('messages', 'quotes', 'visits', 'lead-alerts', 'purchases', 'account'));--> statement-breakpoint
--
-- An e-mail's calendar part (an invitation's .ics, sent as text/calendar with its METHOD), kept
-- with the e-mail for the delivery and for /dev/mail.
ALTER TABLE "emails" ADD COLUMN "calendar_method" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "calendar" text;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_calendar_check" CHECK (("calendar" is null) = ("calendar_method" is null) and ("calendar_method" is null or "calendar_method" in ('REQUEST', 'CANCEL')));
