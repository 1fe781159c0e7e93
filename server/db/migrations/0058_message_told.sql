-- A sent message's recipient is told of it by a job after the send commits (issue 52, decision
-- 0078): the push to their devices and the 5-minute notice's scheduling. `told_at` is that job's
-- claim, set once in the statement that reads the message, so a job run twice tells once.
-- Nullable with no default: adding it rewrites nothing.
ALTER TABLE "messages" ADD COLUMN "told_at" timestamp with time zone;
