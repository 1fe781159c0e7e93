/**
 * Verified phone numbers (issue 49): /account's Phone card and the code step (/verify-phone)
 * through the real AWS SDK to a local peer that speaks Amazon SNS (tests/support/sns-peer.ts),
 * and local mode's outbox with /dev/sms. The code's life (one text per code, used once, tries,
 * expiry, a new code ends the old, the minute between codes), a provider's refusal, the
 * confirmed e-mail it needs, two accounts on one number, and 'changing the number clears its
 * verification'. The sending limits across two servers: phone-limits.test.ts.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeMessage, PHONE_TEXTS } from "../../core/phone-verification.ts";
import { phoneCodes, phoneVerifications, smsOutbox, users } from "../../server/db/schema.ts";
import { changeUser, flashAfter, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, PRODUCTION_ENV, type TestApp } from "../support/app.ts";
import { decodeHtml, insertGig } from "../support/leads.ts";
import { location } from "../support/session-client.ts";
import { startSnsPeer, type SnsPeer } from "../support/sns-peer.ts";

let peer: SnsPeer;
let app: TestApp;
beforeAll(async () => {
  peer = await startSnsPeer();
  app = await createTestApp(peer.env);
});
afterAll(async () => {
  await app?.close();
  await peer?.stop();
});
beforeEach(() => {
  peer.refuseWith = null;
});

/** A US number of its own for each test (the per-number limit is 3 codes in 10 minutes). */
let lastNumber = 100;
const newNumber = () => {
  const line = String(++lastNumber).padStart(4, "0");
  return { typed: `(201) 555-${line}`, e164: `+1201555${line}`, shown: `+1 201 555 ${line}` };
};

const page = async (user: TestUser, path: string) => decodeHtml(await (await user.client.get(path)).text());
const saveNumber = (user: TestUser, accountPhone: string) => user.client.post("/account", { intent: "phone-save", accountPhone });
const enterCode = (user: TestUser, code: string, next = "/account") => user.client.post(`/verify-phone?next=${encodeURIComponent(next)}`, { intent: "verify", code });
const sendNewCode = (user: TestUser) => user.client.post("/verify-phone?next=/account", { intent: "send-new-code" });
/** The code of the peer's newest text, read as a phone would: its first six digits. */
const lastCode = () => /^(\d{6}) /.exec(peer.published.at(-1)!.message)![1]!;
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
/** The minute between codes, passed: what waiting would do. */
const minutePassed = (userId: string) =>
  app.database.db.execute(sql`update phone_codes set sent_at = sent_at - interval '61 seconds' where user_id = ${userId}`);
const codeRow = async (userId: string) => (await app.database.db.select().from(phoneCodes).where(eq(phoneCodes.userId, userId)))[0];
const verifiedNumbers = async (userId: string) =>
  (await app.database.db.select({ phone: phoneVerifications.phone }).from(phoneVerifications).where(eq(phoneVerifications.userId, userId))).map((r) => r.phone);
const accountPhone = async (userId: string) => (await app.database.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)))[0]!.phone;

/** A signed-in client whose saved number got a code: the code step is open. */
async function withCode(name = "Paula Phone") {
  const user = await signUpAs(app, "consumer", name);
  const number = newNumber();
  const saved = await saveNumber(user, number.typed);
  expect(saved.status).toBe(302);
  expect(location(saved)).toBe("/verify-phone?next=/account");
  return { user, number, code: lastCode() };
}

describe("the code step (/verify-phone)", () => {
  it("is for signed-in accounts: a visitor is sent to sign in and back", async () => {
    const response = await app.request("/verify-phone?next=/account");
    expect(response.status).toBe(302);
    const back = new URL(location(response)!, "http://site.invalid");
    expect(back.pathname).toBe("/auth");
    const redirect = new URL(back.searchParams.get("redirect")!, "http://site.invalid");
    expect(redirect.pathname).toBe("/verify-phone");
    expect(redirect.searchParams.get("next")).toBe("/account");
  });

  it("sends exactly one text per code through SNS, signed by the AWS SDK, to the E.164 number with the code's message", async () => {
    const before = peer.published.length;
    const { user, number, code } = await withCode();
    expect(peer.published.length).toBe(before + 1);
    const text = peer.published.at(-1)!;
    expect(text.phoneNumber).toBe(number.e164);
    expect(text.message).toBe(codeMessage(code));
    expect(text.smsType).toBe("Transactional");
    expect(text.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test\/\d{8}\/us-east-1\/sns\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/);
    // Stored as typed nowhere: E.164 on the account; the code only as its HMAC, with the provider's id.
    expect(await accountPhone(user.id)).toBe(number.e164);
    const row = await codeRow(user.id);
    expect(row).toMatchObject({ phone: number.e164, forAccount: true, gigId: null, triesLeft: 5, providerMessageId: text.messageId });
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("shows the number, the Code field and a countdown to 'Send a new code', never the code or the provider's id", async () => {
    const { user, number, code } = await withCode();
    const html = await page(user, "/verify-phone?next=/account");
    expect(html.replace(/<[^>]+>/g, "")).toContain(PHONE_TEXTS.codeSent(number.shown));
    expect(html).toMatch(/<input[^>]*name="code"[^>]*>/);
    const field = /<input[^>]*name="code"[^>]*>/.exec(html)![0];
    expect(field).toContain('inputMode="numeric"');
    expect(field).toContain('autoComplete="one-time-code"');
    expect(html).toContain(`>${PHONE_TEXTS.verify}<`);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Send a new code in (60|59|58) s<\/button>/);
    expect(html).not.toContain(code);
    expect(html).not.toContain(peer.published.at(-1)!.messageId);
  });

  it("a right code verifies the number for this account, goes to `next` with 'Phone verified', and works once", async () => {
    const { user, number, code } = await withCode();
    const answer = await enterCode(user, code, "/account");
    expect(answer.status).toBe(302);
    expect(location(answer)).toBe("/account");
    const account = await flashAfter(user.client, "/account");
    expect(account).toContain(PHONE_TEXTS.verified);
    expect(await verifiedNumbers(user.id)).toEqual([number.e164]);
    expect(await codeRow(user.id)).toBeUndefined();
    expect(decodeHtml(account)).not.toContain(PHONE_TEXTS.verifyNumber);

    const again = decodeHtml(await (await enterCode(user, code)).text());
    expect(again).toContain(PHONE_TEXTS.noCode);
    const step = await page(user, "/verify-phone?next=/account");
    expect(step).toContain(PHONE_TEXTS.noCodeWaiting);
    expect(step).toMatch(/<a[^>]*href="\/account"[^>]*>Go back<\/a>/);
  });

  it("counts wrong tries down in the spec's words, then refuses even the right code until a new one", async () => {
    const { user, code } = await withCode();
    for (const message of ["That code is not right. 4 tries left.", "That code is not right. 3 tries left.", "That code is not right. 2 tries left.", "That code is not right. 1 try left.", PHONE_TEXTS.tooManyTries]) {
      const answer = await enterCode(user, otherCode(code));
      expect(answer.status).toBe(400);
      expect(decodeHtml(await answer.text())).toContain(message);
    }
    expect(decodeHtml(await (await enterCode(user, code)).text())).toContain(PHONE_TEXTS.tooManyTries);
    expect(await verifiedNumbers(user.id)).toEqual([]);

    await minutePassed(user.id);
    const sent = await sendNewCode(user);
    expect(sent.status).toBe(200);
    expect(decodeHtml(await sent.text())).toContain(PHONE_TEXTS.newCodeSent);
    expect(lastCode()).not.toBe(undefined);
    expect((await enterCode(user, lastCode())).status).toBe(302);
  });

  it("refuses anything but 6 digits with its own message, without spending a try", async () => {
    const { user } = await withCode();
    for (const entry of ["12345", "1234567", "abcdef", ""]) {
      const answer = await enterCode(user, entry);
      expect(answer.status).toBe(400);
      expect(decodeHtml(await answer.text())).toContain(PHONE_TEXTS.codeFormat);
    }
    expect((await codeRow(user.id))!.triesLeft).toBe(5);
  });

  it("refuses an expired code", async () => {
    const { user, code } = await withCode();
    await app.database.db.update(phoneCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(phoneCodes.userId, user.id));
    const answer = await enterCode(user, code);
    expect(answer.status).toBe(400);
    expect(decodeHtml(await answer.text())).toContain(PHONE_TEXTS.expired);
    expect(await verifiedNumbers(user.id)).toEqual([]);
  });

  it("keeps a minute between codes, on the server too; a new code ends the old one", async () => {
    const { user, code } = await withCode();
    const before = peer.published.length;
    const early = await sendNewCode(user);
    expect(early.status).toBe(429);
    expect(decodeHtml(await early.text())).toMatch(/You can send a new code in (60|59|58) seconds\./);
    expect(peer.published.length).toBe(before);

    await minutePassed(user.id);
    expect((await sendNewCode(user)).status).toBe(200);
    expect(peer.published.length).toBe(before + 1);
    const fresh = lastCode();
    if (fresh !== code) {
      const old = await enterCode(user, code);
      expect(old.status).toBe(400);
      expect(decodeHtml(await old.text())).toContain("That code is not right. 4 tries left.");
    }
    expect((await enterCode(user, fresh)).status).toBe(302);
  });

  it("keeps `next` on this site", async () => {
    const { user, code } = await withCode();
    const html = await page(user, `/verify-phone?next=${encodeURIComponent("https://evil.example/")}`);
    expect(html).toMatch(/<a[^>]*href="\/account"[^>]*>Go back<\/a>/);
    expect(html).not.toMatch(/href="[^"]*evil\.example/);
    const answer = await user.client.post(`/verify-phone?next=${encodeURIComponent("//evil.example/x")}`, { intent: "verify", code });
    expect(answer.status).toBe(302);
    expect(location(answer)).toBe("/account");

    const second = await withCode();
    const onward = await enterCode(second.user, second.code, "/my-gigs");
    expect(location(onward)).toBe("/my-gigs");
  });

  it("when SNS refuses the text, says so and keeps no usable code: the account may ask again at once", async () => {
    const user = await signUpAs(app, "consumer");
    const number = newNumber();
    peer.refuseWith = { code: "InvalidParameter", message: "Invalid parameter: PhoneNumber Reason: +1201 is not valid" };
    const refusedBefore = peer.refused;
    const answer = await saveNumber(user, number.typed);
    expect(answer.status).toBe(502);
    expect(decodeHtml(await answer.text())).toContain(PHONE_TEXTS.sendFailed);
    expect(peer.refused).toBe(refusedBefore + 1);
    expect(await codeRow(user.id)).toBeUndefined();
    // The number is saved, not verified; neither it nor a code is in the log.
    expect(await accountPhone(user.id)).toBe(number.e164);
    const logged = JSON.stringify(app.logs);
    expect(logged).toContain("a phone code could not be sent");
    expect(logged).not.toContain(number.e164);

    peer.refuseWith = null;
    const card = await page(user, "/account");
    expect(card).toContain(PHONE_TEXTS.notVerified);
    const verify = await user.client.post("/account", { intent: "phone-verify" });
    expect(location(verify)).toBe("/verify-phone?next=/account");
    expect(peer.published.at(-1)!.phoneNumber).toBe(number.e164);
  });

  it("sends nothing to an account whose e-mail is not confirmed", async () => {
    const user = await signUpAs(app, "consumer");
    await changeUser(app, user.id, { emailVerified: false });
    const before = peer.published.length;
    const number = newNumber();
    const answer = await saveNumber(user, number.typed);
    expect(answer.status).toBe(200);
    expect(decodeHtml(await answer.text())).toContain(PHONE_TEXTS.confirmEmailFirst);
    const verify = await user.client.post("/account", { intent: "phone-verify" });
    expect(verify.status).toBe(200);
    expect(decodeHtml(await verify.text())).toContain(PHONE_TEXTS.confirmEmailFirst);
    expect(peer.published.length).toBe(before);
    expect(await codeRow(user.id)).toBeUndefined();
    const card = await page(user, "/account");
    expect(card).toContain(PHONE_TEXTS.confirmEmailFirst);
    expect(card).not.toContain(PHONE_TEXTS.verifyNumber);
  });

  it("lets two accounts verify one number, and neither sees the other's code, number or name", async () => {
    const first = await signUpAs(app, "consumer", "Fiona Firstsharer");
    const second = await signUpAs(app, "consumer", "Sam Secondsharer");
    const number = newNumber();
    await saveNumber(first, number.typed);
    const firstCode = lastCode();
    // The second has no code of its own yet: the first's is not offered, nor accepted.
    const empty = await page(second, "/verify-phone?next=/account");
    expect(empty).toContain(PHONE_TEXTS.noCodeWaiting);
    expect(empty).not.toContain(number.shown);
    expect(decodeHtml(await (await enterCode(second, firstCode)).text())).toContain(PHONE_TEXTS.noCode);
    expect((await enterCode(first, firstCode)).status).toBe(302);

    await saveNumber(second, number.typed);
    expect((await enterCode(second, lastCode())).status).toBe(302);
    expect(await verifiedNumbers(first.id)).toEqual([number.e164]);
    expect(await verifiedNumbers(second.id)).toEqual([number.e164]);
    const card = await page(second, "/account");
    expect(card).toContain(PHONE_TEXTS.verified);
    expect(card).not.toContain("Fiona Firstsharer");
    expect(card).not.toContain(first.email);
  });
});

describe("/account's Phone card", () => {
  it("refuses a number that cannot receive texts beside the field, and keeps the saved one", async () => {
    const { user, number } = await withCode();
    for (const typed of ["call me", "123", "(800) 234-5678", "900 200 0123", "+44 56 1234 5678"]) {
      const answer = await saveNumber(user, typed);
      expect(answer.status).toBe(400);
      const html = decodeHtml(await answer.text());
      expect(html).toContain(PHONE_TEXTS.invalidNumber);
      expect(html).toMatch(/id="account-phone"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="account-phone"/);
    }
    expect(await accountPhone(user.id)).toBe(number.e164);
  });

  it("shows the number with its status: 'Phone not verified' and 'Verify this number', then 'Phone verified'", async () => {
    const { user, number, code } = await withCode();
    const before = await page(user, "/account");
    expect(before).toContain(number.shown);
    expect(before).toContain(PHONE_TEXTS.notVerified);
    expect(before).toContain(PHONE_TEXTS.verifyNumber);
    await enterCode(user, code);
    const after = await page(user, "/account");
    expect(after).toContain(PHONE_TEXTS.verified);
    expect(after).not.toContain(PHONE_TEXTS.notVerified);
    // Saving the verified number again sends nothing.
    const sent = peer.published.length;
    const again = await saveNumber(user, number.e164);
    expect(again.status).toBe(200);
    expect(decodeHtml(await again.text())).toContain(PHONE_TEXTS.accountPhoneSaved);
    expect(peer.published.length).toBe(sent);
  });

  it("changing the number clears the old one's verification, unless a gig still gives it", async () => {
    const { user, number, code } = await withCode();
    await enterCode(user, code);
    expect(await verifiedNumbers(user.id)).toEqual([number.e164]);
    const next = newNumber();
    const changed = await saveNumber(user, next.typed);
    expect(location(changed)).toBe("/verify-phone?next=/account");
    expect(peer.published.at(-1)!.phoneNumber).toBe(next.e164);
    expect(await verifiedNumbers(user.id)).toEqual([]);
    expect(await page(user, "/account")).toContain(PHONE_TEXTS.notVerified);

    // A number a gig of the account still gives stays verified when the account's changes.
    await minutePassed(user.id);
    expect((await enterCode(user, lastCode())).status).toBe(302);
    await insertGig(app, user.id, { contactPhone: next.e164 });
    await minutePassed(user.id);
    await saveNumber(user, newNumber().typed);
    expect(await verifiedNumbers(user.id)).toEqual([next.e164]);
  });

  it("a code waiting for the account's old number goes when the number changes or is removed", async () => {
    const { user, code } = await withCode();
    await minutePassed(user.id);
    // A number refused by SNS: saved, but no code for it; the old number's code must not put it back.
    peer.refuseWith = { code: "InvalidParameter", message: "Invalid parameter: PhoneNumber" };
    const next = newNumber();
    expect((await saveNumber(user, next.typed)).status).toBe(502);
    peer.refuseWith = null;
    expect(decodeHtml(await (await enterCode(user, code)).text())).toContain(PHONE_TEXTS.noCode);
    expect(await accountPhone(user.id)).toBe(next.e164);

    const other = await withCode();
    expect((await other.user.client.post("/account", { intent: "phone-remove" })).status).toBe(200);
    expect(await codeRow(other.user.id)).toBeUndefined();
    expect(decodeHtml(await (await enterCode(other.user, other.code)).text())).toContain(PHONE_TEXTS.noCode);
    expect(await accountPhone(other.user.id)).toBeNull();
  });

  it("Remove forgets the number and its verification", async () => {
    const { user, number, code } = await withCode();
    await enterCode(user, code);
    const removed = await user.client.post("/account", { intent: "phone-remove" });
    expect(removed.status).toBe(200);
    expect(decodeHtml(await removed.text())).toContain(PHONE_TEXTS.accountPhoneRemoved);
    expect(await accountPhone(user.id)).toBeNull();
    expect(await verifiedNumbers(user.id)).toEqual([]);
    const card = await page(user, "/account");
    expect(card).toContain(PHONE_TEXTS.accountPhoneNone);
    expect(card).not.toContain(number.shown);
  });

  it("a code asked for on /account writes nothing of another account", async () => {
    const { user, code } = await withCode();
    const bystander = await signUpAs(app, "consumer");
    await enterCode(user, code);
    expect(await accountPhone(bystander.id)).toBeNull();
    expect(await verifiedNumbers(bystander.id)).toEqual([]);
    const [count] = await app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(phoneVerifications)
      .where(and(eq(phoneVerifications.userId, user.id)));
    expect(count!.n).toBe(1);
  });
});

describe("local mode's outbox and /dev/sms", () => {
  it("keeps each text and lists the newest first with its number and body, one number's with ?to=", async () => {
    const local = await createTestApp({}, { database: app.database });
    try {
      expect(local.config.sms).toEqual({ provider: "outbox" });
      const user = await signUpAs(local, "consumer");
      const number = newNumber();
      const saved = await user.client.post("/account", { intent: "phone-save", accountPhone: number.typed });
      expect(location(saved)).toBe("/verify-phone?next=/account");
      const [kept] = await local.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, number.e164));
      expect(kept!.body).toMatch(/^\d{6} is your Digs & Gigs code\./);
      const html = decodeHtml(await (await local.request("/dev/sms")).text());
      expect(html).toContain("Text messages");
      expect(html).toContain(number.e164);
      expect(html).toContain(kept!.body);
      // ?to= shows one number's texts only.
      const other = decodeHtml(await (await local.request(`/dev/sms?to=${encodeURIComponent("+15125550100")}`)).text());
      expect(other).not.toContain(kept!.body);
      expect(decodeHtml(await (await local.request(`/dev/sms?to=${encodeURIComponent(number.e164)}`)).text())).toContain(kept!.body);
      const code = /^(\d{6})/.exec(kept!.body)![1]!;
      expect(location(await user.client.post("/verify-phone?next=/account", { intent: "verify", code }))).toBe("/account");
    } finally {
      await local.close();
    }
  });
});

describe("production without SMS_PROVIDER", () => {
  it("has phone verification off: no code, no tick, no /dev/sms; the number to reuse still saves", async () => {
    const production = await createTestApp(PRODUCTION_ENV, { database: app.database });
    try {
      expect(production.config.sms).toBeNull();
      expect((await production.request("/dev/sms")).status).toBe(404);
      const user = await signUpAs(production, "consumer");
      const number = newNumber();
      const saved = await user.client.post("/account", { intent: "phone-save", accountPhone: number.typed });
      expect(saved.status).toBe(200);
      expect(await accountPhone(user.id)).toBe(number.e164);
      const card = decodeHtml(await (await user.client.get("/account")).text());
      expect(card).toContain(number.shown);
      expect(card).not.toContain(PHONE_TEXTS.notVerified);
      expect(card).not.toContain(PHONE_TEXTS.verifyNumber);
      expect(decodeHtml(await (await user.client.get("/verify-phone")).text())).toContain(PHONE_TEXTS.unavailable);
      expect(await codeRow(user.id)).toBeUndefined();
    } finally {
      await production.close();
    }
  });
});
