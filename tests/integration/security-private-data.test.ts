/**
 * Private data (issue 10; design.md section 6): every page and every data response each role
 * can reach, crawled from the seeded world by following the site's own links, is searched for
 * every private value. A value may appear only to the roles the design allows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewerName } from "../../core/reviews.ts";
import { visitBookedLine } from "../../core/visits.ts";
import { readerTime } from "../../server/reader-time.ts";
import { hoursFromNow, insertVisit } from "../support/booked-visits.ts";
import { decodeHtml, insertGig, insertPurchase } from "../support/leads.ts";
import { diggerReviewsInWindow } from "../support/review-windows.ts";
import { insertBookedVisit } from "../support/visit-rows.ts";
import { signVisitAnswerToken } from "../../server/mail/visit-answer-token.ts";
import { crawl, worldPages } from "../security/crawl.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import { ROLES, type Role, type World } from "../security/world.ts";

let security: SecurityWorld;
let world: World;
beforeAll(async () => {
  ({ world } = security = await openSecurityWorld());
  const suspended = await world.freshClientUser();
  suspension = { userId: suspended.id, reason: `Suspended for a private reason ${suspended.id.slice(0, 8)}` };
  const response = await world.users.operator.client.post(`/ops/users/${suspended.id}`, { intent: "suspend", reason: suspension.reason });
  if (response.status !== 200) throw new Error(`suspending failed: ${response.status}`);
  // A gig an operator hid, whose lead the owning digger bought: the buyer keeps its page, not the reason.
  const hiddenGig = await insertGig(world.app, (await world.freshClientUser()).id);
  await insertPurchase(world.app, hiddenGig, world.users.owningDigger.diggerId);
  hiding = { gigId: hiddenGig.id, reason: `Hidden for a private reason ${hiddenGig.id.slice(0, 8)}` };
  const hidden = await world.users.operator.client.post("/ops/gigs", { intent: "hide", gigId: hiddenGig.id, reason: hiding.reason });
  if (hidden.status !== 200) throw new Error(`hiding failed: ${hidden.status}`);
  // A visit booked in the world's thread (issue 50), and its signed link with another signature.
  const signed = await insertBookedVisit(world.app, world.thread, new Date(Date.now() + 3 * 86_400_000 + 7 * 60_000));
  const [client] = await world.app.database.db.query.users.findMany({ where: (u, { eq }) => eq(u.id, world.thread.clientId) });
  visiting = {
    window: readerTime(client?.timeZone, world.app.config).visitWindow(signed.startsAt, signed.windowMinutes),
    forgedLink: `/visit-reply?token=${encodeURIComponent(`${signed.id}.${signed.sequence}.${"A".repeat(43)}`)}&answer=confirm`,
    link: `/visit-reply?token=${encodeURIComponent(signVisitAnswerToken(world.app.config.authSecret, signed))}&answer=confirm`,
  };
  // The world's thread's visits (issue 50): one booked, at a minute no other time of the world
  // has, and one cancelled with a reason of the client's.
  const booked = await insertVisit(world.app, world.thread.id, new Date(hoursFromNow(53).getTime() + 7 * 60_000), { windowMinutes: 120 });
  const cancelled = await insertVisit(world.app, world.thread.id, hoursFromNow(80), { cancelledBy: "client", reason: `Cancelled for a private reason ${booked.id.slice(0, 8)}` });
  visit = { line: visitBookedLine(readerTime(null, world.app.config).visitWindow(booked.startsAt, booked.windowMinutes)), reason: cancelled.cancelReason! };
}, WORLD_SETUP_MS);
afterAll(() => security.close());

/** A suspended account's reason (issue 22): written by the operator in beforeAll, seen only in the console. */
let suspension: { userId: string; reason: string };
/** A hidden gig's reason (issue 22): its owner (not a crawled role) and operators only, never its buyer. */
let hiding: { gigId: string; reason: string };
/** A booked visit's time (issue 50): the thread's parties; never shown through a forged signed link. */
let visiting: { window: string; forgedLink: string; link: string };
/** A visit of the world's thread (issue 50): its time and a cancellation's reason, for the thread's parties only. */
let visit: { line: string; reason: string };

/**
 * Each private value and the roles allowed to see it. Operators see every account's name and
 * e-mail address in the console's Users section (issue 22).
 */
function secrets(w: World): Array<{ what: string; value: string; allowed: Role[] }> {
  const { owningClient, otherClient, owningDigger, otherDigger } = w.users;
  return [
    // A digger's business name: the digger, and the owner of a gig whose lead they bought (issues dialog).
    { what: "owning digger's business name", value: owningDigger.businessName, allowed: ["owningDigger", "owningClient"] },
    { what: "owning digger's phone", value: owningDigger.phone, allowed: ["owningDigger"] },
    { what: "owning digger's e-mail", value: owningDigger.email, allowed: ["owningDigger", "operator"] },
    { what: "owning digger's full name", value: owningDigger.fullName, allowed: ["owningDigger", "operator"] },
    { what: "other digger's business name", value: otherDigger.businessName, allowed: ["otherDigger"] },
    { what: "other digger's phone", value: otherDigger.phone, allowed: ["otherDigger"] },
    { what: "other digger's e-mail", value: otherDigger.email, allowed: ["otherDigger", "operator"] },
    { what: "other digger's full name", value: otherDigger.fullName, allowed: ["otherDigger", "operator"] },
    // Reference contacts: the digger; a client only after approval (this request is pending).
    { what: "reference's e-mail", value: w.reference.referenceEmail, allowed: ["owningDigger"] },
    { what: "reference's phone", value: w.reference.referencePhone!, allowed: ["owningDigger"] },
    // The client: themselves, and the digger who bought their lead.
    { what: "client's name", value: owningClient.fullName, allowed: ["owningClient", "owningDigger", "operator"] },
    { what: "client's e-mail", value: owningClient.email, allowed: ["owningClient", "owningDigger", "operator"] },
    { what: "client's contact preferences", value: w.gig.contactPreferences!, allowed: ["owningClient", "owningDigger"] },
    { what: "client's phone", value: w.gig.contactPhone!, allowed: ["owningClient", "owningDigger"] },
    { what: "other consumer's name", value: otherClient.fullName, allowed: ["otherClient", "operator"] },
    { what: "other consumer's e-mail", value: otherClient.email, allowed: ["otherClient", "operator"] },
    // A reviewer is shown as first name and last initial: their last name only to whom saw their name before.
    { what: "reviewer's last name", value: ` ${owningClient.fullName.split(" ").at(-1)!}`, allowed: ["owningClient", "owningDigger", "operator"] },
    // Lead alerts: the digger's own (their /account).
    { what: "owning digger's lead-alert keyword", value: w.leadAlerts.keywords[0]!, allowed: ["owningDigger"] },
    { what: "owning digger's lead-alert location", value: w.leadAlerts.location, allowed: ["owningDigger"] },
    // An operator's name and e-mail: only operators (the Audit log); never the users they act on.
    { what: "operator's full name", value: w.users.operator.fullName, allowed: ["operator"] },
    { what: "operator's e-mail", value: w.users.operator.email, allowed: ["operator"] },
    { what: "review report's reason", value: w.reportReason, allowed: ["operator"] },
    { what: "suspension reason", value: suspension.reason, allowed: ["operator"] },
    { what: "hidden gig's reason", value: hiding.reason, allowed: ["operator"] },
    // A proof's licence number: its digger (the profile editing page) and operators (the queue).
    { what: "credential proof's number", value: w.proofNumber, allowed: ["owningDigger", "operator"] },
    // A thread's message: its two parties; operators only because it is reported (the console's queue, never the thread's address).
    { what: "a thread's message", value: w.message.body, allowed: ["owningClient", "owningDigger", "operator"] },
    { what: "message report's reason", value: w.messageReportReason, allowed: ["operator"] },
    // Attachments: the thread's parties; operators too when the message was reported (the console's queue).
    { what: "a reported message's attachment name", value: w.reportedAttachment.fileName, allowed: ["owningClient", "owningDigger", "operator"] },
    { what: "a reported message's attachment content", value: w.reportedAttachment.secret, allowed: ["owningClient", "owningDigger", "operator"] },
    { what: "an attachment's name", value: w.attachment.fileName, allowed: ["owningClient", "owningDigger"] },
    { what: "an attachment's content", value: w.attachment.secret, allowed: ["owningClient", "owningDigger"] },
    // A visit's time, in the client's zone: the thread's parties (its page), never a forged Confirm link's page.
    { what: "a booked visit's time", value: visiting.window, allowed: ["owningClient", "owningDigger"] },
    // A visit (issue 50): its time and its cancellation's reason, to the thread's two parties only.
    { what: "a visit's time", value: visit.line, allowed: ["owningClient", "owningDigger"] },
    { what: "a visit's cancellation reason", value: visit.reason, allowed: ["owningClient", "owningDigger"] },
    // The bell: each entry to its owner only.
    ...Object.entries(w.notificationOf).map(([role, entry]) => ({ what: `${role}'s notification`, value: entry.text, allowed: [role as Role] })),
  ];
}

/**
 * What no session changes, signed in or not, kept by caches as for everyone: files (the icons,
 * the manifest, the sitemap, robots.txt), and a proof's data twin, refused before any route.
 */
const sessionless = (url: string) => /\.(?!data$)[a-z]+$/.test(url) || /^\/credentials\/[^/]+\/document\.data$/.test(url);

/** The world's pages (crawl.ts), the hidden gig's, the suspended account's, a visit's forged signed link and the Visits list. */
const seeds = (w: World) => [...worldPages(w), `/gig/${hiding.gigId}`, `/ops/users/${suspension.userId}`, visiting.forgedLink, "/visits"];

describe("private data", () => {
  it("appears in no page and no data response that design.md section 6 keeps it from", { timeout: 300_000 }, async () => {
    const leaks: string[] = [];
    const kept: string[] = [];
    const figures: string[] = [];
    for (const role of ROLES) {
      const { pages, responses } = await crawl(
        world.client(role),
        seeds(world),
        ({ url, body, cacheControl }) => {
          for (const secret of secrets(world)) {
            if (!secret.allowed.includes(role) && body.includes(secret.value)) leaks.push(`${secret.what} shown to ${role} at ${url}`);
          }
          // A signed-in answer is the session's (issue 45): no cache keeps it, so no shared
          // device shows it after sign-out. Only the files no session changes are left out.
          if (role !== "signedOut" && !sessionless(url) && cacheControl !== "private, no-store") kept.push(`${url} for ${role}: ${cacheControl}`);
        },
        { data: true },
      );
      figures.push(`${role}: ${pages} pages, ${responses} responses`);
    }
    console.info(`private-data crawl: ${figures.join("; ")}; ${secrets(world).length} private values`);
    expect(leaks).toEqual([]);
    expect(kept, "signed-in answers a cache may keep").toEqual([]);
  });

  it("the crawl reaches the private pages each role may see, so the search above means something", async () => {
    const { owningClient, owningDigger } = world.users;
    const issues = decodeHtml(await (await world.client("owningClient").get(`/my-gigs/${world.gig.id}/issues.data`)).text());
    expect(issues).toContain(owningDigger.businessName);
    const lead = decodeHtml(await (await world.client("owningDigger").get("/my-leads")).text());
    expect(lead).toContain(owningClient.email);
    const buyers = await (await world.client("owningClient").get(`/my-gigs/${world.gig.id}/diggers`)).text();
    expect(buyers).toContain(owningDigger.handle);
    const profile = decodeHtml(await (await world.client("otherClient").get(`/digger/${owningDigger.diggerId}`)).text());
    expect(profile).toContain(world.review.body);
    expect(profile).toContain(reviewerName(owningClient.fullName));
    const form = decodeHtml(await (await world.client("owningDigger").get("/digger-registration")).text());
    expect(form).toContain(world.reference.referenceEmail);
    expect(form).toContain(owningDigger.phone);
    const account = decodeHtml(await (await world.client("owningDigger").get("/account")).text());
    expect(account).toContain(world.leadAlerts.location);
    const suspended = decodeHtml(await (await world.client("operator").get(`/ops/users/${suspension.userId}`)).text());
    expect(suspended).toContain(suspension.reason);
    const reported = decodeHtml(await (await world.client("operator").get("/ops/reviews")).text());
    expect(reported).toContain(world.reportReason);
    expect(decodeHtml(await (await world.client("operator").get("/ops/verification")).text())).toContain(world.proofNumber);
    // Attachments: named in the thread, served at the address it links; the reported one in the console too.
    const thread = decodeHtml(await (await world.client("owningDigger").get(`/messages/${world.thread.id}`)).text());
    expect(thread).toContain(world.attachment.fileName);
    expect(await (await world.client("owningDigger").get(`/messages/${world.thread.id}/attachments/${world.attachment.id}`)).text()).toContain(world.attachment.secret);
    const queue = decodeHtml(await (await world.client("operator").get("/ops/messages")).text());
    expect(queue).toContain(world.reportedAttachment.fileName);
    expect(await (await world.client("operator").get(`/messages/${world.thread.id}/attachments/${world.reportedAttachment.id}`)).text()).toContain(world.reportedAttachment.secret);
    expect(form).toContain(world.proofNumber);
    // The hidden gig's page: its reason for the operator; for its buyer only that it is no longer listed.
    expect(decodeHtml(await (await world.client("operator").get(`/gig/${hiding.gigId}`)).text())).toContain(hiding.reason);
    expect(decodeHtml(await (await world.client("owningDigger").get(`/gig/${hiding.gigId}`)).text())).toContain("This gig is no longer listed");
    // The visit's genuine signed link shows its time (to whoever holds it); the forged one, crawled above, must not.
    expect(decodeHtml(await (await world.client("signedOut").get(visiting.link)).text())).toContain(visiting.window);
    // The visits: on the Visits list of both parties, page and data.
    for (const role of ["owningClient", "owningDigger"] as const) {
      for (const path of ["/visits", "/visits.data"]) {
        const visits = decodeHtml(await (await world.client(role).get(path)).text());
        expect(visits).toContain(visit.line);
        expect(visits).toContain(visit.reason);
      }
    }
  });
});

/**
 * Two-way reviews, blind until both have spoken (issue 51): a review of a hire still blind is its
 * writer's alone (and the operators', in the console). Two hires of the owning digger by the owning client, each with one side's blind
 * review (the client's through the Diggers dialog, the digger's as its operation writes it), and
 * every role's crawl from the world's pages, the two gigs' and the data export searched for both.
 */
describe("private data: blind reviews (issue 51)", () => {
  it("a blind review of either side reaches no browser but its writer's (and an operator's), in any response of any role's crawl", { timeout: 300_000 }, async () => {
    const { owningClient, owningDigger } = world.users;
    const hired = async () => {
      const gig = await insertGig(world.app, owningClient.id);
      const purchase = await insertPurchase(world.app, gig, owningDigger.diggerId);
      const hire = await world.client("owningClient").post(`/my-gigs/${gig.id}/diggers`, { intent: "hire", diggerId: owningDigger.diggerId });
      expect(hire.status).toBe(200);
      return { gig, purchase };
    };
    const clientSide = await hired();
    const clientBody = `Blind client review ${clientSide.gig.id.slice(0, 8)}: tidy work, on time.`;
    const posted = await world.client("owningClient").post(`/my-gigs/${clientSide.gig.id}/diggers`, { intent: "review", diggerId: owningDigger.diggerId, rating: "2", body: clientBody });
    expect(posted.status).toBe(200);
    const diggerSide = await hired();
    const diggerBody = `Blind digger review ${diggerSide.gig.id.slice(0, 8)}: clear brief, paid late.`;
    const settled = await diggerReviewsInWindow(world.app, { gigId: diggerSide.gig.id, diggerId: owningDigger.diggerId, clientId: owningClient.id, leadPurchaseId: diggerSide.purchase.id, rating: 2, body: diggerBody });
    expect(settled).toBe("blind");

    const blind = [
      { what: "the client's blind review of the digger", value: clientBody, writer: "owningClient" as Role },
      { what: "the digger's blind review of the client", value: diggerBody, writer: "owningDigger" as Role },
    ];
    const pages = [...seeds(world), ...[clientSide, diggerSide].flatMap(({ gig }) => [`/gig/${gig.id}`, `/my-gigs/${gig.id}/diggers`, `/my-gigs/${gig.id}/quotes`]), "/account/data"];
    const leaks: string[] = [];
    for (const role of ROLES) {
      await crawl(
        world.client(role),
        pages,
        ({ url, body }) => {
          // Operators see every review in the console (a user's page), blind or not.
          for (const review of blind) if (role !== review.writer && role !== "operator" && body.includes(review.value)) leaks.push(`${review.what} shown to ${role} at ${url}`);
        },
        { data: true },
      );
    }
    expect(leaks).toEqual([]);
    // The search means something: each writer reads their own (the client in the Diggers dialog, the digger in their export).
    expect(await (await world.client("owningClient").get(`/my-gigs/${clientSide.gig.id}/diggers`)).text()).toContain(clientBody);
    expect(await (await world.client("owningDigger").get("/account/data")).text()).toContain(diggerBody);
  });
});
