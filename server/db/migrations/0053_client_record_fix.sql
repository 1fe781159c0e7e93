-- The client's record (migration 0052) counted a gig's purchases and hire only when the gig was
-- updated: a gig inserted already bought (the demo seed's past work, a bulk load) was never
-- counted bought, and its hire, which updates the gig, then counted a hired gig anyway (the demo
-- client read 'Hired on 17 of 2 gigs'). The same function now counts an insert too (OLD is null:
-- nothing before it), through a second trigger that fires only for a gig inserted bought, and the
-- records' gig figures are recounted from the gigs.
CREATE OR REPLACE FUNCTION "gigs_client_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "updated" boolean := TG_OP = 'UPDATE';
  "bought" integer := CASE WHEN NEW."purchase_count" > 0 THEN 1 ELSE 0 END
    - CASE WHEN "updated" AND OLD."purchase_count" > 0 THEN 1 ELSE 0 END;
  "hired" integer := CASE WHEN NEW."purchase_count" > 0 AND NEW."hired" THEN 1 ELSE 0 END
    - CASE WHEN "updated" AND OLD."purchase_count" > 0 AND OLD."hired" THEN 1 ELSE 0 END;
BEGIN
  IF "bought" <> 0 OR "hired" <> 0 THEN
    INSERT INTO "client_records" ("client_id", "gigs_bought", "gigs_hired") VALUES (NEW."consumer_id", greatest("bought", 0), greatest("hired", 0))
      ON CONFLICT ("client_id") DO UPDATE SET
        "gigs_bought" = "client_records"."gigs_bought" + "bought",
        "gigs_hired" = "client_records"."gigs_hired" + "hired";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "gigs_client_record_insert" AFTER INSERT ON "gigs" FOR EACH ROW WHEN (NEW."purchase_count" > 0) EXECUTE FUNCTION "gigs_client_record"();--> statement-breakpoint
INSERT INTO "client_records" ("client_id", "gigs_bought", "gigs_hired")
  SELECT "consumer_id", count(*), count(*) FILTER (WHERE "hired") FROM "gigs" WHERE "purchase_count" > 0 GROUP BY "consumer_id"
  ON CONFLICT ("client_id") DO UPDATE SET "gigs_bought" = excluded."gigs_bought", "gigs_hired" = excluded."gigs_hired";--> statement-breakpoint
UPDATE "client_records" SET "gigs_bought" = 0, "gigs_hired" = 0
  WHERE ("gigs_bought" <> 0 OR "gigs_hired" <> 0)
    AND NOT EXISTS (SELECT 1 FROM "gigs" WHERE "gigs"."consumer_id" = "client_records"."client_id" AND "gigs"."purchase_count" > 0);
