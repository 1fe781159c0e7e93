/**
 * The built-in test checkout's page (design.md section 5): only with the test provider, only
 * for the digger whose pending purchase it is. Pay runs the same fulfilment as a webhook.
 */
import { and, eq } from "drizzle-orm";
import { data, redirect, type AppLoadContext } from "react-router";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { completeCheckout, endCheckout } from "./fulfilment.ts";

async function findCheckout(context: AppLoadContext, sessionId: string) {
  const notFound = () => data(null, { status: 404 });
  if (context.services.payments.name !== "test") throw notFound();
  const { user } = await context.session();
  if (!user) throw notFound();
  const [row] = await context.services.db
    .select({ gigId: gigs.id, gigTitle: gigs.title, amountCents: leadPurchases.amountPaidCents, status: leadPurchases.status })
    .from(leadPurchases)
    .innerJoin(gigs, eq(gigs.id, leadPurchases.gigId))
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, leadPurchases.diggerId))
    .where(and(eq(leadPurchases.providerSessionId, sessionId), eq(diggerProfiles.userId, user.id)));
  if (!row) throw notFound();
  return row;
}

export async function loadTestCheckout(context: AppLoadContext, sessionId: string) {
  const checkout = await findCheckout(context, sessionId);
  if (checkout.status !== "pending") throw redirect(`/gig/${checkout.gigId}`);
  return checkout;
}

export async function submitTestCheckout(context: AppLoadContext, request: Request, sessionId: string) {
  const checkout = await findCheckout(context, sessionId);
  if (checkout.status !== "pending") return redirect(`/gig/${checkout.gigId}`);
  const choice = (await request.formData()).get("intent");
  if (choice === "pay") {
    await completeCheckout(context.services, sessionId, null);
    return redirect(`/gig/${checkout.gigId}?payment=success`);
  }
  await endCheckout(context.services, sessionId);
  return redirect(`/gig/${checkout.gigId}?payment=cancelled`);
}
