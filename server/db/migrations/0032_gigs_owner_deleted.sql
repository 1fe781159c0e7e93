-- One rule for a lead for sale (issue 31, decision 0037): "its client's account is not deleted"
-- is read from the gig's own row, as "not suspended" is (owner_suspended, 0021), so that every
-- list that asks the rule keeps to the gigs' partial indexes instead of joining users. A trigger
-- keeps it true whenever an account is deleted (or, by an operator's hand, restored), and a gig
-- written for a deleted account starts out marked.
ALTER TABLE "gigs" ADD COLUMN "owner_deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "gigs" SET "owner_deleted" = true FROM "users" WHERE "users"."id" = "gigs"."consumer_id" AND "users"."deleted_at" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION users_sync_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gigs" SET "owner_deleted" = (NEW."deleted_at" IS NOT NULL)
    WHERE "consumer_id" = NEW."id" AND "owner_deleted" <> (NEW."deleted_at" IS NOT NULL);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_deletion_sync AFTER UPDATE OF "deleted_at" ON "users" FOR EACH ROW
  WHEN (OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at") EXECUTE FUNCTION users_sync_deletion();--> statement-breakpoint
CREATE FUNCTION gigs_owner_deleted_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."owner_deleted" := coalesce((SELECT "deleted_at" IS NOT NULL FROM "users" WHERE "id" = NEW."consumer_id"), false);
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER gigs_owner_deleted_on_insert BEFORE INSERT ON "gigs"
  FOR EACH ROW EXECUTE FUNCTION gigs_owner_deleted_on_insert();
