/**
 * Reference contact requests: a client asks, the digger who owns the reference approves or
 * declines at /reference-requests, the contact shows only to that client once approved,
 * and both sides are e-mailed. Every permission is tried from the wrong side.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../core/session-user.ts";
import { categories, diggerCategories, diggerProfiles, diggerReferences, emails, referenceContactRequests } from "../../server/db/schema.ts";
import { decideReferenceRequest } from "../../server/diggers/decide-reference-request.ts";
import { perform } from "../../server/operation.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const decode = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&amp;", "&");

async function signUp(userType: "consumer" | "digger") {
  const user = await signUpAs(app, userType, `${userType === "digger" ? "Digger" : "Client"} ${randomUUID().slice(0, 6)}`);
  return { ...user, userId: user.id };
}

/** A signed-in digger with a profile (written directly) and two references. */
async function digger() {
  const account = await signUp("digger");
  const db = app.database.db;
  const [profile] = await db
    .insert(diggerProfiles)
    .values({
      userId: account.userId,
      handle: `d_${randomUUID().slice(0, 8)}`,
      businessName: "Hidden Business Name",
      phone: "(555) 010-7777",
      location: "Denver, CO",
      profession: "Roofer",
      bio: "Roofs of every kind.",
    })
    .returning();
  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  await db.insert(diggerCategories).values({ diggerId: profile!.id, categoryId: category!.id });
  const refs = await db
    .insert(diggerReferences)
    .values([
      { diggerId: profile!.id, referenceName: "Ann Ref", referenceEmail: `ann-${randomUUID()}@example.com`, referencePhone: "(555) 010-4242" },
      { diggerId: profile!.id, referenceName: "Bob Ref", referenceEmail: `bob-${randomUUID()}@example.com`, referencePhone: null },
    ])
    .returning();
  return { ...account, profile: profile!, refs };
}

const ask = (client: SessionClient, diggerId: string, referenceId: string) =>
  client.post(`/digger/${diggerId}`, { referenceId });
const answer = (client: SessionClient, requestId: string, decision: "approve" | "decline") =>
  client.post("/reference-requests", { requestId, decision });

async function requestRow(referenceId: string, clientId: string) {
  const [row] = await app.database.db
    .select()
    .from(referenceContactRequests)
    .where(and(eq(referenceContactRequests.referenceId, referenceId), eq(referenceContactRequests.clientId, clientId)));
  return row;
}
const mailTo = async (address: string) =>
  app.database.db.select().from(emails).where(eq(emails.toAddress, address)).orderBy(desc(emails.createdAt));

describe("asking for a reference's contact", () => {
  it("records a pending request, tells the consumer, e-mails the digger and shows 'Request Pending'", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    const response = await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Request sent! The digger will be notified.");
    expect(await requestRow(d.refs[0]!.id, clientUser.userId)).toMatchObject({ status: "pending", diggerId: d.profile.id });
    const [mail] = await mailTo(d.email);
    expect(mail).toMatchObject({ subject: "New reference contact request", kind: "transactional", userId: d.userId });
    expect(mail!.textBody).toContain(clientUser.fullName);
    expect(mail!.textBody).toContain("Ann Ref");
    expect(mail!.textBody).toContain("/reference-requests");
    const html = await (await clientUser.client.get(`/digger/${d.profile.id}`)).text();
    expect(html).toContain("Request Pending");
    expect(html).not.toContain(d.refs[0]!.referenceEmail);
  });

  it("refuses a duplicate with 'You've already requested this reference contact'", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    const again = await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    expect(again.status).toBe(409);
    expect(decode(await again.text())).toContain("You've already requested this reference contact");
    expect(await mailTo(d.email)).toHaveLength(1);
  });

  it("asks a visitor to sign in, and refuses diggers", async () => {
    const d = await digger();
    const visitor = new SessionClient(app);
    const response = await ask(visitor, d.profile.id, d.refs[0]!.id);
    expect(location(response)).toBe(`/auth?redirect=${encodeURIComponent(`/digger/${d.profile.id}`)}`);
    expect(await (await visitor.get("/auth")).text()).toContain("Please sign in to request reference contact");

    const other = await digger();
    const byDigger = await ask(other.client, d.profile.id, d.refs[0]!.id);
    expect(location(byDigger)).toBe(`/digger/${d.profile.id}`);
    expect(await requestRow(d.refs[0]!.id, other.userId)).toBeUndefined();
  });

  it("refuses a reference that is not this digger's, or not an id at all", async () => {
    const d = await digger();
    const other = await digger();
    const clientUser = await signUp("consumer");
    for (const referenceId of [other.refs[0]!.id, randomUUID(), "nope"]) {
      const response = await ask(clientUser.client, d.profile.id, referenceId);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(await response.text()).toContain("Failed to send request");
    }
    expect(await requestRow(other.refs[0]!.id, clientUser.userId)).toBeUndefined();
  });
});

describe("answering a request", () => {
  it("approve: the consumer sees the reference's e-mail and phone, is e-mailed, and nobody else sees them", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    const row = (await requestRow(d.refs[0]!.id, clientUser.userId))!;

    const list = decode(await (await d.client.get("/reference-requests")).text());
    expect(list).toContain(clientUser.fullName);
    expect(list).toContain("Ann Ref");
    expect(list).toContain("Pending");

    const response = await answer(d.client, row.id, "approve");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Request approved");
    expect((await requestRow(d.refs[0]!.id, clientUser.userId))!.status).toBe("approved");
    expect((await requestRow(d.refs[0]!.id, clientUser.userId))!.resolvedAt).not.toBeNull();
    const [mail] = await mailTo(clientUser.email);
    expect(mail!.subject).toBe("Your reference contact request was approved");

    const page = await (await clientUser.client.get(`/digger/${d.profile.id}`)).text();
    expect(page).toContain(d.refs[0]!.referenceEmail);
    expect(page).toContain("(555) 010-4242");
    expect(page).not.toContain(d.refs[1]!.referenceEmail); // only the reference asked for
    const data = await (await clientUser.client.get(`/digger/${d.profile.id}.data`)).text();
    expect(data).toContain(d.refs[0]!.referenceEmail);

    const stranger = await signUp("consumer");
    for (const client of [stranger.client, new SessionClient(app)]) {
      const html = await (await client.get(`/digger/${d.profile.id}`)).text();
      const raw = await (await client.get(`/digger/${d.profile.id}.data`)).text();
      expect(html).toContain("Contact hidden");
      for (const text of [html, raw]) {
        expect(text).not.toContain(d.refs[0]!.referenceEmail);
        expect(text).not.toContain("(555) 010-4242");
        expect(text).not.toContain("Hidden Business Name");
      }
    }

    const twice = await answer(d.client, row.id, "decline");
    expect(twice.status).toBe(409);
    expect((await requestRow(d.refs[0]!.id, clientUser.userId))!.status).toBe("approved");
  });

  it("decline: the consumer sees 'Request Declined', is e-mailed, and the contact stays hidden", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    await ask(clientUser.client, d.profile.id, d.refs[1]!.id);
    const row = (await requestRow(d.refs[1]!.id, clientUser.userId))!;
    expect((await answer(d.client, row.id, "decline")).status).toBe(200);
    expect((await requestRow(d.refs[1]!.id, clientUser.userId))!.status).toBe("rejected");
    expect((await mailTo(clientUser.email))[0]!.subject).toBe("Your reference contact request was declined");
    const page = await (await clientUser.client.get(`/digger/${d.profile.id}`)).text();
    expect(page).toContain("Request Declined");
    expect(page).not.toContain(d.refs[1]!.referenceEmail);
  });

  it("only the digger who owns the reference can answer", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    const row = (await requestRow(d.refs[0]!.id, clientUser.userId))!;

    const other = await digger();
    const byOther = await answer(other.client, row.id, "approve");
    expect(byOther.status).toBe(404);
    expect(await byOther.text()).toContain("Request not found");
    expect(await (await other.client.get("/reference-requests")).text()).not.toContain(clientUser.fullName);

    const byClient = await answer(clientUser.client, row.id, "approve");
    expect(location(byClient)).toBe("/");
    expect(await (await clientUser.client.get("/")).text()).toContain("Only diggers can access this page");

    const byVisitor = await answer(new SessionClient(app), row.id, "approve");
    expect(location(byVisitor)).toMatch(/^\/auth\?redirect=/);

    const withoutProfile = await signUp("digger");
    const noProfile = await answer(withoutProfile.client, row.id, "approve");
    expect(location(noProfile)).toBe("/digger-registration");

    expect((await requestRow(d.refs[0]!.id, clientUser.userId))!.status).toBe("pending");
  });

  it("refuses a decision other than approve or decline, or a request id that is not one, with 'Failed to update request' beside its field", async () => {
    const d = await digger();
    const clientUser = await signUp("consumer");
    await ask(clientUser.client, d.profile.id, d.refs[0]!.id);
    const row = (await requestRow(d.refs[0]!.id, clientUser.userId))!;
    const caller = { user: { id: d.userId } as SessionUser, diggerId: d.profile.id };
    for (const [fields, field] of [
      [{ requestId: row.id, decision: "maybe" }, "decision"],
      [{ requestId: row.id }, "decision"],
      [{ requestId: "nope", decision: "approve" }, "requestId"],
      [{ decision: "approve" }, "requestId"],
    ] as const) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      await expect(perform(decideReferenceRequest, caller, { services: app.services, form }), JSON.stringify(fields)).rejects.toMatchObject({
        code: "invalid_input",
        message: "Failed to update request",
        fieldErrors: { [field]: "Failed to update request" },
      });
    }
    const response = await answer(d.client, row.id, "maybe" as "approve");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Failed to update request");
    expect((await requestRow(d.refs[0]!.id, clientUser.userId))!.status).toBe("pending");
  });
});
