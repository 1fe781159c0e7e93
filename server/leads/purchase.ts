/**
 * Buying a lead, in the spec's order (section 4): signed in, a digger, with a profile (the
 * access rule, `PURCHASE_ACCESS`), not bought yet, a free spot (the cap, docs/decisions/0019) and
 * no more open or lapsed checkouts than one digger may have (decision 0030); then
 * a pending purchase at the server's price, holding the spot, and a checkout session, and the
 * browser goes to pay. Nothing the browser sends decides the amount.
 */
import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { formatDateTime } from "#core/dates.ts";
import {
  LAPSE_WAIT_HOURS,
  LAPSE_WINDOW_HOURS,
  LAPSES_ALLOWED,
  lapsedWait,
  LEAD_FULL,
  MAX_LIVE_HOLDS,
  SPOTS_HELD,
  TOO_MANY_HOLDS,
} from "#core/lead-spots.ts";
import type { Database, Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { digger } from "../guards.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { gigNotFound, whyNotForSale } from "./for-sale.ts";
import { hasPurchased } from "./has-purchased.ts";
import { lapsed, liveHold } from "./spots.ts";

/** A second Buy while the first is still asking the payment provider for its checkout. */
export const CHECKOUT_BEING_CREATED = "Your checkout is being created. Please try again in a moment.";

/** Who may buy the lead of the gig in the address (`/gig/{id}`), and what everyone else is told. */
export const PURCHASE_ACCESS = digger((params) => ({
  signedOut: {
    message: "Please sign in to purchase leads",
    redirectTo: `/auth?type=digger&redirect=${encodeURIComponent(`/gig/${params.id ?? ""}`)}`,
  },
  // Answered on the gig's page with 403, not sent away: without a redirectTo the refusal stands
  // where it is (server/web/respond.ts).
  userType: { type: "digger", message: "Only diggers can purchase leads" },
  diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
}));

/**
 * Starts buying the lead of gig `gigId` for a digger who passed `PURCHASE_ACCESS`: a pending
 * purchase at the server's price and a checkout session; returns where the browser pays.
 */
export const startPurchase = defineOperation({
  access: PURCHASE_ACCESS,
  async run({ services, user, diggerId, params, form }): Promise<{ checkoutUrl: string }> {
    const gigId = params.id ?? "";
    const { config, db, payments } = services;
    if (form?.get("intent") !== "purchase") throw new AppError("invalid_input", "Unknown action");
    if (!isUuid(gigId)) throw gigNotFound();
    if (await hasPurchased(db, gigId, user.id)) throw new AppError("conflict", "You have already purchased this lead.");

    const held = await holdSpot(db, gigId, diggerId, payments.name);
    if (held.kind === "continue") return { checkoutUrl: held.checkoutUrl };
    const { purchaseId, gig } = held;
    const abandon = () => db.update(leadPurchases).set({ status: "cancelled" }).where(eq(leadPurchases.id, purchaseId));

    const gigPath = `/gig/${gigId}`;
    let session;
    try {
      session = await payments.createCheckout({
        purchaseId,
        gigId,
        diggerId,
        gigTitle: gig.title,
        amountCents: gig.amountCents,
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
    await db
      .update(leadPurchases)
      .set({ providerSessionId: session.sessionId, checkoutUrl: session.url })
      .where(eq(leadPurchases.id, purchaseId));
    return { checkoutUrl: session.url };
  },
});

/**
 * Takes a spot on the lead for digger `diggerId`: a pending purchase at the server's price,
 * which holds it for HOLD_MINUTES; or the checkout the digger already holds, to continue it.
 *
 * The digger's profile row is locked first, so that one digger's requests take their turn and
 * the count of their holds and lapses is still true at the insert (decision 0030: at most
 * MAX_LIVE_HOLDS live holds, and a wait after LAPSES_ALLOWED lapses). The gig's row is locked
 * next (as completing a checkout and closing the gig lock it), so the count of spots and the
 * insert are one step for every buyer of this gig: no overselling (decision 0019).
 */
type Held = { kind: "continue"; checkoutUrl: string } | { kind: "new"; purchaseId: string; gig: { title: string; amountCents: number } };

async function holdSpot(db: Database, gigId: string, diggerId: string, provider: "stripe" | "test"): Promise<Held> {
  return db.transaction(async (tx) => {
    await tx.select({ id: diggerProfiles.id }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId)).for("no key update");
    // The gig's row lock, in a statement of its own: the rule is read in the next one (for-sale.ts).
    const [gig] = await tx
      .select({ title: gigs.title, budgetMinCents: gigs.budgetMinCents })
      .from(gigs)
      .where(eq(gigs.id, gigId))
      .for("no key update");
    const why = gig ? await whyNotForSale(tx, gigId) : "gone";
    // A gig whose client has not confirmed their e-mail, deleted it or their account, or that an
    // operator took down, is not for sale: as if it did not exist.
    if (!gig || why === "gone") throw gigNotFound();
    if (why === "closed") throw new AppError("conflict", "This gig is closed and its lead can no longer be purchased.");

    const [mine] = await tx
      .select({ checkoutUrl: leadPurchases.checkoutUrl })
      .from(leadPurchases)
      .where(and(eq(leadPurchases.gigId, gigId), eq(leadPurchases.diggerId, diggerId), liveHold()));
    if (mine) {
      // A second Buy continues the checkout that already holds this digger's spot.
      if (mine.checkoutUrl) return { kind: "continue", checkoutUrl: mine.checkoutUrl };
      throw new AppError("conflict", CHECKOUT_BEING_CREATED);
    }
    if (why === "full") throw new AppError("conflict", LEAD_FULL);
    await checkDiggerMayHold(tx, diggerId);
    if (why === "held") throw new AppError("conflict", SPOTS_HELD);

    const amountCents = leadPriceCents(gig.budgetMinCents);
    const [purchase] = await tx
      .insert(leadPurchases)
      .values({ gigId, diggerId, amountPaidCents: amountCents, provider, status: "pending" })
      .returning({ id: leadPurchases.id });
    return { kind: "new", purchaseId: purchase!.id, gig: { title: gig.title, amountCents } };
  });
}

/**
 * What one digger may hold (decision 0030), under their profile's row lock: no more than
 * MAX_LIVE_HOLDS live checkouts, and none for LAPSE_WAIT_HOURS after their LAPSES_ALLOWED-th
 * lapse within LAPSE_WINDOW_HOURS. A lapse counts when its checkout started, the one time a
 * purchase row keeps.
 */
async function checkDiggerMayHold(tx: Transaction, diggerId: string): Promise<void> {
  const [live] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(leadPurchases)
    .where(and(eq(leadPurchases.diggerId, diggerId), liveHold()));
  if ((live?.n ?? 0) >= MAX_LIVE_HOLDS) throw new AppError("conflict", TOO_MANY_HOLDS);

  const lapses = tx
    .select({
      startedAt: leadPurchases.createdAt,
      // The start of the lapse LAPSES_ALLOWED - 1 before this one.
      earlier: sql<Date | null>`lag(${leadPurchases.createdAt}, ${LAPSES_ALLOWED - 1}) over (order by ${leadPurchases.createdAt})`.as("earlier"),
    })
    .from(leadPurchases)
    .where(
      and(
        eq(leadPurchases.diggerId, diggerId),
        lapsed(),
        sql`${leadPurchases.createdAt} > now() - make_interval(hours => ${LAPSE_WINDOW_HOURS + LAPSE_WAIT_HOURS})`,
      ),
    )
    .as("lapses");
  const [wait] = await tx
    .select({ until: sql<string | Date | null>`max(${lapses.startedAt}) + make_interval(hours => ${LAPSE_WAIT_HOURS})` })
    .from(lapses)
    .where(sql`${lapses.earlier} > ${lapses.startedAt} - make_interval(hours => ${LAPSE_WINDOW_HOURS})`)
    .having(sql`max(${lapses.startedAt}) + make_interval(hours => ${LAPSE_WAIT_HOURS}) > now()`);
  if (wait?.until) throw new AppError("conflict", lapsedWait(formatDateTime(wait.until)));
}
