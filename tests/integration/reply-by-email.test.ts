/**
 * Reply by e-mail (issue 32; server/conversations/inbound/, decision 0048), end to end: the
 * notification's Reply-To, then a real SMTP client (nodemailer's SMTP transport) talking to the
 * real inbound listener on a free port, posting through the web form's own code. A valid reply
 * address posts to its thread (and the other party sees it); a forged address, one signed for
 * another thread, or another domain is refused with 550 at RCPT; a header From other than the
 * recipient's address with 550; the quoted history and the signature are removed; more than 10 MB
 * is refused; the same Message-ID twice posts once; an empty reply or an out-of-office answer is
 * dropped; a blocked or suspended sender is refused with 550 and the form's words; with a
 * certificate the listener offers STARTTLS (never AUTH) and a client that requires TLS posts
 * through it, the photo stored without its EXIF. Runs on
 * PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { createTransport, type Transporter } from "nodemailer";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MESSAGE_TEXTS } from "#core/messages.ts";
import { loadConfig } from "../../server/config.ts";
import { queryRows } from "../../server/db/client.ts";
import { blocks, messageAttachments, messages, users } from "../../server/db/schema.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { startInboundSmtp, type InboundSmtp } from "../../server/conversations/inbound/listener.ts";
import type { DNSResolver } from "../../server/conversations/inbound/sender-domain.ts";
import { replyAddress } from "../../server/mail/reply-address.ts";
import { TEST_PASSWORD } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { jobsSettled, makeJobDue } from "../support/jobs.ts";
import { boughtLead, type BoughtLead, decodeHtml, mailTo } from "../support/leads.ts";
import { plainPdf } from "../support/pdf.ts";
import { freePort } from "../support/ports.ts";
import { SessionClient } from "../support/session-client.ts";
import { testCertificate, type TestCertificate } from "../support/tls-certificate.ts";

/**
 * The DNS the sender checks see (mailauth's `resolver`): TXT records by name; any other name
 * does not exist. The test users' example.com has none here, so their domain publishes no policy.
 */
const dns = new Map<string, string[]>();
const resolver: DNSResolver = async (name, rrtype) => {
  const records = rrtype === "TXT" ? dns.get(name.toLowerCase()) : undefined;
  if (!records) throw Object.assign(new Error(`query${rrtype} ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return records.map((record) => [record]);
};

let app: TestApp;
let listener: InboundSmtp;
let smtp: Transporter;
/** The listener's services: loopback counted as any client (NETWORK_LIMITS_ON_LOOPBACK), so the sender checks run. */
let listenerServices: TestApp["services"];
beforeAll(async () => {
  app = await createTestApp();
  listenerServices = { ...app.services, config: { ...app.config, networkLimitsOnLoopback: true } };
  listener = await startInboundSmtp(listenerServices, { host: "127.0.0.1", port: await freePort(), resolver });
  smtp = createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
});
afterAll(async () => {
  smtp?.close();
  await listener?.close();
  await app?.close();
});

const db = () => app.database.db;

/** The address at which `user` answers the thread, as a notice of `issuedAt` (today) carries it, under key generation `generation` (a new account's 0). */
const addressOf = (lead: BoughtLead, user: { id: string }, { generation = 0, issuedAt = new Date() }: { generation?: number; issuedAt?: Date } = {}) =>
  replyAddress(app.config.inbound!, app.config.authSecret, lead.threadId, { id: user.id, replyKeyGeneration: generation }, issuedAt);

const postedIn = (threadId: string) => db().select({ body: messages.body, senderId: messages.senderId }).from(messages).where(eq(messages.threadId, threadId)).orderBy(messages.seq);

interface Reply {
  from: string;
  to: string;
  text: string;
  messageId?: string;
  headers?: Record<string, string>;
}

const reply = (r: Reply) =>
  smtp.sendMail({ from: r.from, to: r.to, subject: "Re: New message", text: r.text, messageId: r.messageId ?? `<${randomUUID()}@mail.example.com>`, headers: r.headers });

/** A raw SMTP conversation with the listener on `port`, for what a mail library hides (the EHLO keywords). */
function smtpTalk(port: number) {
  const socket = connect(port, "127.0.0.1");
  let heard = "";
  socket.on("data", (chunk: Buffer) => (heard += chunk.toString()));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const until = (pattern: RegExp) => vi.waitFor(() => expect(heard).toMatch(pattern), { timeout: 5000 });
  /** The server's replies so far, each its last line ("250 ...", not "250-..."). */
  const replies = () => heard.split("\r\n").filter((line) => /^\d{3} /.test(line));
  return {
    until,
    replies,
    /** Waits for the `n`th reply. */
    nth: (n: number) => vi.waitFor(() => expect(replies().length).toBeGreaterThanOrEqual(n), { timeout: 5000 }),
    closed,
    write: (line: string) => socket.write(line),
    /** The greeting, then EHLO's answer (its keyword lines). */
    async ehlo() {
      await until(/^220 /m);
      socket.write("EHLO client.example\r\n");
      await until(/^250 /m);
      return heard;
    },
    close: () => socket.destroy(),
  };
}

/** The SMTP reply a refused send ended with: its code, the command, the server's words. */
async function refusal(sending: Promise<unknown>): Promise<{ responseCode?: number; command?: string; response?: string }> {
  const error = await sending.then(
    () => null,
    (e: unknown) => e as { responseCode?: number; command?: string; response?: string },
  );
  expect(error, "the listener took what it should have refused").not.toBeNull();
  return error!;
}

describe("the notification's Reply-To", () => {
  it("is an address for that thread and recipient, and answering it posts to the thread, which the other party sees", async () => {
    const lead = await boughtLead(app);
    const sent = await lead.client.client.post(`/messages/${lead.threadId}`, { intent: "send", body: "Can you come on Tuesday?", js: "1" });
    expect(sent.status).toBe(200);
    await jobsSettled(db(), "messages.tell");
    await makeJobDue(db(), "messages.notify", "userId", lead.digger.id);
    await jobsSettled(db(), "messages.notify");
    const [mail] = (await mailTo(app, lead.digger.email)).filter((m) => m.subject.startsWith("New message from"));
    expect(mail!.replyTo).toBe(addressOf(lead, lead.digger));
    expect(mail!.replyTo).toMatch(/^reply\+[0-9a-f]{56}@reply\.localhost$/);
    // Shorter than the 64 characters a local part may have; another thread's, another person's differ.
    expect(mail!.replyTo!.split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(addressOf(lead, lead.client)).not.toBe(mail!.replyTo);
    expect(mail!.textBody).toContain("Or reply to this e-mail: your answer is posted to the conversation.");

    const info = await reply({ from: `Dan Digger <${lead.digger.email.toUpperCase()}>`, to: mail!.replyTo!, text: "Tuesday at 9 works for me." });
    expect(info.accepted).toEqual([mail!.replyTo]);
    expect(await postedIn(lead.threadId)).toEqual([
      { body: "Can you come on Tuesday?", senderId: lead.client.id },
      { body: "Tuesday at 9 works for me.", senderId: lead.digger.id },
    ]);
    // Posted as the web form posts: the other party's notification is on its way. Read before the
    // client opens the thread: a message its recipient has read by the time its `messages.tell`
    // runs is told of no more (conversations/push-notice.ts), and the job runs when it will.
    await jobsSettled(db(), "messages.tell");
    const waiting = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from pgboss.job where name = 'messages.notify' and data->>'userId' = ${lead.client.id} and state = 'created'`,
    );
    expect(waiting).toEqual([{ n: 1 }]);
    const page = decodeHtml(await (await lead.client.client.get(`/messages/${lead.threadId}`)).text());
    expect(page).toContain("Tuesday at 9 works for me.");
  });

  it("is shown on /dev/mail in local mode", async () => {
    const lead = await boughtLead(app);
    await lead.digger.client.post(`/messages/${lead.threadId}`, { intent: "send", body: "Hello from the digger", js: "1" });
    await jobsSettled(db(), "messages.tell");
    await makeJobDue(db(), "messages.notify", "userId", lead.client.id);
    await jobsSettled(db(), "messages.notify");
    const page = decodeHtml(await (await app.request("/dev/mail")).text());
    expect(page).toContain(`Reply-To <span class="break-all">${addressOf(lead, lead.client)}</span>`);
  });
});

describe("the inbound listener refuses at RCPT (550)", () => {
  it("a forged token, a token signed for another thread, another domain; the message is not posted", async () => {
    const lead = await boughtLead(app);
    const other = await boughtLead(app);
    const valid = addressOf(lead, lead.digger);
    const [local] = valid.split("@");
    const forged = `${local!.slice(0, -1)}${local!.endsWith("0") ? "1" : "0"}@reply.localhost`;
    // The digger's signature of their own thread, put on another thread's id.
    const otherThread = `reply+${other.threadId.replaceAll("-", "")}${local!.slice(-20)}@reply.localhost`;
    for (const to of [forged, otherThread, valid.replace("@reply.localhost", "@elsewhere.example"), "reply+nothing@reply.localhost", "postmaster@reply.localhost"]) {
      const error = await refusal(reply({ from: lead.digger.email, to, text: "Let me in" }));
      expect(error.responseCode, to).toBe(550);
      expect(error.command, to).toBe("RCPT TO");
    }
    expect(await postedIn(lead.threadId)).toEqual([]);
    expect(await postedIn(other.threadId)).toEqual([]);
  });

  it("a reply address signed with another secret", async () => {
    const lead = await boughtLead(app);
    const otherSecret = loadConfig({ NODE_ENV: "test", BETTER_AUTH_SECRET: "another-secret-another-secret-another-secret" });
    const error = await refusal(reply({ from: lead.digger.email, to: replyAddress(otherSecret.inbound!, otherSecret.authSecret, lead.threadId, { id: lead.digger.id, replyKeyGeneration: 0 }), text: "Hi" }));
    expect(error.responseCode).toBe(550);
    expect(error.command).toBe("RCPT TO");
  });
});

describe("the inbound listener", () => {
  it("refuses with 550 a header From other than the recipient's address, also the other party's own", async () => {
    const lead = await boughtLead(app);
    for (const from of ["someone@elsewhere.example", lead.client.email]) {
      const error = await refusal(reply({ from, to: addressOf(lead, lead.digger), text: "Not really the digger" }));
      expect(error.responseCode, from).toBe(550);
      expect(error.response, from).toContain("Reply from the address the notification went to");
    }
    expect(await postedIn(lead.threadId)).toEqual([]);
  });

  it("removes the quoted history and the signature", async () => {
    const lead = await boughtLead(app);
    await reply({
      from: lead.client.email,
      to: addressOf(lead, lead.client),
      text: [
        "Yes, Tuesday is fine.",
        "The gate code is 1234.",
        "",
        "-- ",
        "Clara Client",
        "Springfield",
        "",
        "On Thu, Nov 26, 2026 at 10:00 AM Digs & Gigs <no-reply@digsandgigs.local> wrote:",
        "> New message from Dan D. about \"Fix the fence\"",
        "> Can I come on Tuesday?",
      ].join("\n"),
    });
    await reply({ from: lead.client.email, to: addressOf(lead, lead.client), text: "See you then\n\nSent from my iPhone" });
    expect(await postedIn(lead.threadId)).toEqual([
      { body: "Yes, Tuesday is fine.\nThe gate code is 1234.", senderId: lead.client.id },
      { body: "See you then", senderId: lead.client.id },
    ]);
  });

  it("posts the reply's JPEG, PNG, WebP and PDF files with it, and leaves out other files and a signature's inline logo", async () => {
    const lead = await boughtLead(app);
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#2e86c1" } }).png().toBuffer();
    const pdf = await plainPdf();
    await smtp.sendMail({
      from: lead.client.email,
      to: addressOf(lead, lead.client),
      subject: "Re: New message",
      text: "Photos of the fence attached.",
      html: '<p>Photos of the fence attached.</p><img src="cid:logo@clara">',
      messageId: `<${randomUUID()}@mail.example.com>`,
      attachments: [
        { filename: "fence.png", content: png, contentType: "image/png" },
        { filename: "quote.pdf", content: pdf, contentType: "application/pdf" },
        { filename: "notes.txt", content: "plain words", contentType: "text/plain" },
        { filename: "renamed.png", content: Buffer.from("not an image at all"), contentType: "image/png" },
        { filename: "logo.png", content: png, contentType: "image/png", cid: "logo@clara" },
      ],
    });
    const [posted] = await db().select({ id: messages.id, body: messages.body }).from(messages).where(eq(messages.threadId, lead.threadId));
    expect(posted?.body).toBe("Photos of the fence attached.");
    const files = await db().select().from(messageAttachments).where(eq(messageAttachments.messageId, posted!.id));
    expect(files.map((file) => [file.fileName, file.contentType]).sort()).toEqual([
      ["fence.png", "image/png"],
      ["quote.pdf", "application/pdf"],
    ]);
    // The other party opens them through the thread's one serving route.
    const page = decodeHtml(await (await lead.digger.client.get(`/messages/${lead.threadId}`)).text());
    expect(page).toContain("quote.pdf");
  });

  it("posts the same Message-ID once, in one thread", async () => {
    const lead = await boughtLead(app);
    const messageId = `<${randomUUID()}@mail.example.com>`;
    const first = await reply({ from: lead.client.email, to: addressOf(lead, lead.client), text: "Only once please", messageId });
    const again = await reply({ from: lead.client.email, to: addressOf(lead, lead.client), text: "Only once please", messageId });
    // Taken both times (a sender's retry must not bounce), posted once.
    expect(first.accepted).toHaveLength(1);
    expect(again.accepted).toHaveLength(1);
    expect(await postedIn(lead.threadId)).toEqual([{ body: "Only once please", senderId: lead.client.id }]);
  });

  it("keeps the Message-ID no longer than the text: the purge of the sender's account removes both", async () => {
    const lead = await boughtLead(app);
    const messageId = `<${randomUUID()}@mail.example.com>`;
    await reply({ from: lead.client.email, to: addressOf(lead, lead.client), text: "Words to purge", messageId });
    const stored = () => db().select({ body: messages.body, emailMessageId: messages.emailMessageId }).from(messages).where(eq(messages.threadId, lead.threadId));
    expect(await stored()).toEqual([{ body: "Words to purge", emailMessageId: messageId }]);
    await db().update(users).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(users.id, lead.client.id));
    await purgeDeletedAccounts({ ...app.services, config: { accountPurgeDelayHours: 0 } });
    expect(await stored()).toEqual([{ body: "", emailMessageId: null }]);
  });

  it("drops an empty reply and an out-of-office answer: taken, nothing posted", async () => {
    const lead = await boughtLead(app);
    const to = addressOf(lead, lead.digger);
    expect((await reply({ from: lead.digger.email, to, text: "\n\nOn Thu, Nov 26, 2026 at 10:00 AM Digs & Gigs wrote:\n> Hello?\n" })).accepted).toEqual([to]);
    expect((await reply({ from: lead.digger.email, to, text: "   " })).accepted).toEqual([to]);
    expect((await reply({ from: lead.digger.email, to, text: "I am away until Monday.", headers: { "Auto-Submitted": "auto-replied" } })).accepted).toEqual([to]);
    expect(await postedIn(lead.threadId)).toEqual([]);
  });

  it("announces its 10 MB limit (SIZE), neither AUTH nor STARTTLS without a certificate, and refuses a larger message at MAIL FROM", async () => {
    const talk = smtpTalk(listener.port);
    try {
      const greeting = await talk.ehlo();
      expect(greeting).toMatch(/^250[- ]SIZE 10485760\r$/m);
      expect(greeting).not.toMatch(/^250[- ](AUTH|STARTTLS)/m);
      talk.write("MAIL FROM:<someone@example.com> SIZE=10485761\r\n");
      await talk.until(/^552 /m);
    } finally {
      talk.close();
    }
  });

  it("refuses a message over 10 MB, and takes the next one on the same server", async () => {
    const lead = await boughtLead(app);
    const to = addressOf(lead, lead.digger);
    const error = await refusal(reply({ from: lead.digger.email, to, text: `Big\n${"x".repeat(76)}\n`.repeat(140_000) }));
    expect(error.responseCode).toBe(552);
    expect(await postedIn(lead.threadId)).toEqual([]);
    await reply({ from: lead.digger.email, to, text: "Small one" });
    expect(await postedIn(lead.threadId)).toEqual([{ body: "Small one", senderId: lead.digger.id }]);
  });

  it("refuses with 550 and the form's words a sender blocked either way, or suspended", async () => {
    const lead = await boughtLead(app);
    await db().insert(blocks).values({ blockerId: lead.client.id, blockedId: lead.digger.id });
    const blocked = await refusal(reply({ from: lead.digger.email, to: addressOf(lead, lead.digger), text: "Please answer" }));
    expect(blocked.responseCode).toBe(550);
    expect(blocked.response).toContain(MESSAGE_TEXTS.notSent);
    // Nor may the one who blocked write to the one blocked.
    const blocker = await refusal(reply({ from: lead.client.email, to: addressOf(lead, lead.client), text: "Go away" }));
    expect(blocker.responseCode).toBe(550);
    await db().delete(blocks).where(eq(blocks.blockerId, lead.client.id));

    await db().update(users).set({ suspendedAt: new Date(), suspendedReason: "Spam" }).where(eq(users.id, lead.digger.id));
    const suspended = await refusal(reply({ from: lead.digger.email, to: addressOf(lead, lead.digger), text: "Still here" }));
    expect(suspended.responseCode).toBe(550);
    expect(suspended.response).toContain(MESSAGE_TEXTS.suspended);
    expect(await postedIn(lead.threadId)).toEqual([]);
  });

  it("refuses with 550 a reply longer than a message may be, with the form's words", async () => {
    const lead = await boughtLead(app);
    const error = await refusal(reply({ from: lead.digger.email, to: addressOf(lead, lead.digger), text: "word ".repeat(1200) }));
    expect(error.responseCode).toBe(550);
    expect(error.response).toContain(MESSAGE_TEXTS.tooLong);
    expect(await postedIn(lead.threadId)).toEqual([]);
  });
});

describe("the inbound listener with a certificate (INBOUND_TLS_KEY / INBOUND_TLS_CERT)", () => {
  let secure: InboundSmtp;
  let certificate: TestCertificate;
  let dir: string;
  beforeAll(async () => {
    certificate = testCertificate();
    dir = mkdtempSync(path.join(tmpdir(), "dg-inbound-tls-"));
    const tls = { keyPath: path.join(dir, "key.pem"), certPath: path.join(dir, "cert.pem") };
    writeFileSync(tls.keyPath, certificate.key);
    writeFileSync(tls.certPath, certificate.cert);
    secure = await startInboundSmtp(listenerServices, { host: "127.0.0.1", port: await freePort(), tls, resolver });
  });
  afterAll(async () => {
    await secure?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("offers STARTTLS and never AUTH", async () => {
    const talk = smtpTalk(secure.port);
    try {
      const greeting = await talk.ehlo();
      expect(greeting).toMatch(/^250[- ]STARTTLS\r$/m);
      expect(greeting).not.toMatch(/^250[- ]AUTH/m);
    } finally {
      talk.close();
    }
  });

  it("takes a reply over TLS (a client that requires it, trusting the certificate) and posts it once, its photo without GPS", async () => {
    const lead = await boughtLead(app);
    const pixels = Buffer.alloc(40 * 30 * 3, 0x5a);
    const photo = await sharp(pixels, { raw: { width: 40, height: 30, channels: 3 } })
      .withExif({ IFD0: { Make: "SecretCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 2637/100" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const client = createTransport({ host: "127.0.0.1", port: secure.port, secure: false, requireTLS: true, tls: { ca: certificate.cert } });
    try {
      const messageId = `<${randomUUID()}@mail.example.com>`;
      const mail = {
        from: lead.client.email,
        to: addressOf(lead, lead.client),
        subject: "Re: New message",
        text: "Sent encrypted, with the photo.",
        messageId,
        attachments: [{ filename: "gate.jpg", content: photo, contentType: "image/jpeg" }],
      };
      expect((await client.sendMail(mail)).accepted).toHaveLength(1);
      // A retry of the same e-mail over TLS is taken and not posted again.
      expect((await client.sendMail(mail)).accepted).toHaveLength(1);
    } finally {
      client.close();
    }
    expect(await postedIn(lead.threadId)).toEqual([{ body: "Sent encrypted, with the photo.", senderId: lead.client.id }]);
    const [file] = await db()
      .select({ key: messageAttachments.storageKey, size: messageAttachments.sizeBytes })
      .from(messageAttachments)
      .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
      .where(eq(messages.threadId, lead.threadId));
    const stored = (await app.services.storage.get(file!.key))!.data;
    expect(file!.size).toBe(stored.length);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes("SecretCam")).toBe(false);
    expect(await sharp(stored).raw().toBuffer()).toEqual(await sharp(photo).raw().toBuffer());

    // The same client against the listener without a certificate: it will not send in the clear.
    const plainOnly = createTransport({ host: "127.0.0.1", port: listener.port, secure: false, requireTLS: true });
    try {
      await expect(plainOnly.sendMail({ from: lead.client.email, to: addressOf(lead, lead.client), text: "In the clear?" })).rejects.toThrow(/STARTTLS/);
    } finally {
      plainOnly.close();
    }
    expect(await postedIn(lead.threadId)).toHaveLength(1);
  });
});

// Issue 45, finding 4: an address that dies, a sender's domain that refuses, a replay.
describe("a reply address's life (issue 45)", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const generationOf = async (userId: string) =>
    (await db().select({ generation: users.replyKeyGeneration }).from(users).where(eq(users.id, userId)))[0]!.generation;
  const toldToAnswerInProduct = async (user: { email: string }) =>
    (await mailTo(app, user.email)).filter((mail) => mail.subject.startsWith("Your reply about"));

  it("posts for 60 days after its notice; later a reply is taken, never posted, and its sender told once a day to answer in the product", async () => {
    const lead = await boughtLead(app);
    const dead = addressOf(lead, lead.digger, { issuedAt: new Date(Date.now() - 61 * DAY) });
    expect((await reply({ from: lead.digger.email, to: dead, text: "Still interested?" })).accepted).toEqual([dead]);
    expect((await reply({ from: lead.digger.email, to: dead, text: "Hello again?" })).accepted).toEqual([dead]);
    // Someone else's mailbox with that address gets the From refusal, and nobody an e-mail.
    expect((await refusal(reply({ from: "stranger@elsewhere.example", to: dead, text: "Let me in" }))).responseCode).toBe(550);
    expect(await postedIn(lead.threadId)).toEqual([]);
    const told = await toldToAnswerInProduct(lead.digger);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toBe(`Your reply about "${lead.gig.title}" was not posted`);
    expect(told[0]!.textBody).toContain("Please answer in Digs & Gigs.");
    expect(told[0]!.textBody).toContain(`${app.config.publicUrl}/messages/${lead.threadId}`);
    expect(await toldToAnswerInProduct(lead.client)).toEqual([]);

    await reply({ from: lead.digger.email, to: addressOf(lead, lead.digger, { issuedAt: new Date(Date.now() - 59 * DAY) }), text: "Tuesday works." });
    expect(await postedIn(lead.threadId)).toEqual([{ body: "Tuesday works.", senderId: lead.digger.id }]);
  });

  it("takes an address of before issue 45 (no day, no generation) as a dead one", async () => {
    const lead = await boughtLead(app);
    const signature = createHmac("sha256", app.config.authSecret).update(`digsandgigs/reply-by-email/v1\n${lead.threadId}\n${lead.client.id}`).digest("hex").slice(0, 20);
    const old = `reply+${lead.threadId.replaceAll("-", "")}${signature}@reply.localhost`;
    expect((await reply({ from: lead.client.email, to: old, text: "An old notice" })).accepted).toEqual([old]);
    expect(await postedIn(lead.threadId)).toEqual([]);
    expect(await toldToAnswerInProduct(lead.client)).toHaveLength(1);
  });

  it("dies when its user changes the password or signs out everywhere (a new key generation); a single sign-out keeps it", async () => {
    const lead = await boughtLead(app);
    const clientBefore = addressOf(lead, lead.client);
    const changed = await lead.client.client.post("/account", { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: "another-password-123" });
    expect(changed.status).toBeLessThan(400);
    expect(await generationOf(lead.client.id)).toBe(1);
    const gone = await refusal(reply({ from: lead.client.email, to: clientBefore, text: "From a forwarded notice" }));
    expect(gone.responseCode).toBe(550);
    expect(gone.command).toBe("RCPT TO");
    await reply({ from: lead.client.email, to: addressOf(lead, lead.client, { generation: 1 }), text: "From the next notice" });

    // Better Auth's "sign out everywhere" (/revoke-sessions); its single sign-out does not count.
    const diggerBefore = addressOf(lead, lead.digger);
    const again = new SessionClient(app);
    expect((await again.post("/auth", { intent: "sign-in", email: lead.digger.email, password: TEST_PASSWORD })).status).toBe(302);
    const signedOut = await lead.digger.client.post("/sign-out", {});
    expect(signedOut.status).toBeLessThan(400);
    expect(await generationOf(lead.digger.id)).toBe(0);
    const everywhere = await again.send("/api/auth/revoke-sessions", { method: "POST", headers: { "content-type": "application/json", origin: app.config.publicUrl }, body: "{}" });
    expect(everywhere.status).toBe(200);
    expect(await generationOf(lead.digger.id)).toBe(1);
    expect((await refusal(reply({ from: lead.digger.email, to: diggerBefore, text: "From a forwarded notice" }))).responseCode).toBe(550);
    expect(await postedIn(lead.threadId)).toEqual([{ body: "From the next notice", senderId: lead.client.id }]);
  });

  it("drops the same text from the same sender in the thread within 10 minutes, whatever its Message-ID, also two at once", async () => {
    const lead = await boughtLead(app);
    const to = addressOf(lead, lead.client);
    for (let i = 0; i < 3; i += 1) expect((await reply({ from: lead.client.email, to, text: "Please call me back" })).accepted).toEqual([to]);
    await Promise.all([reply({ from: lead.client.email, to, text: "Twice at once" }), reply({ from: lead.client.email, to, text: "Twice at once" })]);
    await reply({ from: lead.client.email, to, text: "Something else" });
    expect((await postedIn(lead.threadId)).map((m) => m.body)).toEqual(["Please call me back", "Twice at once", "Something else"]);
    // The other party's same words are their own; and 10 minutes on, the same words post again.
    await reply({ from: lead.digger.email, to: addressOf(lead, lead.digger), text: "Please call me back" });
    await db().update(messages).set({ createdAt: sql`now() - interval '11 minutes'` }).where(eq(messages.threadId, lead.threadId));
    await reply({ from: lead.client.email, to, text: "Please call me back" });
    expect((await postedIn(lead.threadId)).map((m) => m.body)).toEqual(["Please call me back", "Twice at once", "Something else", "Please call me back", "Please call me back"]);
  });

  it("refuses a deleted account's reply with 550 saying the account was deleted", async () => {
    const lead = await boughtLead(app);
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, lead.digger.id));
    const error = await refusal(reply({ from: lead.digger.email, to: addressOf(lead, lead.digger), text: "Still here" }));
    expect(error.responseCode).toBe(550);
    expect(error.response).toContain(MESSAGE_TEXTS.deleted);
    expect(error.response).not.toContain("suspended");
  });
});

describe("the sender's domain: DMARC through mailauth (issue 45)", () => {
  let relayed: InboundSmtp;
  beforeAll(async () => {
    const records: Array<[string, string]> = [
      ["_dmarc.strict.test", "v=DMARC1; p=reject"],
      ["strict.test", "v=spf1 ip4:192.0.2.1 -all"],
      ["_dmarc.quarantine.test", "v=DMARC1; p=quarantine"],
      ["quarantine.test", "v=spf1 ip4:192.0.2.1 -all"],
      ["_dmarc.lenient.test", "v=DMARC1; p=none"],
      ["lenient.test", "v=spf1 ip4:192.0.2.1 -all"],
      ["_dmarc.direct.test", "v=DMARC1; p=reject"],
      ["direct.test", "v=spf1 ip4:127.0.0.1 -all"],
      // Behind the relay: the sending server is 198.51.100.7; relay-only.test lists only the relay itself.
      ["_dmarc.relayed.test", "v=DMARC1; p=reject"],
      ["relayed.test", "v=spf1 ip4:198.51.100.7 -all"],
      ["_dmarc.relay-only.test", "v=DMARC1; p=reject"],
      ["relay-only.test", "v=spf1 ip4:127.0.0.1 -all"],
    ];
    for (const [name, record] of records) dns.set(name, [record]);
    relayed = await startInboundSmtp(listenerServices, { host: "127.0.0.1", port: await freePort(), resolver, trustedRelays: ["127.0.0.1"] });
  });
  afterAll(() => relayed?.close());

  /** A new lead whose client's address is at `domain`. */
  async function leadAt(domain: string) {
    const lead = await boughtLead(app);
    const email = `clara-${randomUUID().slice(0, 8)}@${domain}`;
    await db().update(users).set({ email }).where(eq(users.id, lead.client.id));
    return { lead, email, to: addressOf(lead, lead.client) };
  }
  const receivedFrom = (ip: string) => `from mail.sender.test (mail.sender.test [${ip}]) by mx.relay.test with ESMTPS id 4f2a; Sun, 29 Nov 2026 03:00:00 +0000`;
  const sendVia = (port: number, mail: { from: string; to: string; text: string; received?: string }) => {
    const transport = createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
    return transport
      .sendMail({ from: mail.from, to: mail.to, subject: "Re: New message", text: mail.text, messageId: `<${randomUUID()}@sender.test>`, headers: mail.received ? { Received: mail.received } : {} })
      .finally(() => transport.close());
  };

  it("refuses with 550 a reply whose domain fails DMARC and publishes p=reject or p=quarantine", async () => {
    for (const domain of ["strict.test", "quarantine.test"]) {
      const { lead, email, to } = await leadAt(domain);
      const error = await refusal(reply({ from: email, to, text: "Spoofed?" }));
      expect(error.responseCode, domain).toBe(550);
      expect(error.response, domain).toContain("DMARC");
      expect(await postedIn(lead.threadId)).toEqual([]);
    }
  });

  it("posts a reply that passes DMARC (SPF aligned), one from a p=none domain, and one from a domain without a policy", async () => {
    for (const domain of ["direct.test", "lenient.test", "nothing-published.test"]) {
      const { lead, email, to } = await leadAt(domain);
      await reply({ from: email, to, text: `From ${domain}` });
      expect(await postedIn(lead.threadId), domain).toEqual([{ body: `From ${domain}`, senderId: lead.client.id }]);
    }
  });

  it("behind a trusted relay checks SPF for the server its Received header names, not for the relay; from any other client that header is not believed", async () => {
    const good = await leadAt("relayed.test");
    await sendVia(relayed.port, { from: good.email, to: good.to, text: "Through the gateway", received: receivedFrom("198.51.100.7") });
    expect(await postedIn(good.lead.threadId)).toEqual([{ body: "Through the gateway", senderId: good.lead.client.id }]);

    // The relay's own address passes relay-only.test's SPF; the server it names does not.
    const named = await leadAt("relay-only.test");
    expect((await refusal(sendVia(relayed.port, { from: named.email, to: named.to, text: "Forged elsewhere", received: receivedFrom("198.51.100.9") }))).responseCode).toBe(550);
    // Straight to the listener that trusts no relay, a Received header naming the right server does not help.
    const forged = await leadAt("relayed.test");
    expect((await refusal(sendVia(listener.port, { from: forged.email, to: forged.to, text: "Claimed a gateway", received: receivedFrom("198.51.100.7") }))).responseCode).toBe(550);
    expect(await postedIn(named.lead.threadId)).toEqual([]);
    expect(await postedIn(forged.lead.threadId)).toEqual([]);
  });
});

// Issue 45, finding 5: what one client may ask of the listener.
describe("the inbound listener against a stranger (issue 45)", () => {
  it("closes a connection after 5 refused recipients", async () => {
    const talk = smtpTalk(listener.port);
    try {
      await talk.ehlo();
      talk.write("MAIL FROM:<someone@elsewhere.example>\r\n");
      await talk.nth(3);
      for (let i = 1; i <= 6; i += 1) talk.write(`RCPT TO:<reply+${randomUUID().replaceAll("-", "")}0000${"0".repeat(20)}@reply.localhost>\r\n`);
      await talk.closed;
      expect(talk.replies().slice(3).map((line) => line.slice(0, 3))).toEqual(["550", "550", "550", "550", "421"]);
    } finally {
      talk.close();
    }
  });

  it("takes 5 connections at once from one client address, and the sixth once one of them closed", async () => {
    const talks = Array.from({ length: 5 }, () => smtpTalk(listener.port));
    try {
      await Promise.all(talks.map((talk) => talk.until(/^220 /m)));
      const sixth = smtpTalk(listener.port);
      await sixth.closed;
      expect(sixth.replies()).toEqual([expect.stringMatching(/^421 /)]);
      talks.shift()!.close();
      await vi.waitFor(
        async () => {
          const next = smtpTalk(listener.port);
          await next.nth(1);
          next.close();
          expect(next.replies()[0]).toMatch(/^220 /);
        },
        { timeout: 5000, interval: 200 },
      );
    } finally {
      for (const talk of talks) talk.close();
    }
  });
});
