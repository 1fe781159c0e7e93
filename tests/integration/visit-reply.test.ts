/**
 * The client's signed Confirm / Need to change link of a visit's 24-hour reminder (issue 50;
 * /visit-reply, docs/decisions/0076-site-visits.md "The signed link"): usable signed out, like
 * unsubscribe. Opening it changes nothing (mail scanners follow links) and shows the visit's time
 * in the client's zone; its button confirms (client_confirmed_at, the digger's open thread hears
 * of it) or tells the digger of a needed change (bell and e-mail). A tampered, truncated, another
 * visit's or an old token, and a cancelled or started visit, change nothing and show nothing of
 * the visit.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIVE_PATH } from "../../core/live-events.ts";
import { VISIT_ANSWERS, VISIT_TEXTS } from "../../core/visits.ts";
import { diggerProfiles, notifications, visitOptions, visits } from "../../server/db/schema.ts";
import { signVisitAnswerToken, visitAnswerUrl } from "../../server/mail/visit-answer-token.ts";
import { readerTime } from "../../server/reader-time.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, mailTo, type BoughtLead } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";
import { SseStream } from "../support/sse.ts";
import { bookVisitRows, cancelVisitRows, moveVisitRows, setZones, visitRow, type Visit } from "../support/visit-rows.ts";

const LOS_ANGELES = "America/Los_Angeles";
const DAY = 24 * 3600_000;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
const streams: SseStream[] = [];
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.cancel()));
  await app.close();
});

async function bookedLead(): Promise<{ lead: BoughtLead; visit: Visit; handle: string }> {
  const lead = await boughtLead(app);
  await setZones(app, { [lead.digger.id]: "America/Chicago", [lead.client.id]: LOS_ANGELES });
  const visit = await bookVisitRows(app, lead, { startsAt: new Date(Math.floor((Date.now() + 3 * DAY) / 60_000) * 60_000), windowMinutes: 120 });
  const [profile] = await app.database.db.select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, lead.digger.diggerId));
  return { lead, visit, handle: profile!.handle };
}

const tokenOf = (visit: Pick<Visit, "id" | "sequence" | "clientId">) => signVisitAnswerToken(app.config.authSecret, visit);
/** The link's path as the e-mail writes it. */
const linkOf = (token: string, answer: "confirm" | "change") => visitAnswerUrl("", token, answer);
/** Somebody with no session: the link is for use without signing in. */
const visitor = () => new SessionClient(app);
const page = async (response: Response) => decodeHtml(await response.text());

describe("the signed link, signed out", () => {
  it("opening it shows the visit's time in the client's zone and changes nothing; Confirm marks it confirmed and the digger's open thread hears of it", async () => {
    const { lead, visit, handle } = await bookedLead();
    const token = tokenOf(visit);
    const window = readerTime(LOS_ANGELES, app.config).visitWindow(visit.startsAt, 120);

    const opened = await visitor().get(linkOf(token, "confirm"));
    expect(opened.status).toBe(200);
    const html = await page(opened);
    expect(html).toContain(window);
    expect(html).toContain(`Visit about "${lead.gig.title}" with ${handle}`);
    expect(html).toMatch(/<form [^>]*action="\/visit-reply\?token=[^"]+" method="post">/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Confirm<\/button>/);
    // A scanner opening both links changes nothing.
    expect((await visitor().get(linkOf(token, "change"))).status).toBe(200);
    expect(await visitRow(app, visit.id)).toMatchObject({ clientConfirmedAt: null, changeRequestedAt: null });

    const response = await app.request(LIVE_PATH, { headers: { cookie: lead.digger.client.cookieHeader() } });
    expect(response.status).toBe(200);
    const stream = new SseStream(response);
    streams.push(stream);
    await vi.waitFor(() => expect(stream.named("ready")).toHaveLength(1));

    const confirmed = await visitor().post(linkOf(token, "confirm"), { token, answer: "confirm" });
    expect(confirmed.status).toBe(200);
    expect(await page(confirmed)).toContain(VISIT_TEXTS.confirmed);
    expect((await visitRow(app, visit.id)).clientConfirmedAt).toBeInstanceOf(Date);
    await vi.waitFor(() => expect(stream.named("thread").map((event) => (JSON.parse(event.data) as { threadId: string }).threadId)).toContain(lead.threadId));
    // Once more: nothing new, still confirmed.
    expect((await visitor().post(linkOf(token, "confirm"), { token, answer: "confirm" })).status).toBe(200);
    expect(await page(await visitor().get(linkOf(token, "confirm")))).toContain("You already confirmed this visit.");
  });

  it("Need to change tells the digger (bell and e-mail) and takes back a confirmation", async () => {
    const { lead, visit } = await bookedLead();
    const token = tokenOf(visit);
    await visitor().post(linkOf(token, "confirm"), { token, answer: "confirm" });
    const asked = await visitor().post(linkOf(token, "change"), { token, answer: "change" });
    expect(asked.status).toBe(200);
    expect(await page(asked)).toContain(VISIT_TEXTS.changeAsked);
    const row = await visitRow(app, visit.id);
    expect(row.changeRequestedAt).toBeInstanceOf(Date);
    expect(row.clientConfirmedAt).toBeNull();
    const told = (await mailTo(app, lead.digger.email)).filter((m) => m.subject === `Clara needs to change the visit for "${lead.gig.title}"`);
    expect(told).toHaveLength(1);
    const bells = await app.database.db.select().from(notifications).where(eq(notifications.userId, lead.digger.id));
    expect(bells.map((b) => b.kind)).toContain("visit.change-requested");
  });
});

describe("a link that cannot be used", () => {
  it("a tampered, truncated, another visit's, another secret's or badly answered link: 'not valid', nothing of the visit, nothing changed", async () => {
    const { lead, visit, handle } = await bookedLead();
    const other = await bookedLead();
    const token = tokenOf(visit);
    const signature = token.slice(token.lastIndexOf(".") + 1);
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const otherSignature = tokenOf(other.visit).split(".")[2]!;
    const bad: Array<[string, string, string]> = [
      ["tampered", flipped, "confirm"],
      ["truncated", token.slice(0, -6), "confirm"],
      ["without its signature", token.slice(0, token.lastIndexOf(".")), "confirm"],
      ["another visit's signature on this visit", `${visit.id}.0.${otherSignature}`, "confirm"],
      ["this visit's signature on another visit", `${other.visit.id}.0.${signature}`, "change"],
      ["signed with another secret", signVisitAnswerToken("another-secret-that-is-long-enough-00", visit), "confirm"],
      ["signed for another client", signVisitAnswerToken(app.config.authSecret, { ...visit, clientId: other.lead.client.id }), "confirm"],
      ["an unknown answer", token, "cancel"],
      ["empty", "", "confirm"],
    ];
    for (const [what, badToken, answer] of bad) {
      const path = `/visit-reply?token=${encodeURIComponent(badToken)}&answer=${answer}`;
      const opened = await page(await visitor().get(path));
      expect({ what, refused: opened.includes(VISIT_ANSWERS.linkInvalid) }).toEqual({ what, refused: true });
      for (const secret of [lead.gig.title, handle, other.lead.gig.title, other.handle, "Confirm</button>"]) expect({ what, shows: opened.includes(secret) }).toEqual({ what, shows: false });
      const posted = await visitor().post(path, { token: badToken, answer });
      expect({ what, status: posted.status }).toEqual({ what, status: 400 });
      expect(await page(posted)).toContain(VISIT_ANSWERS.linkInvalid);
    }
    for (const one of [visit, other.visit]) expect(await visitRow(app, one.id)).toMatchObject({ clientConfirmedAt: null, changeRequestedAt: null });
  });

  it("a link of before a move is old; a cancelled visit's and a started one's say so; none changes anything", async () => {
    const moving = await bookedLead();
    const oldToken = tokenOf(moving.visit);
    await moveVisitRows(app, moving.lead, moving.visit, { startsAt: new Date(Date.now() + 5 * DAY), windowMinutes: 60 });
    const oldPage = await page(await visitor().get(linkOf(oldToken, "confirm")));
    expect(oldPage).toContain(VISIT_ANSWERS.linkOld);
    expect(oldPage).not.toContain(moving.lead.gig.title);
    const oldPost = await visitor().post(linkOf(oldToken, "confirm"), { token: oldToken, answer: "confirm" });
    expect(oldPost.status).toBe(409);
    expect(await page(oldPost)).toContain(VISIT_ANSWERS.linkOld);
    // The moved visit's own link works.
    const current = tokenOf(await visitRow(app, moving.visit.id));
    expect((await visitor().post(linkOf(current, "confirm"), { token: current, answer: "confirm" })).status).toBe(200);

    const cancelling = await bookedLead();
    const cancelledToken = tokenOf(cancelling.visit);
    await cancelVisitRows(app, cancelling.visit.id, "digger", "Sorry");
    expect(await page(await visitor().get(linkOf(cancelledToken, "change")))).toContain(VISIT_ANSWERS.cancelled);
    const cancelledPost = await visitor().post(linkOf(cancelledToken, "change"), { token: cancelledToken, answer: "change" });
    expect(cancelledPost.status).toBe(409);
    expect(await page(cancelledPost)).toContain(VISIT_ANSWERS.cancelled);
    expect(await visitRow(app, cancelling.visit.id)).toMatchObject({ changeRequestedAt: null, status: "cancelled" });

    // A visit whose window has opened (written as it would stand an hour after its start).
    const starting = await bookedLead();
    const startedAt = new Date(Date.now() - 3600_000);
    await app.database.db.update(visits).set({ startsAt: startedAt, endsAt: new Date(startedAt.getTime() + 2 * 3600_000) }).where(eq(visits.id, starting.visit.id));
    await app.database.db.update(visitOptions).set({ startsAt: startedAt }).where(eq(visitOptions.proposalId, starting.visit.proposalId));
    const startedToken = tokenOf(starting.visit);
    expect(await page(await visitor().get(linkOf(startedToken, "confirm")))).toContain(VISIT_ANSWERS.started);
    const startedPost = await visitor().post(linkOf(startedToken, "confirm"), { token: startedToken, answer: "confirm" });
    expect(startedPost.status).toBe(409);
    expect((await visitRow(app, starting.visit.id)).clientConfirmedAt).toBeNull();
  });
});
