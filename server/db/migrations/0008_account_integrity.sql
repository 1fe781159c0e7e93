ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
-- The account type is chosen once, at sign-up: no statement, from any endpoint, may change it.
CREATE FUNCTION "users_user_type_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_type IS DISTINCT FROM OLD.user_type THEN
    RAISE EXCEPTION 'the account type cannot be changed' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_user_type_immutable" BEFORE UPDATE OF "user_type" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_user_type_immutable"();
