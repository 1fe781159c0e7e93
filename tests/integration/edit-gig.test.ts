/**
 * Editing and deleting a gig (issue 23): every field while nobody has bought it; after a
 * purchase (or while a checkout holds a spot) only the timeline, deadline, contact preferences
 * and phone; deleting until a purchase completes, whatever checkouts were started (issue 30,
 * finding 11: a gig with purchase rows is marked deleted, its text removed). Nobody but the
 * owner gets anything but 'Gig not found', and a refused request changes nothing.
 */
import { eq } from "drizzle-orm";
import { editBoughtGigSchema } from "../../core/gig-schema.ts";
import { GIG_EDIT_TEXTS } from "../../core/gig-texts.ts";
import { HOLD_MINUTES } from "../../core/lead-spots.ts";
import { PHONE_TEXTS } from "../../core/phone-verification.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gigs, leadPurchases, phoneVerifications } from "../../server/db/schema.ts";
import { DELETED_GIG } from "../../server/gigs/remove-gig.ts";
import { gigPhoneReader } from "../../server/gigs/gig-phone.ts";
import { updateGig } from "../../server/gigs/save-gig.ts";
import { flashAfter, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validGigForm } from "../support/forms.ts";
import { ageCheckout, decodeHtml, diggerWithProfile, insertGig, insertPurchase, topLevelCategoryId, type TestGig } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let owner: TestUser;
let categoryId: string;
beforeAll(async () => {
  app = await createTestApp();
  owner = await signUpAs(app, "consumer", "Olive Owner");
  categoryId = await topLevelCategoryId(app);
});
afterAll(() => app.close());

const rowOf = async (gig: TestGig) => (await app.database.db.select().from(gigs).where(eq(gigs.id, gig.id)))[0];
const editForm = (over: Record<string, string> = {}) => {
  const { acceptTerms: _, ...form } = validGigForm(categoryId, over);
  return form;
};

describe("editing a gig nobody has bought", () => {
  it("shows every field with the gig's values, and saves them all", async () => {
    const gig = await insertGig(app, owner.id, { deadline: "2031-01-15", contactPhone: "303 555 0101" });
    const page = decodeHtml(await (await owner.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain("Edit Gig");
    expect(page).toContain(`value="${gig.title}"`);
    expect(page).toContain('value="303 555 0101"');
    expect(page).toContain('value="2031-01-15"');
    expect(page).not.toContain("Someone has bought this lead");
    expect(page).toContain("Delete");

    // A number the owner verified already (a new one would go to the code step: gig-phone.test.ts), stored in E.164.
    await app.database.db.insert(phoneVerifications).values({ userId: owner.id, phone: "+17205550102" });
    const saved = await owner.client.post(`/my-gigs/${gig.id}/edit`, editForm({ title: "Rebuild the garden shed roof", budgetMin: "2000", budgetMax: "", contactPhone: "+1 720 555 0102" }));
    expect(saved.status).toBe(302);
    expect(location(saved)).toBe("/my-gigs");
    expect(decodeHtml(await (await owner.client.get("/my-gigs")).text())).toContain("Gig updated");
    expect(await rowOf(gig)).toMatchObject({ title: "Rebuild the garden shed roof", budgetMinCents: 200_000, budgetMaxCents: null, contactPhone: "+17205550102", maxDiggers: 3 });
  });

  it("refuses bad values with the posting form's messages and changes nothing", async () => {
    const gig = await insertGig(app, owner.id);
    for (const [over, message] of [
      [{ title: "short" }, "Title must be at least 10 characters"],
      [{ contactPhone: "call me" }, PHONE_TEXTS.invalidNumber],
      [{ budgetMin: "900", budgetMax: "100" }, "Minimum budget cannot be greater than maximum budget"],
      [{ deadline: "2000-01-01" }, "The deadline cannot be in the past"],
      [{ categoryId: "00000000-0000-4000-8000-000000000000" }, "Please select a category"],
    ] as const) {
      const response = await owner.client.post(`/my-gigs/${gig.id}/edit`, editForm(over));
      expect(response.status, message).toBe(400);
      expect(decodeHtml(await response.text())).toContain(message);
    }
    expect(await rowOf(gig)).toMatchObject({ title: gig.title, description: gig.description, budgetMinCents: gig.budgetMinCents });
  });
});

describe("editing a bought gig", () => {
  it("says why only four fields can change, and saves those", async () => {
    const gig = await insertGig(app, owner.id);
    const digger = await diggerWithProfile(app);
    await insertPurchase(app, gig, digger.diggerId);
    const page = decodeHtml(await (await owner.client.get(`/my-gigs/${gig.id}/edit`)).text());
    expect(page).toContain("Someone has bought this lead, so only the timeline, deadline, contact preferences and phone can change");
    // The locked fields are shown disabled (a disabled control is not sent).
    const titleInput = /<input[^>]*name="title"[^>]*>/.exec(page)?.[0] ?? "";
    expect(titleInput).toContain("disabled");
    // No Delete: it has been bought.
    expect(page).not.toContain(">Delete<");

    const saved = await owner.client.post(`/my-gigs/${gig.id}/edit`, { timeline: "Next spring", deadline: "2031-04-01", contactPreferences: "Mornings", contactPhone: "303-555-0177" });
    expect(saved.status).toBe(302);
    expect(await rowOf(gig)).toMatchObject({ timeline: "Next spring", deadline: "2031-04-01", contactPreferences: "Mornings", contactPhone: "+13035550177", title: gig.title });
  });

  it("refuses a change to any other field with 409 (bought while the client was editing) and changes nothing", async () => {
    const gig = await insertGig(app, owner.id);
    const digger = await diggerWithProfile(app);
    await insertPurchase(app, gig, digger.diggerId);
    const changes: Array<Record<string, string>> = [{ title: "A different title here" }, { budgetMin: "1" }, { maxDiggers: "1" }, { description: "x".repeat(60) }, { somethingElse: "1" }];
    for (const over of changes) {
      const response = await owner.client.post(`/my-gigs/${gig.id}/edit`, { timeline: "Changed too", ...over });
      expect(response.status, JSON.stringify(over)).toBe(409);
      expect(decodeHtml(await response.text())).toContain("Someone bought this lead while you were editing");
    }
    // Sent unchanged (a form loaded before the purchase), the locked fields are not a change.
    const unchanged = await owner.client.post(`/my-gigs/${gig.id}/edit`, {
      title: gig.title,
      budgetMin: String(gig.budgetMinCents! / 100),
      timeline: "Only this changed",
    });
    expect(unchanged.status).toBe(302);
    expect(await rowOf(gig)).toMatchObject({ title: gig.title, budgetMinCents: gig.budgetMinCents, timeline: "Only this changed" });
  });

  it("refuses bad values of the four fields with the posting form's messages and changes nothing", async () => {
    const gig = await insertGig(app, owner.id);
    await insertPurchase(app, gig, (await diggerWithProfile(app)).diggerId);
    const four = { timeline: "Next spring", deadline: "", contactPreferences: "", contactPhone: "" };
    for (const [over, message] of [
      [{ timeline: "  " }, "Timeline is required"],
      [{ contactPhone: "call me" }, PHONE_TEXTS.invalidNumber],
      [{ deadline: "2000-01-01" }, "The deadline cannot be in the past"],
      [{ deadline: "next week" }, "Please enter a valid date"],
    ] as const) {
      const response = await owner.client.post(`/my-gigs/${gig.id}/edit`, { ...four, ...over });
      expect(response.status, message).toBe(400);
      expect(decodeHtml(await response.text()), message).toContain(message);
    }
    expect(await rowOf(gig)).toMatchObject({ timeline: gig.timeline, contactPhone: gig.contactPhone, deadline: gig.deadline });
  });

  it("keeps a deadline already past when it is left as it is, bought or not, but takes no earlier one", async () => {
    for (const bought of [false, true]) {
      const gig = await insertGig(app, owner.id, { deadline: "2020-03-01" });
      if (bought) await insertPurchase(app, gig, (await diggerWithProfile(app)).diggerId);
      const form = bought ? { timeline: "Whenever suits" } : editForm({ timeline: "Whenever suits" });
      const earlier = await owner.client.post(`/my-gigs/${gig.id}/edit`, { ...form, deadline: "2020-02-29" });
      expect(earlier.status, String(bought)).toBe(400);
      expect(decodeHtml(await earlier.text()), String(bought)).toContain("The deadline cannot be in the past");
      const saved = await owner.client.post(`/my-gigs/${gig.id}/edit`, { ...form, deadline: "2020-03-01" });
      expect(location(saved), String(bought)).toBe("/my-gigs");
      expect(await rowOf(gig), String(bought)).toMatchObject({ timeline: "Whenever suits", deadline: "2020-03-01" });
    }
  });

  it("refuses, under the row's lock, a form parsed as bought whose checkout's hold lapsed since, when it changes another field", async () => {
    // The rule saw a hold (the four fields' schema parsed the form); by the lock the hold is gone.
    const gig = await insertGig(app, owner.id);
    const sent = new FormData();
    for (const [name, value] of Object.entries({ title: "A different title here", timeline: "Soon" })) sent.set(name, value);
    const fields = editBoughtGigSchema("2000-01-01", gigPhoneReader(app.config), gig.contactPhone).parse(Object.fromEntries(sent));
    await expect(updateGig(app.database.db, owner.id, gig.id, fields, sent)).rejects.toMatchObject({ code: "conflict", message: GIG_EDIT_TEXTS.lockedConflict });
    expect(await rowOf(gig)).toMatchObject({ title: gig.title, timeline: gig.timeline });
  });

  it("counts a checkout that holds a spot as bought for editing, but not for deleting", async () => {
    const gig = await insertGig(app, owner.id);
    const digger = await diggerWithProfile(app);
    await insertPurchase(app, gig, digger.diggerId, { status: "pending" });
    const response = await owner.client.post(`/my-gigs/${gig.id}/edit`, { title: "A different title here", timeline: "Soon" });
    expect(response.status).toBe(409);
    // The digger's payment, if it comes, is refunded in full (purchase-gone-lead.test.ts).
    const deleted = await owner.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" });
    expect(location(deleted)).toBe("/my-gigs");
    expect((await rowOf(gig))!.deletedAt).not.toBeNull();
  });
});

describe("deleting", () => {
  it("deletes a gig nobody has bought, and refuses one with a purchase with 409", async () => {
    const gig = await insertGig(app, owner.id);
    const response = await owner.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" });
    expect(response.status).toBe(302);
    expect(decodeHtml(await (await owner.client.get("/my-gigs")).text())).toContain("Gig deleted");
    expect(await rowOf(gig)).toBeUndefined();

    const bought = await insertGig(app, owner.id);
    await insertPurchase(app, bought, (await diggerWithProfile(app)).diggerId);
    const refused = await owner.client.post(`/my-gigs/${bought.id}/edit`, { intent: "delete" });
    expect(refused.status).toBe(409);
    expect(decodeHtml(await refused.text())).toContain("cannot be deleted: close it instead");
    expect(await rowOf(bought)).toBeDefined();
  });
});

describe("checkouts started and ended (issue 30, finding 11)", () => {
  /** A digger starts a checkout for the gig and cancels it, or lets it run out. */
  async function endedCheckout(gig: TestGig, how: "cancel" | "run out") {
    const digger = await diggerWithProfile(app);
    const checkout = location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))!;
    expect(checkout).toMatch(/^\/checkout\//);
    if (how === "cancel") expect(location(await digger.client.post(checkout, { intent: "cancel" }))).toBe(`/gig/${gig.id}?payment=cancelled`);
    else await ageCheckout(app, checkout.split("/").pop()!, HOLD_MINUTES + 1);
    return { digger, checkout };
  }

  for (const how of ["cancel", "run out"] as const) {
    it(`a checkout that was started and ${how === "cancel" ? "cancelled" : "ran out"} keeps the client from neither editing nor deleting the gig`, async () => {
      const gig = await insertGig(app, owner.id);
      const { digger, checkout } = await endedCheckout(gig, how);
      const edit = decodeHtml(await (await owner.client.get(`/my-gigs/${gig.id}/edit`)).text());
      expect(edit).not.toContain(GIG_EDIT_TEXTS.lockedNote);
      expect(location(await owner.client.post(`/my-gigs/${gig.id}/edit`, editForm({ title: "A new title for the gig" })))).toBe("/my-gigs");
      expect((await rowOf(gig))!.title).toBe("A new title for the gig");
      for (const page of [`/my-gigs/${gig.id}/edit`, "/my-gigs", `/gig/${gig.id}`]) {
        expect(decodeHtml(await (await owner.client.get(page)).text()), page).toMatch(/<button[^>]*>Delete<\/button>/);
      }

      expect(location(await owner.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" }))).toBe("/my-gigs");
      expect(decodeHtml(await flashAfter(owner.client, "/my-gigs"))).toContain("Gig deleted");
      // The purchase row stays, so the gig's row does: closed, marked deleted, its text gone.
      const row = (await rowOf(gig))!;
      expect(row).toMatchObject({ status: "closed", description: DELETED_GIG.description, location: DELETED_GIG.removed, contactPhone: null, contactPreferences: null });
      expect(row.deletedAt).not.toBeNull();
      const purchasesOf = () => app.database.db.select().from(leadPurchases).where(eq(leadPurchases.gigId, gig.id));
      expect(await purchasesOf()).toHaveLength(1);

      // Gone everywhere: its page, My Gigs, Browse Gigs, the edit page; no Buy, no reopening, no second delete.
      for (const viewer of [owner.client, digger.client, new SessionClient(app)]) {
        expect(location(await viewer.get(`/gig/${gig.id}`))).toBe("/browse-gigs");
      }
      expect(decodeHtml(await (await owner.client.get("/my-gigs")).text())).not.toContain(gig.id);
      expect(decodeHtml(await (await new SessionClient(app).get("/browse-gigs?q=new+title+for+the+gig")).text())).not.toContain(gig.id);
      expect(location(await owner.client.get(`/my-gigs/${gig.id}/edit`))).toBe("/my-gigs");
      expect(location(await digger.client.post(`/gig/${gig.id}`, { intent: "purchase" }))).toBe("/browse-gigs");
      expect((await owner.client.post("/my-gigs", { intent: "set-status", gigId: gig.id, status: "open" })).status).toBe(404);
      expect(location(await owner.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" }))).toBe("/my-gigs");
      expect((await rowOf(gig))!.status).toBe("closed");
      // The old checkout takes no payment.
      expect(location(await digger.client.post(checkout, { intent: "pay" }))).not.toMatch(/payment=success/);
      expect((await purchasesOf()).map((p) => p.status)).toEqual(["cancelled"]);
    });
  }

  it("a gig with a completed purchase still cannot be deleted, whatever other checkouts ended", async () => {
    const gig = await insertGig(app, owner.id);
    await endedCheckout(gig, "cancel");
    await insertPurchase(app, gig, (await diggerWithProfile(app)).diggerId);
    const refused = await owner.client.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" });
    expect(refused.status).toBe(409);
    expect(decodeHtml(await refused.text())).toContain(GIG_EDIT_TEXTS.notDeletable);
    expect((await rowOf(gig))!.deletedAt).toBeNull();
  });
});

describe("nobody else", () => {
  it("gets 'Gig not found' for another's gig, a made-up id or a malformed one, and changes nothing", async () => {
    const gig = await insertGig(app, owner.id);
    const other = await signUpAs(app, "consumer");
    const digger = await diggerWithProfile(app);
    for (const client of [other.client, digger.client]) {
      for (const id of [gig.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const page = await client.get(`/my-gigs/${id}/edit`);
        expect(location(page)).toBe("/my-gigs");
        // The action answers 404; the page it would show again sends them back to My Gigs.
        const edit = await client.post(`/my-gigs/${id}/edit`, editForm({ title: "Taken over by someone" }));
        expect(location(edit)).toBe("/my-gigs");
        const deleted = await client.post(`/my-gigs/${id}/edit`, { intent: "delete" });
        expect(location(deleted)).toBe("/my-gigs");
        // A fetcher's data request gets the 404 itself.
        const data = await client.post(`/my-gigs/${id}/edit.data`, { intent: "delete" });
        expect(data.status).toBe(404);
      }
    }
    const visitor = new SessionClient(app);
    expect(location(await visitor.get(`/my-gigs/${gig.id}/edit`))).toMatch(/^\/auth/);
    expect(location(await visitor.post(`/my-gigs/${gig.id}/edit`, { intent: "delete" }))).toMatch(/^\/auth/);
    expect(await rowOf(gig)).toMatchObject({ title: gig.title });
  });
});
