/**
 * Seeding. The category taxonomy is upserted on every start (idempotent, by slug). Demo data
 * (accounts, digger profiles, open gigs, past work with hires and reviews, site visits) goes only into a database that has no users yet, in
 * one transaction, so a half-seeded database cannot exist.
 */
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { count, eq, sql } from "drizzle-orm";
import { refundCents } from "#core/lead-issues.ts";
import { leadPriceCents } from "#core/lead-price.ts";
import type { Database, Transaction } from "../client.ts";
import {
  accounts,
  categories,
  diggerCategories,
  diggerProfiles,
  diggerReferences,
  gigs,
  hires,
  leadIssues,
  leadPurchases,
  messages,
  phoneVerifications,
  refunds,
  reviews,
  threads,
  users,
} from "../schema.ts";
import { demoClients, demoDiggers, demoGigs } from "./demo-data.ts";
import { pastClientReviews, seedClientReview } from "./demo-client-reviews.ts";
import { pastLeads } from "./demo-reviews.ts";
import { seedDemoVisits } from "./demo-visits.ts";
import { taxonomy } from "./taxonomy.ts";

/** The demo accounts named in the README. */
export const DEMO_PASSWORD = "digsandgigs-demo";
export const DEMO_CLIENT = { email: "consumer@example.com", fullName: "Casey Consumer" } as const;
export const DEMO_DIGGER = { email: "digger@example.com", fullName: "Dana Digger" } as const;
/** Local mode only: the operator console's demo account (issue 22); production grants the role by command. */
export const DEMO_OPERATOR = { email: "operator@example.com", fullName: "Olivia Operator" } as const;

export async function seedCategories(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const top of taxonomy) {
      const [parent] = await tx
        .insert(categories)
        .values({ slug: top.slug, name: top.name, description: top.description })
        .onConflictDoUpdate({
          target: categories.slug,
          set: { name: top.name, description: top.description, parentCategoryId: null },
        })
        .returning({ id: categories.id });
      await tx
        .insert(categories)
        .values(top.children.map((c) => ({ ...c, parentCategoryId: parent!.id })))
        .onConflictDoUpdate({
          target: categories.slug,
          set: {
            name: sql`excluded.name`,
            description: sql`excluded.description`,
            parentCategoryId: sql`excluded.parent_category_id`,
          },
        });
    }
  });
}

/** Returns false, doing nothing, when the database already has users. */
export async function seedDemoData(db: Database, now = new Date()): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(users);
    if (existing!.n > 0) return false;

    const categoryIds = new Map(
      (await tx.select({ id: categories.id, slug: categories.slug }).from(categories)).map((c) => [c.slug, c.id]),
    );
    const categoryId = (slug: string) => {
      const id = categoryIds.get(slug);
      if (!id) throw new Error(`Demo data names an unknown category: ${slug}`);
      return id;
    };

    // The first demo client and the first demo digger are the accounts one can sign in as.
    const clientIds: string[] = [];
    for (const [i, c] of demoClients.entries()) {
      const person = i === 0 ? DEMO_CLIENT : c;
      clientIds.push(await insertUser(tx, person, "consumer", i === 0 ? passwordHash : null));
    }
    const diggerIds: string[] = [];
    for (const [i, d] of demoDiggers.entries()) {
      const person = i === 0 ? DEMO_DIGGER : d;
      const userId = await insertUser(tx, person, "digger", i === 0 ? passwordHash : null);
      const [profile] = await tx
        .insert(diggerProfiles)
        .values({
          userId,
          handle: d.handle,
          businessName: d.businessName,
          phone: d.phone,
          location: d.location,
          profession: d.profession,
          bio: d.bio,
          portfolioUrl: d.portfolioUrl,
          hourlyRateMinCents: d.hourlyRateMinCents,
          hourlyRateMaxCents: d.hourlyRateMaxCents,
          yearsExperience: d.yearsExperience,
          availability: d.availability,
          isInsured: d.isInsured,
          isBonded: d.isBonded,
          isLicensed: d.isLicensed,
          // Figures (rating, reviews, hire rate) are the database's, from the past work below;
          // `verified` stays false: only an operator may set it (decision 0022).
        })
        .returning({ id: diggerProfiles.id });
      const diggerId = profile!.id;
      diggerIds.push(diggerId);
      await tx
        .insert(diggerCategories)
        .values([...new Set(d.categorySlugs)].map((slug) => ({ diggerId, categoryId: categoryId(slug) })));
      await tx.insert(diggerReferences).values(
        d.references.map((r) => ({
          diggerId,
          referenceName: r.name,
          referenceEmail: r.email,
          referencePhone: r.phone,
          projectDescription: r.projectDescription,
        })),
      );
    }

    // Verified phones (issue 49): some clients proved their number a month ago, so their gigs
    // (which give it) show 'Phone verified' (the gigs' trigger reads these rows); others gave a
    // number without verifying it; one gives none.
    const verified = demoClients.flatMap((c, i) => (c.phone && c.phoneVerified ? [{ userId: clientIds[i]!, phone: c.phone }] : []));
    for (const { userId, phone } of verified) await tx.update(users).set({ phone }).where(eq(users.id, userId));
    if (verified.length > 0) {
      await tx.insert(phoneVerifications).values(verified.map((v) => ({ ...v, verifiedAt: new Date(now.getTime() - 30 * 86_400_000) })));
    }

    const today = now.toISOString().slice(0, 10);
    const gigRows = await tx.insert(gigs).values(
      demoGigs.map((g) => ({
        clientId: clientIds[g.clientIndex]!,
        title: g.title.trim(),
        description: g.description.trim(),
        location: g.location,
        timeline: g.timeline,
        budgetMinCents: g.budgetMinCents,
        budgetMaxCents: g.budgetMaxCents,
        categoryId: categoryId(g.categorySlug),
        contactPreferences: g.contactPreferences,
        contactPhone: demoClients[g.clientIndex]?.phone ?? null,
        deadline: g.deadlineInDays === null ? null : addDays(today, g.deadlineInDays),
        createdAt: new Date(now.getTime() - g.postedHoursAgo * 3_600_000),
      })),
    ).returning({ id: gigs.id, clientId: gigs.clientId, budgetMinCents: gigs.budgetMinCents });
    await seedDemoLeads(tx, now, gigRows, clientIds[0]!);
    await seedPastWork(tx, now, clientIds, diggerIds, categoryId);
    await seedDemoVisits(tx, now, diggerIds[0]!, clientIds[0]!);
    const operatorId = await insertUser(tx, DEMO_OPERATOR, "consumer", passwordHash);
    await tx.update(users).set({ operatorSince: now }).where(eq(users.id, operatorId));
    return true;
  });
}

async function insertUser(
  tx: Transaction,
  person: { email: string; fullName: string },
  userType: "consumer" | "digger",
  passwordHash: string | null,
): Promise<string> {
  const id = randomUUID();
  await tx.insert(users).values({ id, name: person.fullName, email: person.email, emailVerified: true, userType });
  if (passwordHash) {
    await tx
      .insert(accounts)
      .values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash });
  }
  return id;
}

/**
 * A few purchased leads, so that /my-leads and the issues dialog show their states: the demo
 * digger holds one lead bought 20 days ago (its report window has closed), one with an
 * issue waiting for its client, and one on a gig of the demo client whose issue was approved
 * automatically (and refunded) when the client did not respond in time; the demo client
 * also has an issue waiting on another of their gigs. Another digger had two issues approved
 * automatically this month, so their third overdue one waits in the operator console's
 * Payments queue (decision 0031).
 */
async function seedDemoLeads(
  tx: Transaction,
  now: Date,
  gigRows: Array<{ id: string; clientId: string; budgetMinCents: number | null }>,
  demoClientId: string,
): Promise<void> {
  const profiles = await tx.select({ id: diggerProfiles.id }).from(diggerProfiles).orderBy(diggerProfiles.createdAt, diggerProfiles.id);
  const [demoDigger] = await tx
    .select({ id: diggerProfiles.id })
    .from(diggerProfiles)
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(eq(users.email, DEMO_DIGGER.email));
  const otherDigger = profiles.find((p) => p.id !== demoDigger!.id)!;
  const othersGigs = gigRows.filter((g) => g.clientId !== demoClientId);
  const [ownGig, ownSecondGig] = gigRows.filter((g) => g.clientId === demoClientId);
  const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  const leads = [
    { gig: othersGigs[0]!, diggerId: demoDigger!.id, purchasedHoursAgo: 20 * 24, issueHoursAgo: null },
    { gig: othersGigs[1]!, diggerId: demoDigger!.id, purchasedHoursAgo: 48, issueHoursAgo: 20 },
    { gig: ownGig!, diggerId: otherDigger.id, purchasedHoursAgo: 30, issueHoursAgo: 6 },
    { gig: ownSecondGig!, diggerId: demoDigger!.id, purchasedHoursAgo: 7 * 24, issueHoursAgo: 5 * 24, approvedAutomatically: true },
    { gig: othersGigs.at(-1)!, diggerId: otherDigger.id, purchasedHoursAgo: 12 * 24, issueHoursAgo: 10 * 24, approvedAutomatically: true },
    { gig: othersGigs.at(-2)!, diggerId: otherDigger.id, purchasedHoursAgo: 8 * 24, issueHoursAgo: 6 * 24, approvedAutomatically: true },
    { gig: othersGigs.at(-3)!, diggerId: otherDigger.id, purchasedHoursAgo: 4 * 24, issueHoursAgo: 80, escalated: true },
  ];
  for (const lead of leads) {
    const [purchase] = await tx
      .insert(leadPurchases)
      .values({
        gigId: lead.gig.id,
        diggerId: lead.diggerId,
        amountPaidCents: leadPriceCents(lead.gig.budgetMinCents),
        status: "completed",
        provider: "test",
        providerSessionId: `demo_cs_${randomUUID()}`,
        createdAt: ago(lead.purchasedHoursAgo),
        purchasedAt: ago(lead.purchasedHoursAgo),
      })
      .returning({ id: leadPurchases.id });
    await tx.update(gigs).set({ purchaseCount: sql`${gigs.purchaseCount} + 1` }).where(eq(gigs.id, lead.gig.id));
    // Each answered as in their past work: the demo digger (the first of demoDiggers) within the hour.
    const answerMinutes = lead.diggerId === demoDigger!.id ? FIRST_ANSWER_MINUTES[0]! : FIRST_ANSWER_MINUTES[1]!;
    await seedFirstAnswer(tx, purchase!.id, new Date(ago(lead.purchasedHoursAgo).getTime() + answerMinutes * 60_000));
    if (lead.issueHoursAgo === null) continue;
    const respondBy = ago(lead.issueHoursAgo - 72);
    const automatic = "approvedAutomatically" in lead;
    const escalated = "escalated" in lead;
    const [issue] = await tx
      .insert(leadIssues)
      .values({
        leadPurchaseId: purchase!.id,
        diggerId: lead.diggerId,
        ...(escalated
          ? { issueType: "mistake" as const, description: "The client says they posted this by mistake.", refundPercentage: 100 }
          : { issueType: "already_filled" as const, description: "The client told me on the phone they had already hired someone for this job.", refundPercentage: 50 }),
        createdAt: ago(lead.issueHoursAgo),
        respondBy,
        ...(automatic ? { status: "approved" as const, decidedBy: "automatic" as const, resolvedAt: respondBy } : {}),
        ...(escalated ? { escalatedAt: respondBy, operatorRespondBy: new Date(respondBy.getTime() + 72 * 3_600_000) } : {}),
      })
      .returning({ id: leadIssues.id });
    if (!automatic) continue;
    const refundId = randomUUID();
    await tx.insert(refunds).values({
      id: refundId,
      leadPurchaseId: purchase!.id,
      leadIssueId: issue!.id,
      reason: "issue_approved",
      amountCents: refundCents(leadPriceCents(lead.gig.budgetMinCents), 50),
      status: "succeeded",
      providerRefundId: `test_re_refund-${refundId}`,
      completedAt: respondBy,
      createdAt: respondBy,
    });
  }
}

/**
 * The demo diggers' past work (demo-reviews.ts): closed gigs whose leads they bought, hires and
 * reviews, written as the product writes them, so that every rating shown comes from reviews;
 * and on a few hires the digger's review of the client (demo-client-reviews.ts).
 */
async function seedPastWork(
  tx: Transaction,
  now: Date,
  clientIds: string[],
  diggerIds: string[],
  categoryId: (slug: string) => string,
): Promise<void> {
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3_600_000);
  const topLevelOf = new Map(taxonomy.flatMap((top) => [[top.slug, top.slug], ...top.children.map((c) => [c.slug, top.slug] as const)]));
  const leads = pastLeads(demoDiggers, clientIds.length);
  const clientReviewOf = pastClientReviews(leads);
  for (const lead of leads) {
    const digger = demoDiggers[lead.diggerIndex]!;
    const diggerId = diggerIds[lead.diggerIndex]!;
    const hiredAt = daysAgo(lead.purchasedDaysAgo - 2);
    const [gig] = await tx
      .insert(gigs)
      .values({
        clientId: clientIds[lead.clientIndex]!,
        title: lead.title,
        description: lead.description,
        location: digger.location,
        timeline: "Within two weeks",
        budgetMinCents: lead.budgetMinCents,
        budgetMaxCents: lead.budgetMinCents * 2,
        categoryId: categoryId(topLevelOf.get(digger.categorySlugs[0]!)!),
        status: "closed",
        purchaseCount: 1,
        filledAt: lead.hired ? hiredAt : null,
        createdAt: daysAgo(lead.purchasedDaysAgo + 1),
      })
      .returning({ id: gigs.id });
    const [purchase] = await tx
      .insert(leadPurchases)
      .values({
        gigId: gig!.id,
        diggerId,
        amountPaidCents: leadPriceCents(lead.budgetMinCents),
        status: "completed",
        provider: "test",
        providerSessionId: `demo_cs_${randomUUID()}`,
        createdAt: daysAgo(lead.purchasedDaysAgo),
        purchasedAt: daysAgo(lead.purchasedDaysAgo),
      })
      .returning({ id: leadPurchases.id });
    const answerMinutes = FIRST_ANSWER_MINUTES[lead.diggerIndex % FIRST_ANSWER_MINUTES.length]!;
    const replyMinutes = CLIENT_REPLY_MINUTES[lead.diggerIndex % CLIENT_REPLY_MINUTES.length]!;
    if (answerMinutes !== null) await seedFirstAnswer(tx, purchase!.id, new Date(daysAgo(lead.purchasedDaysAgo).getTime() + answerMinutes * 60_000), replyMinutes);
    if (lead.hired) await tx.insert(hires).values({ gigId: gig!.id, diggerId, createdAt: hiredAt });
    // The digger's review of the client (issue 51), on a few hires.
    const clientReview = clientReviewOf.get(lead);
    if (clientReview) await seedClientReview(tx, { gigId: gig!.id, diggerId, leadPurchaseId: purchase!.id, clientId: clientIds[lead.clientIndex]!, hiredAt }, clientReview);
    if (!lead.review) continue;
    const reviewedAt = daysAgo(lead.review.daysAgo);
    await tx.insert(reviews).values({
      gigId: gig!.id,
      diggerId,
      leadPurchaseId: purchase!.id,
      rating: lead.review.rating,
      body: lead.review.body,
      createdAt: reviewedAt,
      updatedAt: reviewedAt,
      reply: lead.review.reply,
      repliedAt: lead.review.reply ? daysAgo(lead.review.daysAgo - 1) : null,
    });
  }
}

/**
 * How soon each demo digger (by index, cycled) first wrote to the client of a past lead, in
 * minutes; null: never did. The profile and the cards read 'Usually responds within …' from these
 * messages through the one rule (core/response-time.ts): no figure is typed.
 */
const FIRST_ANSWER_MINUTES: Array<number | null> = [35, 180, 14 * 60, null];

/**
 * How soon the client of a past lead replied to the digger's first message, in minutes (cycled
 * with the diggers); null: did not. The gig pages' client records (issue 48) are read from these
 * messages by the database's own counts (migration 0052): no figure is typed.
 */
const CLIENT_REPLY_MINUTES: Array<number | null> = [25, 150, 600, null, 40];

/**
 * The digger's first message in the purchase's thread (the trigger of migration 0029 made it),
 * opened and read by both (so the reply guarantee's check finds the thread answered, never a
 * demo lead to refund), and the client's reply `replyMinutes` later when given.
 */
async function seedFirstAnswer(tx: Transaction, purchaseId: string, at: Date, replyMinutes: number | null = null): Promise<void> {
  const [thread] = await tx.select({ id: threads.id, diggerUserId: threads.diggerUserId, clientId: threads.clientId }).from(threads).where(eq(threads.purchaseId, purchaseId));
  const [message] = await tx
    .insert(messages)
    .values({ threadId: thread!.id, senderId: thread!.diggerUserId, body: "Thanks for posting this. I can take a look this week: when suits you?", createdAt: at, toldAt: at })
    .returning({ seq: messages.seq });
  const repliedAt = replyMinutes === null ? null : new Date(at.getTime() + replyMinutes * 60_000);
  const [reply] = repliedAt
    ? await tx
        .insert(messages)
        .values({ threadId: thread!.id, senderId: thread!.clientId, body: "Thanks! Thursday morning works for me.", createdAt: repliedAt, toldAt: repliedAt })
        .returning({ seq: messages.seq })
    : [];
  const last = reply?.seq ?? message!.seq;
  const lastAt = repliedAt ?? at;
  await tx
    .update(threads)
    .set({ lastMessageSeq: last, diggerReadSeq: last, clientReadSeq: last, lastActivityAt: lastAt, diggerReadAt: lastAt, clientReadAt: lastAt, clientOpenedAt: at })
    .where(eq(threads.id, thread!.id));
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
