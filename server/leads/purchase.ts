/**
 * Buying a lead, in the spec's order (section 4): signed in, a digger, with a profile (the
 * guards, `purchaseAccess`), not bought yet; then a pending purchase at the server's price
 * and a checkout session, and the browser goes to pay. Nothing the browser sends decides the
 * amount.
 */
import { eq } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { gigs, leadPurchases } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { gigNotFound } from "../gigs/gig-page.ts";
import type { AppServices } from "../services.ts";
import { hasPurchased } from "./has-purchased.ts";

/** Who may buy the lead of the gig `gigId`, and what everyone else is told. */
export function purchaseAccess(gigId: string) {
  return {
    signedOut: {
      message: "Please sign in to purchase leads",
      redirectTo: `/auth?type=digger&redirect=${encodeURIComponent(`/gig/${gigId}`)}`,
    },
    // Answered on the gig's page with 403, not sent away: guards.ts asks for a redirectTo, and an
    // empty one is none (server/web/respond.ts).
    userType: { type: "digger", message: "Only diggers can purchase leads" },
    diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
  } as const;
}

/**
 * Starts buying the lead of gig `gigId` for a digger who passed `purchaseAccess`: a pending
 * purchase at the server's price and a checkout session; returns where the browser pays.
 */
export async function startPurchase(
  services: Pick<AppServices, "config" | "db" | "payments">,
  buyer: { user: { id: string }; diggerId: string },
  gigId: string,
  form: FormData,
): Promise<{ checkoutUrl: string }> {
  const { config, db, payments } = services;
  if (form.get("intent") !== "purchase") throw new AppError("invalid_input", "Unknown action");
  if (!isUuid(gigId)) throw gigNotFound();
  if (await hasPurchased(db, gigId, buyer.user.id)) throw new AppError("conflict", "You have already purchased this lead.");

  const [gig] = await db
    .select({ id: gigs.id, title: gigs.title, status: gigs.status, published: gigs.published, budgetMinCents: gigs.budgetMinCents })
    .from(gigs)
    .where(eq(gigs.id, gigId));
  // A gig whose client has not confirmed their e-mail is not for sale: as if it did not exist.
  if (!gig?.published) throw gigNotFound();
  if (gig.status !== "open") throw new AppError("conflict", "This gig is closed and its lead can no longer be purchased.");

  const { diggerId } = buyer;
  const amountCents = leadPriceCents(gig.budgetMinCents);
  const [purchase] = await db
    .insert(leadPurchases)
    .values({ gigId, diggerId, amountPaidCents: amountCents, provider: payments.name, status: "pending" })
    .returning({ id: leadPurchases.id });
  const purchaseId = purchase!.id;
  const abandon = () => db.update(leadPurchases).set({ status: "cancelled" }).where(eq(leadPurchases.id, purchaseId));

  const gigPath = `/gig/${gigId}`;
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
    await abandon();
    throw new AppError("failed", "Failed to create checkout session", { status: 502, cause: error });
  }
  if (!session.url) {
    await abandon();
    throw new AppError("failed", "No checkout URL returned", { status: 502 });
  }
  await db.update(leadPurchases).set({ providerSessionId: session.sessionId }).where(eq(leadPurchases.id, purchaseId));
  return { checkoutUrl: session.url };
}
