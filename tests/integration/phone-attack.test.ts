/**
 * Verified phones attacked from outside (issue 49, docs/security.md "Verified phones"): the real
 * `sendPhoneCode` and `checkPhoneCode` (server/phones/) with the app's services, the outbox as the
 * text provider (and an Amazon SNS peer of our own that refuses a number), on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL, where the concurrent attempts really run at once on two
 * connections. Every number is new to its test, so the limits of one test never touch another's.
 */
import { randomInt } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_LIMITS, CODE_TRIES, PHONE_TEXTS } from "../../core/phone-verification.ts";
import { gigs, phoneCodes, phoneVerifications, smsOutbox, users } from "../../server/db/schema.ts";
import { AppError } from "../../server/errors.ts";
import { checkPhoneCode } from "../../server/phones/check-code.ts";
import { parsePhone } from "../../server/phones/parse-phone.ts";
import { sendPhoneCode } from "../../server/phones/send-code.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { insertGig } from "../support/leads.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const db = () => app.database.db;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** A US number no other test uses (a 555 exchange in a real area code: valid, and never a real line). */
const newNumber = () => `+1303555${String(randomInt(0, 10_000)).padStart(4, "0")}`;
/** A client address of its own network (203.0.113.0/24 is for documentation: never a real client). */
let network = 0;
const newAddress = () => `198.51.${100 + (network++ % 100)}.7`;

async function send(user: TestUser, phone: string, over: { clientIp?: string; emailVerified?: boolean; on?: TestApp; forAccount?: boolean; gigId?: string | null } = {}) {
  const on = over.on ?? app;
  await sendPhoneCode(on.services, on.services.logger, {
    userId: user.id,
    emailVerified: over.emailVerified ?? true,
    phone: parsePhone(phone, "US")!,
    target: { forAccount: over.forAccount ?? true, gigId: over.gigId ?? null },
    clientIp: over.clientIp ?? newAddress(),
  });
}

/** The code of the newest text to `phone` in the outbox. */
async function codeSentTo(phone: string): Promise<string> {
  const [text] = await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone)).orderBy(desc(smsOutbox.createdAt)).limit(1);
  return /^(\d{6}) /.exec(text!.body)![1]!;
}
const textsTo = async (phone: string) => (await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone))).length;
const codeRow = async (userId: string) => (await db().select().from(phoneCodes).where(eq(phoneCodes.userId, userId)))[0];
const verificationsOf = (userId: string) => db().select().from(phoneVerifications).where(eq(phoneVerifications.userId, userId));
/** The minute between codes, passed: the code was sent `seconds` earlier. */
const sentEarlier = (userId: string, seconds = 61) =>
  db().execute(sql`update phone_codes set sent_at = sent_at - make_interval(secs => ${seconds}) where user_id = ${userId}`);
/** Some other code than `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** The message an attempt was refused with. */
async function refusal(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).message;
}

describe("guessing a code", () => {
  it(`counts two wrong tries sent at once as two (${onPostgres ? "PostgreSQL: two connections" : "PGlite: one connection"})`, async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    const code = await codeSentTo(phone);
    const answers = await Promise.allSettled([checkPhoneCode(app.services, user.id, wrong(code)), checkPhoneCode(app.services, user.id, wrong(wrong(code)))]);
    expect(answers.map((a) => a.status)).toEqual(["rejected", "rejected"]);
    const messages = answers.map((a) => ((a as PromiseRejectedResult).reason as AppError).message).sort();
    expect(messages).toEqual([PHONE_TEXTS.wrongCode(CODE_TRIES - 2), PHONE_TEXTS.wrongCode(CODE_TRIES - 1)].sort());
    expect((await codeRow(user.id))!.triesLeft).toBe(CODE_TRIES - 2);
  });

  it("a right code sent twice at once verifies once: one verification, the other attempt finds no code", async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    const code = await codeSentTo(phone);
    const answers = await Promise.allSettled([checkPhoneCode(app.services, user.id, code), checkPhoneCode(app.services, user.id, code), checkPhoneCode(app.services, user.id, wrong(code))]);
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    const refused = answers.filter((a): a is PromiseRejectedResult => a.status === "rejected").map((a) => (a.reason as AppError).message);
    // The wrong one either came first (counted on a code then used up) or after (no code left).
    for (const message of refused) expect([PHONE_TEXTS.noCode, PHONE_TEXTS.wrongCode(CODE_TRIES - 1)]).toContain(message);
    expect(await verificationsOf(user.id)).toEqual([expect.objectContaining({ phone })]);
    expect(await codeRow(user.id)).toBeUndefined();
    expect((await db().select({ phone: users.phone }).from(users).where(eq(users.id, user.id)))[0]!.phone).toBe(phone);
  });

  it(`ends a code after ${CODE_TRIES} wrong tries, even with the right one after them`, async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    const code = await codeSentTo(phone);
    const tries = await Promise.allSettled(Array.from({ length: CODE_TRIES + 2 }, () => checkPhoneCode(app.services, user.id, wrong(code))));
    expect(tries.every((t) => t.status === "rejected")).toBe(true);
    expect((await codeRow(user.id))!.triesLeft).toBe(0);
    expect(await refusal(checkPhoneCode(app.services, user.id, code))).toBe(PHONE_TEXTS.tooManyTries);
    expect(await verificationsOf(user.id)).toEqual([]);
  });

  it(`a new code resets the tries, but an account's ${CODE_LIMITS.perAccount.max} codes a day bound its guesses to ${CODE_LIMITS.perAccount.max * CODE_TRIES} a day`, async () => {
    const user = await signUpAs(app, "consumer");
    const clientIp = newAddress();
    let guesses = 0;
    for (let sent = 0; sent < CODE_LIMITS.perAccount.max; sent += 1) {
      // Three numbers at most per number and 10 minutes: a fresh number each time, as an attacker would.
      const phone = newNumber();
      await send(user, phone, { clientIp });
      const code = await codeSentTo(phone);
      for (let t = 0; t < CODE_TRIES; t += 1) {
        await refusal(checkPhoneCode(app.services, user.id, wrong(code)));
        guesses += 1;
      }
      expect(await refusal(checkPhoneCode(app.services, user.id, code))).toBe(PHONE_TEXTS.tooManyTries);
      await sentEarlier(user.id);
    }
    expect(guesses).toBe(25);
    expect(await refusal(send(user, newNumber(), { clientIp }))).toBe(PHONE_TEXTS.tooManyCodes);
    expect(await verificationsOf(user.id)).toEqual([]);
  });

  it("an expired code is refused even when right, and a used one cannot be used again", async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    const code = await codeSentTo(phone);
    await db().execute(sql`update phone_codes set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    expect(await refusal(checkPhoneCode(app.services, user.id, code))).toBe(PHONE_TEXTS.expired);
    await sentEarlier(user.id);
    await send(user, phone);
    const second = await codeSentTo(phone);
    // The old code is gone with the new one (one waiting code per account).
    if (second !== code) expect(await refusal(checkPhoneCode(app.services, user.id, code))).toBe(PHONE_TEXTS.wrongCode(CODE_TRIES - 1));
    await checkPhoneCode(app.services, user.id, second);
    expect(await refusal(checkPhoneCode(app.services, user.id, second))).toBe(PHONE_TEXTS.noCode);
  });

  it("a code is bound to its account and number: another account's right code does not verify this one", async () => {
    const alice = await signUpAs(app, "consumer");
    const mallory = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(alice, phone);
    const alicesCode = await codeSentTo(phone);
    await send(mallory, phone);
    const mallorysCode = await codeSentTo(phone);
    if (alicesCode !== mallorysCode) expect(await refusal(checkPhoneCode(app.services, mallory.id, alicesCode))).toBe(PHONE_TEXTS.wrongCode(CODE_TRIES - 1));
    await checkPhoneCode(app.services, alice.id, alicesCode);
    expect(await verificationsOf(mallory.id)).toEqual([]);
  });
});

describe("SMS pumping", () => {
  it("two sends of one account at once give one code and one text, and count once against the account's day", async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    const clientIp = newAddress();
    const answers = await Promise.allSettled([send(user, phone, { clientIp }), send(user, phone, { clientIp })]);
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    expect(await textsTo(phone)).toBe(1);
    expect(await db().select().from(phoneCodes).where(eq(phoneCodes.userId, user.id))).toHaveLength(1);
    // The refused one gave its limits back: the account still has the rest of its day, each to a new number.
    for (let sent = 1; sent < CODE_LIMITS.perAccount.max; sent += 1) {
      await sentEarlier(user.id);
      await send(user, newNumber(), { clientIp });
    }
    await sentEarlier(user.id);
    expect(await refusal(send(user, newNumber(), { clientIp }))).toBe(PHONE_TEXTS.tooManyCodes);
  });

  it("a second code within the minute is refused before any limit is counted", async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    expect(await refusal(send(user, phone))).toMatch(/^You can send a new code in \d+ seconds\.$/);
    expect(await textsTo(phone)).toBe(1);
  });

  it(`one number gets at most ${CODE_LIMITS.perNumber.max} codes in ${CODE_LIMITS.perNumber.minutes} minutes, whoever asks`, async () => {
    const phone = newNumber();
    for (let i = 0; i < CODE_LIMITS.perNumber.max; i += 1) await send(await signUpAs(app, "consumer"), phone);
    expect(await refusal(send(await signUpAs(app, "consumer"), phone))).toBe(PHONE_TEXTS.tooManyCodes);
    expect(await textsTo(phone)).toBe(CODE_LIMITS.perNumber.max);
  });

  it(`one number gets at most ${CODE_LIMITS.perNumberDay.max} codes a day, however many accounts ask: no texting someone all day through us`, async () => {
    const phone = newNumber();
    // The 10 minutes' window passed, as the clock would do it: its attempts given back.
    const tenMinutesLater = async () => {
      for (let i = 0; i < CODE_LIMITS.perNumber.max; i += 1) await app.services.rateLimits.phoneCodesPerNumber.refund(phone);
    };
    for (let sent = 0; sent < CODE_LIMITS.perNumberDay.max; sent += 1) {
      if (sent > 0 && sent % CODE_LIMITS.perNumber.max === 0) await tenMinutesLater();
      await send(await signUpAs(app, "consumer"), phone);
    }
    await tenMinutesLater();
    expect(await refusal(send(await signUpAs(app, "consumer"), phone))).toBe(PHONE_TEXTS.tooManyCodes);
    expect(await textsTo(phone)).toBe(CODE_LIMITS.perNumberDay.max);
  });

  it("an account whose e-mail is not confirmed gets no text", async () => {
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    expect(await refusal(send(user, phone, { emailVerified: false }))).toBe(PHONE_TEXTS.confirmEmailFirst);
    expect(await textsTo(phone)).toBe(0);
  });

  it("premium-rate, toll-free and impossible numbers never reach the provider", () => {
    for (const number of ["+1 900 555 0123", "+1 800 555 0123", "+44 7700 900123", "+1 303 555", "12345"]) expect(parsePhone(number, "US")).toBeNull();
  });
});

describe("a number another account verified", () => {
  it("ticks only the account that proved it: another account's gig with the number stays unverified until it proves it too", async () => {
    const owner = await signUpAs(app, "consumer");
    const other = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(owner, phone);
    await checkPhoneCode(app.services, owner.id, await codeSentTo(phone));
    const othersGig = await insertGig(app, other.id, { contactPhone: phone });
    expect(othersGig.phoneVerifiedAt).toBeNull();
    // The other account asks for a code for the same number: the same answers as for any number.
    await sentEarlier(owner.id);
    await send(other, phone, { forAccount: false, gigId: othersGig.id });
    const verified = await checkPhoneCode(app.services, other.id, await codeSentTo(phone));
    expect(verified).toEqual({ phone, gigId: othersGig.id, forAccount: false });
    expect((await db().select().from(gigs).where(eq(gigs.id, othersGig.id)))[0]!.phoneVerifiedAt).toBeInstanceOf(Date);
    // Each keeps their own verification, with their own date.
    expect((await verificationsOf(owner.id)).map((v) => v.phone)).toEqual([phone]);
    expect((await verificationsOf(other.id)).map((v) => v.phone)).toEqual([phone]);
    // A code asked for another account's gig writes nothing on that gig.
    const ownersGig = await insertGig(app, owner.id, { contactPhone: "+13035550100" });
    const elsewhere = newNumber();
    await sentEarlier(other.id);
    await send(other, elsewhere, { forAccount: false, gigId: ownersGig.id });
    await checkPhoneCode(app.services, other.id, await codeSentTo(elsewhere));
    expect((await db().select().from(gigs).where(eq(gigs.id, ownersGig.id)))[0]!.contactPhone).toBe("+13035550100");
  });
});

describe("changing the account's number", () => {
  it("forgets the replaced number's verification, unless a gig of the account still gives it; a code for a number since replaced writes nothing", async () => {
    const user = await signUpAs(app, "consumer");
    const [first, second, third] = [newNumber(), newNumber(), newNumber()];
    // /account's Save: the number stored, the old one's verification forgotten, a code to the new one.
    const save = async (phone: string) => {
      await sentEarlier(user.id);
      const saved = await user.client.post("/account", { intent: "phone-save", accountPhone: phone });
      expect(saved.headers.get("location")).toBe("/verify-phone?next=/account");
    };
    await save(first);
    await checkPhoneCode(app.services, user.id, await codeSentTo(first));
    await save(second);
    await checkPhoneCode(app.services, user.id, await codeSentTo(second));
    expect((await verificationsOf(user.id)).map((v) => v.phone)).toEqual([second]);

    // A gig gives the account's number: replacing the account's number keeps the gig's tick.
    const gig = await insertGig(app, user.id, { contactPhone: second });
    expect(gig.phoneVerifiedAt).toBeInstanceOf(Date);
    await save(third);
    await checkPhoneCode(app.services, user.id, await codeSentTo(third));
    expect((await verificationsOf(user.id)).map((v) => v.phone).sort()).toEqual([second, third].sort());
    expect((await db().select().from(gigs).where(eq(gigs.id, gig.id)))[0]!.phoneVerifiedAt).toBeInstanceOf(Date);

    // A code for the account's number whose number was replaced meanwhile (by the database here:
    // the card drops a waiting code) proves that number, and leaves the account's as it now is.
    const fourth = newNumber();
    await sentEarlier(user.id);
    await send(user, fourth);
    await db().update(users).set({ phone: first }).where(eq(users.id, user.id));
    await checkPhoneCode(app.services, user.id, await codeSentTo(fourth));
    expect((await db().select({ phone: users.phone }).from(users).where(eq(users.id, user.id)))[0]!.phone).toBe(first);
  });
});

describe("the database", () => {
  it("refuses a number that is not E.164 in every phone column", async () => {
    const user = await signUpAs(app, "consumer");
    for (const bad of ["303 555 0100", "+0123456789", "+1", "+1303555010012345", "+1 303 555 0100", "tel:+13035550100"]) {
      await expect(db().update(users).set({ phone: bad }).where(eq(users.id, user.id))).rejects.toThrow();
      await expect(db().insert(phoneVerifications).values({ userId: user.id, phone: bad })).rejects.toThrow();
      await expect(
        db().insert(phoneCodes).values({ userId: user.id, phone: bad, codeHash: "x", expiresAt: new Date(Date.now() + 60_000) }),
      ).rejects.toThrow();
    }
    await expect(
      db().insert(phoneCodes).values({ userId: user.id, phone: "+13035550100", codeHash: "x", expiresAt: new Date(Date.now() + 60_000), triesLeft: 6 }),
    ).rejects.toThrow();
  });
});

describe("what is never written down", () => {
  it("no code, code hash, provider id or number in the logs; the provider's refusal is logged without what it echoed", async () => {
    // An SNS peer that refuses every text and echoes the number in its message, as a provider may.
    const peer: Server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const to = new URLSearchParams(body).get("PhoneNumber") ?? "";
        response.writeHead(400, { "content-type": "text/xml" });
        response.end(
          `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>InvalidParameter</Code>` +
            `<Message>Invalid parameter: PhoneNumber Reason: ${to} is not valid to publish to</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
        );
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    const sns = await createTestApp(
      {
        SMS_PROVIDER: "sns",
        SMS_SNS_REGION: "us-east-1",
        SMS_SNS_ENDPOINT: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`,
        SMS_SNS_ACCESS_KEY_ID: "AKIDTEST",
        SMS_SNS_SECRET_ACCESS_KEY: "test-secret",
      },
      { database: app.database },
    );
    try {
      const user = await signUpAs(app, "consumer");
      const refused = newNumber();
      expect(await refusal(send(user, refused, { on: sns }))).toBe(PHONE_TEXTS.sendFailed);
      // The row went with the failure: the account may ask again at once.
      expect(await codeRow(user.id)).toBeUndefined();
      const logged = JSON.stringify(sns.logs);
      expect(logged).toContain("a phone code could not be sent");
      expect(logged).not.toContain(refused);
      expect(logged).not.toContain(refused.slice(2));
    } finally {
      await sns.close();
      await new Promise((resolve) => peer.close(resolve));
    }

    // The outbox's codes and every row's hash and id, against everything the main app logged.
    const user = await signUpAs(app, "consumer");
    const phone = newNumber();
    await send(user, phone);
    const row = (await codeRow(user.id))!;
    const code = await codeSentTo(phone);
    await refusal(checkPhoneCode(app.services, user.id, wrong(code)));
    await checkPhoneCode(app.services, user.id, code);
    const logged = JSON.stringify(app.logs);
    for (const secret of [row.codeHash, row.providerMessageId!, phone, phone.slice(2)]) expect(logged).not.toContain(secret);
    expect(logged).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
