/**
 * The client's gigs and their phones (issue 49): Post Gig and Edit Gig store numbers in E.164
 * and refuse those that cannot receive texts; a new number the account has not verified gets a
 * code (a row in phone_codes, a text in local mode's outbox) and the code step; the account's
 * verified number fills Post Gig; free-text numbers of before stay as they are until changed;
 * changing a number clears its verification; My Gigs and Edit Gig offer 'Verify this number'
 * for the owner's gigs only.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { queryRows } from "../../server/db/client.ts";
import { gigs, phoneCodes, phoneVerifications, smsOutbox } from "../../server/db/schema.ts";
import type { SessionUser } from "../../core/session-user.ts";
import { postGig } from "../../server/gigs/post-gig.ts";
import { perform } from "../../server/operation.ts";
import { checkPhoneCode } from "../../server/phones/check-code.ts";
import { changeUser, flashAfter, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { decodeHtml, diggerWithProfile, insertGig, insertPurchase, topLevelCategoryId } from "../support/leads.ts";
import { location } from "../support/session-client.ts";

let app: TestApp;
let categoryId: string;
beforeAll(async () => {
  app = await createTestApp();
  categoryId = await topLevelCategoryId(app);
});
afterAll(() => app.close());

const db = () => app.database.db;
const gigsOf = (user: TestUser) => db().select().from(gigs).where(eq(gigs.clientId, user.id));
const codeOf = async (user: TestUser) => (await db().select().from(phoneCodes).where(eq(phoneCodes.userId, user.id)))[0];
const textsTo = (phone: string) => db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
const verify = (user: TestUser, phone: string) => db().insert(phoneVerifications).values({ userId: user.id, phone });
const verificationsOf = (user: TestUser) => db().select({ phone: phoneVerifications.phone }).from(phoneVerifications).where(eq(phoneVerifications.userId, user.id));
const gigRow = async (id: string) => (await db().select().from(gigs).where(eq(gigs.id, id)))[0]!;
const editForm = (over: Record<string, string>) => {
  const { acceptTerms: _, ...form } = validGigForm(categoryId, over);
  return form;
};
/** The code of the newest text to `phone`, as the client reads it in the text. */
async function codeSentTo(phone: string): Promise<string> {
  const [row] = await queryRows<{ body: string }>(db(), sql`select body from sms_outbox where to_phone = ${phone} order by created_at desc limit 1`);
  return /^(\d{6}) /.exec(row!.body)![1]!;
}

describe("posting a gig with a phone", () => {
  it("stores the number in E.164, sends a code to verify it, and goes to the code step", async () => {
    const client = await signUpAs(app, "consumer");
    const response = await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: " (512) 555-0123 " }));
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/verify-phone?next=/my-gigs");
    const [gig] = await gigsOf(client);
    expect(gig).toMatchObject({ contactPhone: "+15125550123", phoneVerifiedAt: null });
    expect(await codeOf(client)).toMatchObject({ phone: "+15125550123", gigId: gig!.id, forAccount: false, triesLeft: 5 });
    const texts = await textsTo("+15125550123");
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/^\d{6} is your Digs & Gigs code/);
    // The right code verifies the gig's number: its phone shows verified.
    await checkPhoneCode(app.services, client.id, await codeSentTo("+15125550123"));
    expect((await gigRow(gig!.id)).phoneVerifiedAt).not.toBeNull();
  });

  it("refuses a number that cannot receive texts (impossible, toll free, premium) with the message beside the field", async () => {
    const client = await signUpAs(app, "consumer");
    for (const phone of ["call me", "555-1234", "+1 303 1234567", "(800) 555-0100", "1-900-555-0100", "(((-)))"]) {
      const response = await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: phone }));
      expect(response.status, phone).toBe(400);
      const html = decodeHtml(await response.text());
      expect(html, phone).toContain(PHONE_TEXTS.invalidNumber);
      expect(html, phone).toContain('aria-invalid="true"');
    }
    expect(await gigsOf(client)).toHaveLength(0);
    expect(await codeOf(client)).toBeUndefined();
  });

  it("posts without a code when no phone is given", async () => {
    const client = await signUpAs(app, "consumer");
    const response = await client.client.post("/post-gig", validGigForm(categoryId));
    expect(location(response)).toBe("/");
    expect((await gigsOf(client))[0]).toMatchObject({ contactPhone: null, phoneVerifiedAt: null });
    expect(await codeOf(client)).toBeUndefined();
  });

  it("sends no code for a number the account verified: the gig is verified at once", async () => {
    const client = await signUpAs(app, "consumer");
    await verify(client, "+15125550124");
    const response = await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: "512-555-0124" }));
    expect(location(response)).toBe("/");
    expect(await flashAfter(client.client)).toContain("Gig posted successfully!");
    expect((await gigsOf(client))[0]!.phoneVerifiedAt).not.toBeNull();
    expect(await codeOf(client)).toBeUndefined();
    expect(await textsTo("+15125550124")).toHaveLength(0);
  });

  it("keeps today's 'Almost done' path for a client whose e-mail is not confirmed: no code", async () => {
    const client = await signUpAs(app, "consumer");
    await changeUser(app, client.id, { emailVerified: false });
    const response = await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: "512 555 0125" }));
    expect(location(response)).toBe("/my-gigs");
    expect((await gigsOf(client))[0]).toMatchObject({ contactPhone: "+15125550125", published: false });
    expect(await codeOf(client)).toBeUndefined();
    expect(await textsTo("+15125550125")).toHaveLength(0);
  });

  it("still posts the gig when the code is refused by a sending limit, and says so", async () => {
    // Three codes per number per 10 minutes, whoever asks: the fourth client's gig gets none.
    const phone = "+15125550126";
    for (let i = 0; i < 3; i++) {
      const client = await signUpAs(app, "consumer");
      expect(location(await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: phone })))).toBe("/verify-phone?next=/my-gigs");
    }
    const fourth = await signUpAs(app, "consumer");
    const response = await fourth.client.post("/post-gig", validGigForm(categoryId, { contactPhone: phone }));
    expect(location(response)).toBe("/");
    const flash = decodeHtml(await flashAfter(fourth.client));
    expect(flash).toContain(`Gig posted successfully! ${PHONE_TEXTS.tooManyCodes}`);
    expect((await gigsOf(fourth))[0]).toMatchObject({ contactPhone: phone, phoneVerifiedAt: null });
    expect(await codeOf(fourth)).toBeUndefined();
    expect(await textsTo(phone)).toHaveLength(3);
  });
});

describe("with phone verification off (production without SMS_PROVIDER)", () => {
  it("posts and edits in E.164 without a code", async () => {
    const client = await signUpAs(app, "consumer");
    const services = { ...app.services, config: { ...app.config, sms: null }, sms: null };
    const caller = { user: { id: client.id, timeZone: null } as SessionUser, clientIp: "127.0.0.1", logger: app.services.logger, sessionId: undefined, userAgent: null, sessionCookies: [] };
    const form = new FormData();
    for (const [name, value] of Object.entries(validGigForm(categoryId, { contactPhone: "512 555 0140" }))) form.set(name, value);
    const posted = await perform(postGig, caller, { services, form });
    expect(posted.code).toEqual({ sent: false, notice: null });
    expect(await gigRow(posted.id)).toMatchObject({ contactPhone: "+15125550140", phoneVerifiedAt: null });
    expect(await codeOf(client)).toBeUndefined();
    expect(await textsTo("+15125550140")).toHaveLength(0);
  });
});

describe("Post Gig's phone field", () => {
  it("is filled with the account's number when the account verified it, and left empty otherwise", async () => {
    const client = await signUpAs(app, "consumer");
    await changeUser(app, client.id, { phone: "+15125550127" });
    const unverified = decodeHtml(await (await client.client.get("/post-gig")).text());
    expect(unverified).not.toContain("512 555 0127");
    await verify(client, "+15125550127");
    const page = decodeHtml(await (await client.client.get("/post-gig")).text());
    expect(page).toMatch(/name="contactPhone"[^>]*value="\+1 512 555 0127"/);
    // Posting it as filled: the verified number, no code.
    const response = await client.client.post("/post-gig", validGigForm(categoryId, { contactPhone: "+1 512 555 0127" }));
    expect(location(response)).toBe("/");
    expect((await gigsOf(client))[0]!.phoneVerifiedAt).not.toBeNull();
  });
});

describe("editing a gig's phone", () => {
  it("shows a free-text number of before as it was typed, and leaves it as it is when the field is not changed", async () => {
    const client = await signUpAs(app, "consumer");
    const gig = await insertGig(app, client.id, { contactPhone: "+1 (303) 555-0142" });
    const page = decodeHtml(await (await client.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain('value="+1 (303) 555-0142"');
    expect(page).toContain(PHONE_TEXTS.notVerified);
    expect(page).toContain(PHONE_TEXTS.verifyNumber);
    const saved = await client.client.post(`/my-gigs/${gig.id}/edit`, editForm({ title: "Repaint the back porch rails", contactPhone: "+1 (303) 555-0142" }));
    expect(location(saved)).toBe("/my-gigs");
    expect(await gigRow(gig.id)).toMatchObject({ title: "Repaint the back porch rails", contactPhone: "+1 (303) 555-0142" });
    expect(await codeOf(client)).toBeUndefined();
    // A free text that is no number at all, left as it is, is not refused either; bought, the same.
    const old = await insertGig(app, client.id, { contactPhone: "555-1234" });
    await insertPurchase(app, old, (await diggerWithProfile(app)).diggerId);
    const four = { timeline: "Next spring", deadline: "", contactPreferences: "", contactPhone: "555-1234" };
    expect(location(await client.client.post(`/my-gigs/${old.id}/edit`, four))).toBe("/my-gigs");
    expect(await gigRow(old.id)).toMatchObject({ timeline: "Next spring", contactPhone: "555-1234" });
    // Changed, it is read like a new number: refused with the field's message.
    const changed = await client.client.post(`/my-gigs/${old.id}/edit`, { ...four, contactPhone: "555-12345" });
    expect(changed.status).toBe(400);
    expect(decodeHtml(await changed.text())).toContain(PHONE_TEXTS.invalidNumber);
    expect((await gigRow(old.id)).contactPhone).toBe("555-1234");
  });

  it("shows an E.164 number as its reader writes it; sent back so, nothing changes and no code is sent", async () => {
    const client = await signUpAs(app, "consumer");
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550128" });
    const page = decodeHtml(await (await client.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain('value="+1 512 555 0128"');
    expect(location(await client.client.post(`/my-gigs/${gig.id}/edit`, editForm({ contactPhone: "+1 512 555 0128" })))).toBe("/my-gigs");
    expect((await gigRow(gig.id)).contactPhone).toBe("+15125550128");
    expect(await codeOf(client)).toBeUndefined();
  });

  it("changing the number stores it in E.164, clears the gig's verification, forgets the old number when unused, and sends a code", async () => {
    const client = await signUpAs(app, "consumer");
    await verify(client, "+15125550129");
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550129" });
    expect((await gigRow(gig.id)).phoneVerifiedAt).not.toBeNull();
    expect(decodeHtml(await (await client.client.get(`/my-gigs/${gig.id}/edit`)).text())).toContain(PHONE_TEXTS.verified);

    const saved = await client.client.post(`/my-gigs/${gig.id}/edit`, editForm({ contactPhone: "512.555.0130" }));
    expect(location(saved)).toBe("/verify-phone?next=/my-gigs");
    expect(await gigRow(gig.id)).toMatchObject({ contactPhone: "+15125550130", phoneVerifiedAt: null });
    expect(await verificationsOf(client)).toEqual([]);
    expect(await codeOf(client)).toMatchObject({ phone: "+15125550130", gigId: gig.id, forAccount: false });
    expect(await textsTo("+15125550130")).toHaveLength(1);
    const page = decodeHtml(await (await client.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain(PHONE_TEXTS.notVerified);
  });

  it("keeps the old number's verification while another of the account's gigs gives it, and drops a code waiting for the old number", async () => {
    const client = await signUpAs(app, "consumer");
    await verify(client, "+15125550131");
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550131" });
    const other = await insertGig(app, client.id, { contactPhone: "+15125550131" });
    // An unverified number of a third gig waits for its code; the gig then changes to a verified one.
    const third = await insertGig(app, client.id, { contactPhone: "+15125550132" });
    expect(location(await client.client.post("/my-gigs", { intent: "verify-phone", gigId: third.id }))).toBe("/verify-phone?next=/my-gigs");
    const code = await codeSentTo("+15125550132");
    expect(location(await client.client.post(`/my-gigs/${third.id}/edit`, editForm({ contactPhone: "+15125550131" })))).toBe("/my-gigs");
    expect(await codeOf(client)).toBeUndefined();
    await expect(checkPhoneCode(app.services, client.id, code)).rejects.toMatchObject({ message: PHONE_TEXTS.noCode });
    expect(await gigRow(third.id)).toMatchObject({ contactPhone: "+15125550131" });
    expect((await gigRow(third.id)).phoneVerifiedAt).not.toBeNull();

    // The first gig's number changes: the others still give the old number, whose verification stays.
    await db().delete(phoneCodes).where(eq(phoneCodes.userId, client.id));
    await client.client.post(`/my-gigs/${gig.id}/edit`, editForm({ contactPhone: "" }));
    expect(await gigRow(gig.id)).toMatchObject({ contactPhone: null, phoneVerifiedAt: null });
    expect(await verificationsOf(client)).toEqual([{ phone: "+15125550131" }]);
    expect((await gigRow(other.id)).phoneVerifiedAt).not.toBeNull();
  });

  it("a change to a number the account verified is verified at once, without a code", async () => {
    const client = await signUpAs(app, "consumer");
    await verify(client, "+15125550133");
    const gig = await insertGig(app, client.id, { contactPhone: "+1 (303) 555-0143" });
    expect(location(await client.client.post(`/my-gigs/${gig.id}/edit`, editForm({ contactPhone: "(512) 555-0133" })))).toBe("/my-gigs");
    expect(await gigRow(gig.id)).toMatchObject({ contactPhone: "+15125550133" });
    expect((await gigRow(gig.id)).phoneVerifiedAt).not.toBeNull();
    expect(await codeOf(client)).toBeUndefined();
  });

  it("changing a bought gig's number is still allowed, and gets a code", async () => {
    const client = await signUpAs(app, "consumer");
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550134" });
    await insertPurchase(app, gig, (await diggerWithProfile(app)).diggerId);
    const form = { timeline: gig.timeline, deadline: "", contactPreferences: "", contactPhone: "512 555 0135" };
    expect(location(await client.client.post(`/my-gigs/${gig.id}/edit`, form))).toBe("/verify-phone?next=/my-gigs");
    expect((await gigRow(gig.id)).contactPhone).toBe("+15125550135");
    expect(await codeOf(client)).toMatchObject({ phone: "+15125550135", gigId: gig.id });
  });

  it("'Verify this number' on Edit Gig sends the code to a free-text number's E.164 form; verifying it stores that form", async () => {
    const client = await signUpAs(app, "consumer");
    const gig = await insertGig(app, client.id, { contactPhone: "+1 (303) 555-0144" });
    const response = await client.client.post(`/my-gigs/${gig.id}/edit`, { intent: "verify-phone", gigId: gig.id });
    expect(location(response)).toBe(`/verify-phone?next=/my-gigs/${gig.id}/edit`);
    expect(await codeOf(client)).toMatchObject({ phone: "+13035550144", gigId: gig.id, forAccount: false });
    await checkPhoneCode(app.services, client.id, await codeSentTo("+13035550144"));
    expect(await gigRow(gig.id)).toMatchObject({ contactPhone: "+13035550144" });
    expect((await gigRow(gig.id)).phoneVerifiedAt).not.toBeNull();
    const page = decodeHtml(await (await client.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain(PHONE_TEXTS.verified);
    expect(page).not.toContain(PHONE_TEXTS.verifyNumber);

    // A free text that is no number: the field's message, and no code.
    const bad = await insertGig(app, client.id, { contactPhone: "555-1234" });
    const refused = await client.client.post(`/my-gigs/${bad.id}/edit`, { intent: "verify-phone", gigId: bad.id });
    expect(refused.status).toBe(400);
    const html = decodeHtml(await refused.text());
    expect(html).toContain(PHONE_TEXTS.invalidNumber);
    expect(html).toContain('aria-invalid="true"');
    expect(await codeOf(client)).toBeUndefined();
  });
});

describe("My Gigs' phones", () => {
  it("shows each gig's phone status, and 'Verify this number' only where it is not verified", async () => {
    const client = await signUpAs(app, "consumer");
    await verify(client, "+15125550136");
    await insertGig(app, client.id, { title: "Verified phone gig here", contactPhone: "+15125550136" });
    await insertGig(app, client.id, { title: "Unverified phone gig here", contactPhone: "+15125550137" });
    await insertGig(app, client.id, { title: "No phone gig here at all", contactPhone: null });
    const page = decodeHtml(await (await client.client.get("/my-gigs")).text());
    const card = (title: string) => page.slice(page.indexOf(title), page.indexOf("</li>", page.indexOf(title)));
    expect(card("Verified phone gig here")).toContain(PHONE_TEXTS.verified);
    expect(card("Verified phone gig here")).not.toContain(PHONE_TEXTS.verifyNumber);
    expect(card("Unverified phone gig here")).toContain(PHONE_TEXTS.notVerified);
    expect(card("Unverified phone gig here")).toContain(PHONE_TEXTS.verifyNumber);
    for (const text of [PHONE_TEXTS.verified, PHONE_TEXTS.notVerified]) expect(card("No phone gig here at all")).not.toContain(text);
    // The number itself is not on the card.
    expect(page).not.toContain("555 0137");
  });

  it("'Verify this number' sends a code for the owner's gig only; another's gig is 'Gig not found'", async () => {
    const owner = await signUpAs(app, "consumer");
    const gig = await insertGig(app, owner.id, { contactPhone: "+15125550138" });
    const stranger = await signUpAs(app, "consumer");
    const refused = await stranger.client.post("/my-gigs", { intent: "verify-phone", gigId: gig.id });
    expect(refused.status).toBe(404);
    expect(decodeHtml(await refused.text())).toContain("Gig not found");
    for (const gigId of ["not-a-uuid", ""]) expect((await stranger.client.post("/my-gigs", { intent: "verify-phone", gigId })).status).toBe(404);
    expect(await codeOf(stranger)).toBeUndefined();
    expect(await textsTo("+15125550138")).toHaveLength(0);
    // Nor through its edit page: answered 404 (the page it would show again sends them back to My Gigs).
    expect(location(await stranger.client.post(`/my-gigs/${gig.id}/edit`, { intent: "verify-phone", gigId: gig.id }))).toBe("/my-gigs");
    expect((await stranger.client.post(`/my-gigs/${gig.id}/edit.data`, { intent: "verify-phone", gigId: gig.id })).status).toBe(404);

    const response = await owner.client.post("/my-gigs", { intent: "verify-phone", gigId: gig.id });
    expect(location(response)).toBe("/verify-phone?next=/my-gigs");
    expect(await codeOf(owner)).toMatchObject({ phone: "+15125550138", gigId: gig.id });
    expect(await textsTo("+15125550138")).toHaveLength(1);
    // A second press within the minute: the wait, no second text.
    const again = await owner.client.post("/my-gigs", { intent: "verify-phone", gigId: gig.id });
    expect(again.status).toBe(429);
    expect(await textsTo("+15125550138")).toHaveLength(1);
  });

  it("a client whose e-mail is not confirmed is told to confirm it first; a verified gig sends nothing", async () => {
    const client = await signUpAs(app, "consumer");
    const gig = await insertGig(app, client.id, { contactPhone: "+15125550139" });
    await changeUser(app, client.id, { emailVerified: false });
    const refused = await client.client.post("/my-gigs", { intent: "verify-phone", gigId: gig.id });
    expect(refused.status).toBe(403);
    expect(decodeHtml(await refused.text())).toContain(PHONE_TEXTS.confirmEmailFirst);
    await changeUser(app, client.id, { emailVerified: true });
    await verify(client, "+15125550139");
    const verified = await client.client.post("/my-gigs", { intent: "verify-phone", gigId: gig.id });
    expect(location(verified)).toBe("/my-gigs");
    expect(await codeOf(client)).toBeUndefined();
    expect(await textsTo("+15125550139")).toHaveLength(0);
  });
});
