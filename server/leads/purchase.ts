/**
 * Buying a lead, in the spec's order (section 4): signed in, a digger, with a profile, not
 * bought yet; then a pending purchase at the server's price and a checkout session, and the
 * browser goes to pay. Nothing the browser sends decides the amount.
 */
import { and, eq } from "drizzle-orm";
import { data, redirect, type AppLoadContext } from "react-router";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { redirectWithFlash } from "../flash.ts";

export interface PurchaseResult {
  error: string;
}

const fail = (error: string, status: number) => data<PurchaseResult>({ error }, { status });

/** The digger profile id of a user, if they have one. */
export async function diggerIdOf(context: AppLoadContext, userId: string): Promise<string | null> {
  const [profile] = await context.services.db
    .select({ id: diggerProfiles.id })
    .from(diggerProfiles)
    .where(eq(diggerProfiles.userId, userId));
  return profile?.id ?? null;
}

/** Whether this digger holds a completed purchase of this gig. */
export async function hasPurchased(context: AppLoadContext, gigId: string, diggerId: string): Promise<boolean> {
  const [row] = await context.services.db
    .select({ id: leadPurchases.id })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.gigId, gigId), eq(leadPurchases.diggerId, diggerId), eq(leadPurchases.status, "completed")));
  return Boolean(row);
}

export async function startPurchase(context: AppLoadContext, gigId: string) {
  const { config, db, payments, logger } = context.services;
  const { user } = await context.session();
  const gigPath = `/gig/${gigId}`;
  if (!user) {
    return redirectWithFlash(config, `/auth?type=digger&redirect=${encodeURIComponent(gigPath)}`, "error", "Please sign in to purchase leads");
  }
  if (user.userType !== "digger") return fail("Only diggers can purchase leads", 403);
  const diggerId = await diggerIdOf(context, user.id);
  if (!diggerId) return redirectWithFlash(config, "/digger-registration", "error", "Please complete your digger profile first");
  if (!isUuid(gigId)) return redirectWithFlash(config, "/browse-gigs", "error", "Gig not found");
  if (await hasPurchased(context, gigId, diggerId)) return fail("You have already purchased this lead.", 409);

  const [gig] = await db
    .select({ id: gigs.id, title: gigs.title, status: gigs.status, budgetMinCents: gigs.budgetMinCents })
    .from(gigs)
    .where(eq(gigs.id, gigId));
  if (!gig) return redirectWithFlash(config, "/browse-gigs", "error", "Gig not found");
  if (gig.status !== "open") return fail("This gig is closed and its lead can no longer be purchased.", 409);

  const amountCents = leadPriceCents(gig.budgetMinCents);
  const [purchase] = await db
    .insert(leadPurchases)
    .values({ gigId, diggerId, amountPaidCents: amountCents, provider: payments.name, status: "pending" })
    .returning({ id: leadPurchases.id });
  const purchaseId = purchase!.id;
  const abandon = () => db.update(leadPurchases).set({ status: "cancelled" }).where(eq(leadPurchases.id, purchaseId));

  let session;
  try {
    session = await payments.createCheckout({
      purchaseId,
      gigId,
      diggerId,
      gigTitle: gig.title,
      amountCents,
      successUrl: `${config.publicUrl}${gigPath}?payment=success`,
      cancelUrl: `${config.publicUrl}${gigPath}?payment=cancelled`,
    });
  } catch (error) {
    logger.error({ err: error, purchaseId }, "creating a checkout session failed");
    await abandon();
    return fail("Failed to create checkout session", 502);
  }
  if (!session.url) {
    await abandon();
    return fail("No checkout URL returned", 502);
  }
  await db.update(leadPurchases).set({ providerSessionId: session.sessionId }).where(eq(leadPurchases.id, purchaseId));
  return redirect(session.url);
}
