/**
 * Buying a lead, in the spec's order (section 4): signed in, a digger, with a profile (the
 * access rule, `PURCHASE_ACCESS`), not bought yet, a confirmed e-mail, a free spot (the cap,
 * docs/decisions/0019), no more open or lapsed checkouts than one digger may have, and for a new
 * account no more live holds of new accounts on its network than allowed (decision 0030), not
 * paused by the reply guarantee (issue 48); then
 * a pending purchase at the server's price, holding the spot, and a checkout session, and the
 * browser goes to pay. Nothing the browser sends decides the amount.
 */
import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "#core/ids.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import { GUARANTEE_TEXTS } from "#core/reply-guarantee.ts";
import {
  CONFIRM_EMAIL_TO_BUY,
  GIG_HIRED,
  LAPSE_WAIT_HOURS,
  LAPSE_WINDOW_HOURS,
  LAPSES_ALLOWED,
  lapsedWait,
  LEAD_FULL,
  MAX_LIVE_HOLDS,
  MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK,
  NETWORK_HOLDS_FULL,
  SPOTS_HELD,
  TOO_MANY_HOLDS,
} from "#core/lead-spots.ts";
import type { Database, Transaction } from "../db/client.ts";
import { diggerProfiles, gigs, leadPurchases } from "../db/schema.ts";
import { digger, withRequest } from "../guards.ts";
import { AppError } from "../errors.ts";
import { defineOperation } from "../operation.ts";
import { gigNotFound, whyNotForSale } from "./for-sale.ts";
import { hasPurchased } from "./has-purchased.ts";
import { networkCapsApply, networkOf } from "../security/network.ts";
import { isEmailConfirmed } from "../sign-in/confirm-email.ts";
import { lapsed, liveHold, liveNewAccountHolds, newAccount } from "./spots.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";

/** A second Buy while the first is still asking the payment provider for its checkout. */
const CHECKOUT_BEING_CREATED = "Your checkout is being created. Please try again in a moment.";

/** Who may buy the lead of the gig in the address (`/gig/{id}`), and what everyone else is told. */
const PURCHASE_ACCESS = withRequest(digger((params) => ({
  signedOut: {
    message: "Please sign in to purchase leads",
    redirectTo: `/auth?type=digger&redirect=${encodeURIComponent(`/gig/${params.id ?? ""}`)}`,
  },
  // Answered on the gig's page with 403, not sent away: without a redirectTo the refusal stands
  // where it is (server/web/respond.ts).
  userType: { type: "digger", message: "Only diggers can purchase leads" },
  diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
})));

/**
 * Starts buying the lead of gig `gigId` for a digger who passed `PURCHASE_ACCESS`: a pending
 * purchase at the server's price and a checkout session; returns where the browser pays.
 */
export const startPurchase = defineOperation({
  access: PURCHASE_ACCESS,
  async run({ services, user, diggerId, clientIp, params }): Promise<{ checkoutUrl: string }> {
    const gigId = params.id ?? "";
    const { config, db, payments } = services;
    if (!isUuid(gigId)) throw gigNotFound();
    if (await hasPurchased(db, gigId, user.id)) throw new AppError("conflict", "You have already purchased this lead.");
    // Each account that holds a spot costs a confirmed mailbox (issue 45): checked before any hold.
    if (!(await isEmailConfirmed(db, user.id))) throw new AppError("forbidden", CONFIRM_EMAIL_TO_BUY);

    const network = { name: networkOf(clientIp), capped: networkCapsApply(config, clientIp) };
    const held = await holdSpot(db, gigId, diggerId, payments.name, network, readerTime(user.timeZone, config));
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
 * insert are one step for every buyer of this gig: no overselling (decision 0019). A new
 * account's hold takes its network's lock last (`checkNetworkMayHold`). Lock order: profile, gig,
 * network; nothing takes them the other way.
 */
type Held = { kind: "continue"; checkoutUrl: string } | { kind: "new"; purchaseId: string; gig: { title: string; amountCents: number } };

async function holdSpot(
  db: Database,
  gigId: string,
  diggerId: string,
  provider: "stripe" | "test",
  network: { name: string; capped: boolean },
  /** The buyer's times: a wait's end is told in their zone (issue 47). */
  time: ReaderTime,
): Promise<Held> {
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
    if (why === "hired") throw new AppError("conflict", GIG_HIRED);
    // Its client opened none of its threads after the guarantee's wait (issue 48): not sold until they do.
    if (why === "paused") throw new AppError("conflict", GUARANTEE_TEXTS.paused);

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
    await checkDiggerMayHold(tx, diggerId, time);
    if (why === "held") throw new AppError("conflict", SPOTS_HELD);
    if (network.capped) await checkNetworkMayHold(tx, diggerId, network.name);

    const amountCents = leadPriceCents(gig.budgetMinCents);
    const [purchase] = await tx
      .insert(leadPurchases)
      .values({ gigId, diggerId, amountPaidCents: amountCents, provider, status: "pending", network: network.name })
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
async function checkDiggerMayHold(tx: Transaction, diggerId: string, time: ReaderTime): Promise<void> {
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
  if (wait?.until) throw new AppError("conflict", lapsedWait(time.dateTime(wait.until)));
}

/**
 * What new accounts on one network may hold together (issue 45): a new account (`newAccount`)
 * takes no hold when MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK live holds of new accounts were started
 * from its network. The count is made under a transaction-level advisory lock on the network,
 * taken after the gig's row lock, so that concurrent checkouts from one network on different
 * gigs (which lock different gig and profile rows) count each other: servers on one database
 * share the lock. Keyed (namespace, hash of the network): a hash collision only makes two
 * networks take turns.
 */
async function checkNetworkMayHold(tx: Transaction, diggerId: string, network: string): Promise<void> {
  const [digger] = await tx.select({ isNew: newAccount(sql`${diggerId}::uuid`) }).from(diggerProfiles).where(eq(diggerProfiles.id, diggerId));
  if (!digger?.isNew) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${NETWORK_LOCK_NAMESPACE}, hashtext(${network}))`);
  if ((await liveNewAccountHolds(tx, network)) >= MAX_NEW_ACCOUNT_HOLDS_PER_NETWORK) {
    throw new AppError("conflict", NETWORK_HOLDS_FULL);
  }
}

/** The advisory locks' first key for networks' holds (the two-key space; the migration lock uses the one-key space). */
const NETWORK_LOCK_NAMESPACE = 4502;
