/**
 * Seeded data for the security tests (authorization matrix, private-data crawl, bad input):
 * a client who owns a gig, another client, a digger who bought that gig's lead, reported
 * an issue on it, was marked hired and reviewed by the gig's owner, and another digger, each signed in with their own client. Every
 * private value (names, e-mails, phones, business names, reference contacts, contact
 * preferences) is unique, so a test can search any response for it.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "../../server/db/client.ts";
import {
  credentialDocuments,
  diggerProfiles,
  gigs,
  pushSubscriptions,
  quotes,
  sessions,
  diggerReferences,
  hires,
  leadAlertSettings,
  leadIssues,
  leadPurchases,
  messageAttachments,
  messageReports,
  messages,
  notifications,
  referenceContactRequests,
  refunds,
  reviewReports,
  reviews,
  threads,
  users as usersTable,
} from "../../server/db/schema.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import type { TestApp } from "../support/app.ts";
import { insertGig, insertPurchase, type TestDigger, type TestGig } from "../support/leads.ts";
import { browserSubscription } from "../support/push-service.ts";
import { SessionClient } from "../support/session-client.ts";

export const ROLES = ["signedOut", "owningClient", "otherClient", "owningDigger", "otherDigger", "operator"] as const;
export type Role = (typeof ROLES)[number];

const tag = () => randomUUID().slice(0, 8);

async function digger(app: TestApp, label: string): Promise<TestDigger & { phone: string; handle: string }> {
  const user = await signUpAs(app, "digger", `${label} Fullname ${tag()}`);
  const businessName = `${label} Business ${tag()} LLC`;
  const phone = `(555) ${String(100 + Math.floor(Math.random() * 800))}-${String(1000 + Math.floor(Math.random() * 8999))}`;
  const handle = `${label.toLowerCase()}_${tag()}`;
  const [profile] = await app.database.db
    .insert(diggerProfiles)
    .values({ userId: user.id, handle, businessName, phone, location: "Austin, TX", profession: "Handyman", bio: "General repairs." })
    .returning({ id: diggerProfiles.id });
  return { ...user, diggerId: profile!.id, businessName, phone, handle };
}

export async function createWorld(app: TestApp) {
  const [owningClient, otherClient, operator] = await Promise.all([
    signUpAs(app, "consumer", `Owner Client ${tag()}`),
    signUpAs(app, "consumer", `Other Client ${tag()}`),
    // An operator (issue 22): a client account with the role, as `npm run operator -- grant` gives it.
    signUpAs(app, "consumer", `Operator Person ${tag()}`),
  ]);
  await app.database.db.update(usersTable).set({ operatorSince: new Date() }).where(eq(usersTable.id, operator.id));
  const [owningDigger, otherDigger] = await Promise.all([digger(app, "Owning"), digger(app, "Other")]);
  const db = app.database.db;

  const gig = await insertGig(app, owningClient.id);
  const purchase = await insertPurchase(app, gig, owningDigger.diggerId);
  const [issue] = await db
    .insert(leadIssues)
    .values({ leadPurchaseId: purchase.id, diggerId: owningDigger.diggerId, issueType: "already_filled", description: "Someone else got the job.", refundPercentage: 50 })
    .returning();
  await db.insert(hires).values({ gigId: gig.id, diggerId: owningDigger.diggerId });
  const [review] = await db
    .insert(reviews)
    .values({ gigId: gig.id, diggerId: owningDigger.diggerId, leadPurchaseId: purchase.id, rating: 4, body: "Solid work on the deck, finished on time." })
    .returning();
  const reference = await addReference(app, owningDigger.diggerId);
  // The other client reported the review (issue 22): the reason is for operators only.
  const reportReason = `Report reason ${tag()} for the operators`;
  await db.insert(reviewReports).values({ reviewId: review!.id, reporterId: otherClient.id, reason: reportReason });
  // The owning digger's lead alerts (Off: nothing is sent): their words are theirs alone.
  const leadAlerts = { keywords: [`alertword${tag()}`], location: `Alertville ${tag()}` };
  await db.insert(leadAlertSettings).values({ diggerId: owningDigger.diggerId, frequency: "off", ...leadAlerts });
  const [referenceRequest] = await db
    .insert(referenceContactRequests)
    .values({ referenceId: reference.id, clientId: owningClient.id, diggerId: owningDigger.diggerId })
    .returning();

  // The owning digger's proof of a licence, waiting for review (issue 22): its number and file
  // are for the digger and operators only.
  const proofNumber = `LIC-${tag()}`;
  const proof = await addProof(app, owningDigger.diggerId, proofNumber);

  // The purchase's thread (issue 32): the owning client wrote to the owning digger, who
  // reported the message; its text is for the two of them only (operators see it in the
  // console's queue, never at the thread's address).
  const [thread] = await db.select().from(threads).where(eq(threads.purchaseId, purchase.id));
  const addMessage = async (label: string) => {
    const [row] = await db.insert(messages).values({ threadId: thread!.id, senderId: owningClient.id, body: `${label} ${tag()} for the digger only`, toldAt: sql`now()` }).returning();
    await db.update(threads).set({ lastMessageSeq: row!.seq, lastActivityAt: sql`now()` }).where(eq(threads.id, thread!.id));
    return row!;
  };
  // The digger's first answer (it covers the purchase by the reply guarantee, issue 48), which the
  // client has opened since: the world's thread is past its first answer and its first opening, as
  // a real one would be, so that no row of the matrix is the one to set them.
  const [answer] = await db.insert(messages).values({ threadId: thread!.id, senderId: owningDigger.id, body: `Digger's first answer ${tag()}`, toldAt: sql`now()` }).returning();
  await db.update(threads).set({ lastMessageSeq: answer!.seq, clientOpenedAt: sql`now()` }).where(eq(threads.id, thread!.id));
  // First, so that the reported message below is the thread's last (the inbox's line).
  const fileMessage = await addMessage("Message with a file");
  const message = await addMessage("Private message");
  const messageReportReason = `Message report ${tag()} for the operators`;
  await db.insert(messageReports).values({ messageId: message.id, reporterId: owningDigger.id, reason: messageReportReason });
  /** A PDF attachment of a message: its file (with a private line in it) in storage, its row. */
  const addAttachment = async (messageId: string, label: string) => {
    const secret = `${label} ${tag()} inside the file`;
    const data = Buffer.from(`%PDF-1.4\n% ${secret}\n%%EOF\n`);
    const storageKey = `private/messages/${randomUUID().replaceAll("-", "")}.pdf`;
    await app.services.storage.put(storageKey, data);
    const [row] = await db
      .insert(messageAttachments)
      .values({ messageId, position: 0, storageKey, fileName: `${label.replaceAll(" ", "-")}-${tag()}.pdf`, contentType: "application/pdf", sizeBytes: data.length })
      .returning();
    return { ...row!, secret };
  };
  /** The reported message's attachment (parties and operators), and one of a message nobody reported (parties only). */
  const reportedAttachment = await addAttachment(message.id, "Reported attachment");
  const attachment = await addAttachment(fileMessage.id, "Private attachment");

  /**
   * The owning client's number, with a code waiting for it (issue 49): only they may see the
   * number on /verify-phone. Its "sent" time is a day ahead, so that 'Send a new code' is
   * refused for the minute between codes however long the matrix runs, and nothing is sent.
   */
  const phone = { e164: "+12015550177", shown: "+1 201 555 0177" };
  await db.update(usersTable).set({ phone: phone.e164 }).where(eq(usersTable.id, owningClient.id));
  await db.execute(sql`insert into phone_codes (user_id, phone, code_hash, for_account, sent_at, expires_at)
    values (${owningClient.id}, ${phone.e164}, ${"0".repeat(64)}, true, now() + interval '1 day', now() + interval '1 day')`);

  const users = { owningClient, otherClient, owningDigger, otherDigger, operator };
  /** One unread bell entry for each user, with a unique private text (only its owner may see it). */
  async function addNotifications(label: string) {
    const rows = await db
      .insert(notifications)
      .values(Object.entries(users).map(([role, user]) => ({ userId: user.id, kind: "gig.filled", text: `${label} for ${role} ${tag()}`, link: "/" })))
      .returning({ id: notifications.id, userId: notifications.userId, text: notifications.text });
    return Object.fromEntries(Object.entries(users).map(([role, user]) => [role, rows.find((r) => r.userId === user.id)!])) as Record<keyof typeof users, (typeof rows)[number]>;
  }
  const notificationOf = await addNotifications("Private notice");
  async function signIn(client: SessionClient, role: keyof typeof users): Promise<void> {
    const response = await client.post("/auth", { intent: "sign-in", email: users[role].email, password: TEST_PASSWORD });
    if (response.status !== 302) throw new Error(`sign-in as ${role} failed: ${response.status}`);
  }

  const world = {
    phone,
    app,
    users,
    gig,
    purchase,
    issue: issue!,
    review: review!,
    reference,
    referenceRequest: referenceRequest!,
    leadAlerts,
    reportReason,
    /** The purchase's thread, and the owning client's reported message in it. */
    thread: thread!,
    message,
    messageReportReason,
    reportedAttachment,
    attachment,
    proof,
    proofNumber,
    /** Each user's own bell entry. */
    notificationOf,
    /** A new unread bell entry for every user. */
    freshNotifications: () => addNotifications("Fresh notice"),

    /** The client acting as `role`: a fresh one for a visitor. */
    client(role: Role): SessionClient {
      return role === "signedOut" ? new SessionClient(app) : world.users[role].client;
    },
    /**
     * The role's session in a client of its own: cookies a request sets (a new session, a
     * flash) never reach the shared client, and its new address keeps per-address limits
     * from carrying over between requests.
     */
    clientCopy(role: Role): SessionClient {
      const copy = new SessionClient(app);
      if (role !== "signedOut") for (const [name, value] of world.users[role].client.cookies) copy.cookies.set(name, value);
      return copy;
    },
    /** A newly signed-in client for `role`, for requests that end the session. */
    async freshClient(role: Role): Promise<SessionClient> {
      const client = new SessionClient(app);
      if (role !== "signedOut") await signIn(client, role);
      return client;
    },
    /** Signs the role's shared client in again, after a request that ended all of its user's sessions. */
    async signInAgain(role: Role): Promise<void> {
      if (role === "signedOut") return;
      world.users[role].client.cookies.clear();
      await signIn(world.users[role].client, role);
    },
    /** A gig of the owning client with a completed purchase by the owning digger and a pending issue. */
    async freshIssue() {
      const g = await insertGig(app, owningClient.id);
      const p = await insertPurchase(app, g, owningDigger.diggerId);
      const [i] = await db
        .insert(leadIssues)
        .values({ leadPurchaseId: p.id, diggerId: owningDigger.diggerId, issueType: "mistake", description: "Posted by mistake.", refundPercentage: 100 })
        .returning();
      return { gig: g, purchase: p, issue: i! };
    },
    /** A pending issue past its deadline that went to the operators (decision 0031), with their deadline ahead. */
    async freshEscalatedIssue() {
      const { issue } = await world.freshIssue();
      const [i] = await db
        .update(leadIssues)
        .set({ respondBy: sql`now() - interval '1 hour'`, escalatedAt: sql`now()`, operatorRespondBy: sql`now() + interval '72 hours'` })
        .where(eq(leadIssues.id, issue.id))
        .returning();
      return i!;
    },
    /** A Fake or Spam Request by the owning digger, with the operators from its report (issue 48). */
    async freshFakeRequest() {
      const { issue } = await world.freshIssue();
      const [i] = await db
        .update(leadIssues)
        .set({ issueType: "fake_request", respondBy: sql`now()`, escalatedAt: sql`now()`, operatorRespondBy: sql`now() + interval '72 hours'` })
        .where(eq(leadIssues.id, issue.id))
        .returning();
      return i!;
    },
    /** A purchase by the owning digger whose reply guarantee refund went past the digger's bound (issue 48). */
    async freshEscalatedGuarantee() {
      const { purchase } = await world.freshPurchase();
      const [p] = await db.update(leadPurchases).set({ guaranteeOutcome: "escalated", guaranteeSettledAt: sql`now()` }).where(eq(leadPurchases.id, purchase.id)).returning();
      return p!;
    },
    /** A completed purchase by the owning digger with no issue yet. */
    async freshPurchase() {
      const g = await insertGig(app, owningClient.id);
      return { gig: g, purchase: await insertPurchase(app, g, owningDigger.diggerId) };
    },
    /** A review by the owning client of the owning digger, on a new gig they bought, with no reply yet. */
    async freshReview() {
      const { gig: g, purchase: p } = await world.freshPurchase();
      const [r] = await db.insert(reviews).values({ gigId: g.id, diggerId: owningDigger.diggerId, leadPurchaseId: p.id, rating: 5, body: "Great work, on time and tidy." }).returning();
      return r!;
    },
    /** A pending test checkout of the owning digger. */
    async freshCheckout() {
      const g = await insertGig(app, owningClient.id);
      return insertPurchase(app, g, owningDigger.diggerId, { status: "pending" });
    },
    /** A pending request by the owning client for a new reference of the owning digger. */
    async freshReferenceRequest() {
      const r = await addReference(app, owningDigger.diggerId);
      const [q] = await db.insert(referenceContactRequests).values({ referenceId: r.id, clientId: owningClient.id, diggerId: owningDigger.diggerId }).returning();
      return q!;
    },
    freshGig: (): Promise<TestGig> => insertGig(app, owningClient.id),
    /** The world's gig has a hire (above), which takes it off sale (issue 47): its client keeps it open for more diggers. */
    keepGigOpen: () => db.update(gigs).set({ openForMore: true }).where(eq(gigs.id, gig.id)),
    /** A new digger with a profile (not verified). */
    freshDigger: () => digger(app, "Fresh"),
    /** A fresh review of the owning digger with one open report (by the other client). */
    async freshReportedReview() {
      const review = await world.freshReview();
      await db.insert(reviewReports).values({ reviewId: review.id, reporterId: otherClient.id, reason: "This review looks like a fake one." });
      return review;
    },
    /** The world's thread becomes the latest activity of its parties (first in their inboxes). */
    touchThread: () => db.update(threads).set({ lastActivityAt: sql`now()` }).where(eq(threads.id, thread!.id)),
    /** A new message of the owning client in the world's thread. */
    freshMessage: () => addMessage("Fresh message"),
    /** No open nor accepted quote on the world's gig (issue 33): the owning digger may send one. */
    clearQuotes: () => db.update(quotes).set({ status: "withdrawn" }).where(and(eq(quotes.gigId, gig.id), inArray(quotes.status, ["open", "accepted"]))),
    /** An open quote of the owning digger in the world's thread, valid for a week; any earlier one withdrawn. */
    async freshQuote() {
      await world.clearQuotes();
      const validUntil = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const [row] = await db
        .insert(quotes)
        .values({ threadId: thread!.id, gigId: gig.id, diggerId: owningDigger.diggerId, type: "fixed", amountCents: 120_000, included: "Labour and materials", validUntil, expiresAt: new Date(`${validUntil}T23:59:59Z`) })
        .returning();
      return row!;
    },
    /** A new message with one open report (by the owning digger). */
    async freshReportedMessage() {
      const row = await addMessage("Reported message");
      await db.insert(messageReports).values({ messageId: row.id, reporterId: owningDigger.id, reason: "This message asks for money outside." });
      return row;
    },
    /** A refund of a new purchase by the owning digger, still waiting for the provider. */
    async freshPendingRefund() {
      const { purchase: p } = await world.freshPurchase();
      const [refund] = await db.insert(refunds).values({ leadPurchaseId: p.id, reason: "duplicate_payment", amountCents: p.amountPaidCents }).returning();
      return refund!;
    },
    /** A fresh digger's proof of insurance, waiting for review. */
    async freshProof() {
      return addProof(app, (await digger(app, "Proof")).diggerId, `POL-${tag()}`);
    },
    /**
     * A device a client (the owning one unless said) turned push notifications on for, in one of
     * their sessions; their earlier devices go, so that repeated calls stay under the cap of 10.
     */
    async freshPushDevice(owner: "owningClient" | "otherClient" = "owningClient") {
      const userId = owner === "owningClient" ? owningClient.id : otherClient.id;
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
      const subscription = browserSubscription(`https://push.example.test/send/${tag()}`);
      const [device] = await db
        .insert(pushSubscriptions)
        .values({ userId, sessionId: session!.id, endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth, device: "Chrome on Android" })
        .returning();
      return device!;
    },
    /** A client of no role (the console's Suspend and Reinstate act on them), suspended or not. */
    async freshClientUser(suspendedReason?: string) {
      const user = await signUpAs(app, "consumer", `Fresh Client ${tag()}`);
      if (suspendedReason) await db.update(usersTable).set({ suspendedAt: new Date(), suspendedReason }).where(eq(usersTable.id, user.id));
      return user;
    },
  };
  return world;
}
export type World = Awaited<ReturnType<typeof createWorld>>;

/** A proof file: a tiny PDF. */
export const proofPdf = () => new File(["%PDF-1.4\n%%EOF\n"], "proof.pdf", { type: "application/pdf" });

/** A pending proof of `diggerId`, its file in the app's storage. */
async function addProof(app: TestApp, diggerId: string, number: string) {
  const documentKey = `private/credentials/${randomUUID().replaceAll("-", "")}.pdf`;
  await app.services.storage.put(documentKey, Buffer.from(await proofPdf().arrayBuffer()));
  const [proof] = await app.database.db
    .insert(credentialDocuments)
    .values({ diggerId, credential: "insured", number, statedExpiry: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10), documentKey, documentName: "proof.pdf" })
    .returning();
  return proof!;
}

export async function addReference(app: TestApp, diggerId: string) {
  const [reference] = await app.database.db
    .insert(diggerReferences)
    .values({
      diggerId,
      referenceName: `Reference Person ${tag()}`,
      referenceEmail: `reference-${tag()}@example.org`,
      referencePhone: `(555) 777-${String(1000 + Math.floor(Math.random() * 8999))}`,
      projectDescription: "Rebuilt the porch",
    })
    .returning();
  return reference!;
}

/** Tables whose rows a refused request must leave exactly as they were. */
export const GUARDED_TABLES = [
  "users",
  "sessions",
  "accounts",
  "verifications",
  "two_factors",
  "digger_profiles",
  "digger_categories",
  "digger_references",
  "reference_contact_requests",
  "gigs",
  "lead_purchases",
  "lead_issues",
  "refunds",
  "hires",
  "reviews",
  "emails",
  "lead_alert_settings",
  "lead_alert_categories",
  "lead_alerts",
  "lead_alert_digests",
  "notifications",
  "reach_preferences",
  "operator_actions",
  "review_reports",
  "credential_documents",
  "threads",
  "messages",
  "blocks",
  "message_reports",
  "message_notices",
  "message_attachments",
  "push_subscriptions",
  "quotes",
  "quote_line_items",
  "phone_verifications",
  "phone_codes",
  "sms_outbox",
  // Site visits (issue 50).
  "visit_proposals",
  "visit_options",
  "visits",
  // The digger's review of a client (issue 51).
  "client_reviews",
] as const;
export type GuardedTable = (typeof GUARDED_TABLES)[number];

/** A digest of every guarded table's rows, in one query: equal digests, nothing changed. */
export async function fingerprint(app: TestApp): Promise<Record<GuardedTable, string>> {
  const digests = GUARDED_TABLES.map(
    (table) =>
      `select '${table}' as name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${table} t`,
  );
  const rows = await queryRows<{ name: GuardedTable; digest: string }>(app.database.db, sql.raw(digests.join(" union all ")));
  return Object.fromEntries(rows.map((row) => [row.name, row.digest])) as Record<GuardedTable, string>;
}
