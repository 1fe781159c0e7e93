-- Issue 45, finding 2 (decision 0030, amended): live holds of new accounts are capped per
-- network (an IPv4 /24, an IPv6 /64). Each checkout records the network of the client that
-- started it (server/security/network.ts `networkOf`); older rows have none and count nowhere.
-- The count, under a lock per network in the transaction that takes the hold, reads the live
-- holds of one network through the partial index, as lead_purchases_hold_idx does for a gig.
ALTER TABLE "lead_purchases" ADD COLUMN "network" text;--> statement-breakpoint
CREATE INDEX "lead_purchases_network_hold_idx" ON "lead_purchases" USING btree ("network","created_at") WHERE "lead_purchases"."status" = 'pending' and "lead_purchases"."network" is not null;
