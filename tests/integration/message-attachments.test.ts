/**
 * A message's attachments (issue 32; docs/decisions/0047-message-attachments.md), through the
 * real app on a real database and the real (local disk) storage: up to 5 JPEG, PNG, WebP or PDF
 * files of at most 10 MB, their type read from their bytes; a refused file refuses the message
 * and leaves nothing behind (no row, no stored file); served to the thread's two parties and to
 * operators for a reported message, never to another digger of the gig, a stranger or a visitor;
 * Hide hides them; the export lists their names and the purge deletes them. Photos are stored
 * without their metadata (GPS, camera), pixels unchanged; PDFs written again without their
 * metadata and scripts, or refused when they cannot be read.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACHMENT_TEXTS, attachmentPath, MAX_ATTACHMENT_BYTES } from "../../core/message-attachments.ts";
import { MESSAGE_TEXTS } from "../../core/messages.ts";
import { messageAttachments, messages, users } from "../../server/db/schema.ts";
import { rewritePdf } from "../../server/conversations/pdf-rewrite.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { changeUser, signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { boughtLead, decodeHtml, diggerWithProfile, insertPurchase } from "../support/leads.ts";
import { KEPT_MARKER, markedPdf, plainPdf, REMOVED_MARKERS } from "../support/pdf.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
let operator: TestUser;
let jpeg: Buffer;
let png: Buffer;
let webp: Buffer;
let pdf: Buffer;
/** `pdf` as it is stored: written again without metadata (server/conversations/pdf-rewrite.ts). */
let storedPdf: Buffer;

beforeAll(async () => {
  app = await createTestApp();
  operator = await signUpAs(app, "consumer", "Olga Operator");
  await changeUser(app, operator.id, { operatorSince: new Date() });
  const image = () => sharp({ create: { width: 64, height: 48, channels: 3, background: "#c0392b" } });
  [jpeg, png, webp] = await Promise.all([image().jpeg().toBuffer(), image().png().toBuffer(), image().webp().toBuffer()]);
  pdf = await plainPdf();
  storedPdf = (await rewritePdf(pdf))!;
});
afterAll(() => app.close());

const db = () => app.database.db;
const text = async (response: Response) => decodeHtml(await response.text());

const file = (data: Buffer, name: string, type: string) => ({ field: "attachments", file: new File([new Uint8Array(data)], name, { type }) });
type Upload = ReturnType<typeof file>;
const sendWith = (user: { client: SessionClient }, threadId: string, body: string, files: Upload[], js = true) =>
  user.client.postMultipart(`/messages/${threadId}`, js ? { intent: "send", body, js: "1" } : { intent: "send", body }, files);

const messagesOf = (threadId: string) => db().select().from(messages).where(eq(messages.threadId, threadId)).orderBy(messages.seq);
const attachmentsOfThread = (threadId: string) =>
  db()
    .select({ id: messageAttachments.id, messageId: messageAttachments.messageId, key: messageAttachments.storageKey, name: messageAttachments.fileName, type: messageAttachments.contentType, size: messageAttachments.sizeBytes, position: messageAttachments.position })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .where(eq(messages.threadId, threadId))
    .orderBy(messageAttachments.position);

/** Files in the private messages folder of the local storage. */
function storedFiles(): string[] {
  if (app.config.storage.kind !== "local") throw new Error("These tests read the local storage");
  const dir = path.join(app.config.storage.dir, "private", "messages");
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

describe("sending attachments", () => {
  it("stores JPEG, PNG, WebP and PDF files with the message, typed by their bytes, privately, and shows them in the thread", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    const before = storedFiles().length;
    const response = await sendWith(lead.digger, lead.threadId, "Photos of the deck and my quote", [
      file(jpeg, "deck.jpg", "image/jpeg"),
      file(png, "C:\\Users\\me\\plan.png", "image/png"),
      // Declared as a JPEG, but its bytes are WebP's: kept as what it is.
      file(webp, "rail.jpeg", "image/jpeg"),
      file(pdf, "Quote <2026>.pdf", "application/pdf"),
    ]);
    expect(response.status).toBe(200);
    const [message] = await messagesOf(lead.threadId);
    expect(message?.body).toBe("Photos of the deck and my quote");
    const rows = await attachmentsOfThread(lead.threadId);
    expect(rows.map((row) => [row.position, row.name, row.type, row.size])).toEqual([
      [0, "deck.jpg", "image/jpeg", jpeg.length],
      [1, "plan.png", "image/png", png.length],
      [2, "rail.webp", "image/webp", webp.length],
      [3, "Quote 2026.pdf", "application/pdf", storedPdf.length],
    ]);
    for (const row of rows) {
      expect(row.key).toMatch(/^private\/messages\/[0-9a-f]{40}\.(jpg|png|webp|pdf)$/);
      expect(row.messageId).toBe(message!.id);
    }
    expect(storedFiles().length).toBe(before + 4);

    const page = await text(await lead.client.client.get(`/messages/${lead.threadId}`));
    for (const row of rows) expect(page).toContain(attachmentPath(lead.threadId, row.id));
    expect(page).toMatch(/<img[^>]*alt="deck.jpg"/);
    expect(page).toMatch(/<a[^>]*download="Quote 2026.pdf"[^>]*>.*Quote 2026.pdf/s);
  });

  it("stores photos without their metadata (GPS, camera), the pixels unchanged, and serves those bytes", async () => {
    const lead = await boughtLead(app);
    const exif = { IFD0: { Make: "SecretCam", Artist: "Ada at home" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 2637/100" } };
    const photo = (format: "jpeg" | "png" | "webp") =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: "#1abc9c" } }).withExif(exif).toFormat(format, format === "webp" ? { lossless: true } : {}).toBuffer();
    const sent = await Promise.all([photo("jpeg"), photo("png"), photo("webp")]);
    for (const original of sent) expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await sendWith(lead.digger, lead.threadId, "Where I worked last week", [
      file(sent[0]!, "site.jpg", "image/jpeg"),
      file(sent[1]!, "site.png", "image/png"),
      file(sent[2]!, "site.webp", "image/webp"),
    ]);
    expect(response.status).toBe(200);
    const rows = await attachmentsOfThread(lead.threadId);
    expect(rows).toHaveLength(3);
    for (const [i, row] of rows.entries()) {
      const served = Buffer.from(await (await lead.client.client.get(attachmentPath(lead.threadId, row.id))).arrayBuffer());
      expect(served.length).toBe(row.size);
      expect(served.length).toBeLessThan(sent[i]!.length);
      expect((await sharp(served).metadata()).exif).toBeUndefined();
      expect(served.includes("SecretCam")).toBe(false);
      expect(await sharp(served).raw().toBuffer()).toEqual(await sharp(sent[i]!).raw().toBuffer());
    }
  });

  it("stores PDFs without their document information, XMP, OpenAction, additional actions or scripts; refuses one it cannot read with its words (issue 45, finding 7)", async () => {
    const lead = await boughtLead(app);
    for (const useObjectStreams of [false, true]) {
      const marked = await markedPdf({ useObjectStreams });
      expect((await sendWith(lead.digger, lead.threadId, "My quote, signed", [file(marked, "quote.pdf", "application/pdf")])).status).toBe(200);
    }
    const rows = await attachmentsOfThread(lead.threadId);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const served = Buffer.from(await (await lead.client.client.get(attachmentPath(lead.threadId, row.id))).arrayBuffer());
      expect(served.length).toBe(row.size);
      for (const marker of REMOVED_MARKERS) expect(served.includes(marker), marker).toBe(false);
      expect(served.includes(KEPT_MARKER)).toBe(true);
    }

    const before = storedFiles().length;
    const broken = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    for (const js of [true, false]) {
      const response = await sendWith(lead.digger, lead.threadId, "A broken file", [file(png, "deck.png", "image/png"), file(broken, "broken.pdf", "application/pdf")], js);
      expect(await text(response)).toContain(ATTACHMENT_TEXTS.pdfUnreadable);
    }
    expect(await messagesOf(lead.threadId)).toHaveLength(2);
    expect(storedFiles().length).toBe(before);
  });

  it("works as a plain form post without JavaScript (back to the thread)", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    const response = await sendWith(lead.client, lead.threadId, "Here is the site plan", [file(pdf, "site.pdf", "application/pdf")], false);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/messages/${lead.threadId}`);
    expect((await attachmentsOfThread(lead.threadId)).map((row) => row.name)).toEqual(["site.pdf"]);
  });

  it("a message without files is sent as before, an empty file input too; the text stays required", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    expect((await sendWith(lead.digger, lead.threadId, "Just words", [file(Buffer.alloc(0), "", "application/octet-stream")])).status).toBe(200);
    expect((await messagesOf(lead.threadId)).map((m) => m.body)).toEqual(["Just words"]);
    expect(await attachmentsOfThread(lead.threadId)).toEqual([]);
    const before = storedFiles().length;
    const empty = await sendWith(lead.digger, lead.threadId, "", [file(jpeg, "only.jpg", "image/jpeg")]);
    expect(await text(empty)).toContain(MESSAGE_TEXTS.empty);
    expect(await messagesOf(lead.threadId)).toHaveLength(1);
    expect(storedFiles().length).toBe(before);
  });

  it("refuses another type (by its bytes, whatever it is called or declared), an oversize file, a sixth file or an empty one: nothing is written or stored", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    const before = storedFiles().length;
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
    const tooBig = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1);
    pdf.copy(tooBig);
    const refusals: Array<[string, Upload[]]> = [
      ["HTML called a JPEG", [file(jpeg, "ok.jpg", "image/jpeg"), file(html, "photo.jpg", "image/jpeg")]],
      ["a GIF", [file(gif, "anim.gif", "image/gif")]],
      ["a real PNG declared as HTML", [file(png, "page.html", "text/html")]],
      ["a PDF over 10 MB", [file(jpeg, "first.jpg", "image/jpeg"), file(tooBig, "big.pdf", "application/pdf")]],
      ["six files", Array.from({ length: 6 }, (_, i) => file(jpeg, `p${i}.jpg`, "image/jpeg"))],
      ["an empty file", [file(Buffer.alloc(0), "empty.pdf", "application/pdf")]],
    ];
    for (const [what, files] of refusals) {
      const response = await sendWith(lead.digger, lead.threadId, `Refused: ${what}`, files);
      expect(response.status, what).toBe(400);
      expect(await text(response), what).toContain(ATTACHMENT_TEXTS.refused);
    }
    // Without JavaScript, the same words on the thread's form answer.
    const plain = await sendWith(lead.digger, lead.threadId, "Refused without JavaScript", [file(html, "x.pdf", "application/pdf")], false);
    expect(await text(plain)).toContain(ATTACHMENT_TEXTS.refused);
    expect(await messagesOf(lead.threadId)).toEqual([]);
    expect(await attachmentsOfThread(lead.threadId)).toEqual([]);
    expect(storedFiles().length).toBe(before);
  });

  it("takes a file of exactly 10 MB, and five files", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    // A real PDF followed by spaces up to exactly 10 MB (stored written again, without them).
    const full = Buffer.alloc(MAX_ATTACHMENT_BYTES, 0x20);
    pdf.copy(full);
    expect((await sendWith(lead.client, lead.threadId, "The full survey", [file(full, "survey.pdf", "application/pdf")])).status).toBe(200);
    const five = Array.from({ length: 5 }, (_, i) => file(png, `p${i}.png`, "image/png"));
    expect((await sendWith(lead.client, lead.threadId, "Five photos", five)).status).toBe(200);
    expect((await attachmentsOfThread(lead.threadId)).map((row) => row.size)).toEqual(expect.arrayContaining([storedPdf.length, png.length]));
    expect(await attachmentsOfThread(lead.threadId)).toHaveLength(6);
  });

  it("stores nothing for a message that is not sent (a block) and nothing for a stranger", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    const before = storedFiles().length;
    await lead.client.client.post(`/messages/${lead.threadId}`, { intent: "block" });
    const blocked = await sendWith(lead.digger, lead.threadId, "Are you there?", [file(jpeg, "a.jpg", "image/jpeg")]);
    expect(await text(blocked)).toContain(MESSAGE_TEXTS.notSent);
    const stranger = await signUpAs(app, "consumer", "Stan Stranger");
    expect((await sendWith(stranger, lead.threadId, "Let me in", [file(jpeg, "a.jpg", "image/jpeg")])).status).toBe(404);
    // Files only go with a send.
    const withBlock = await lead.client.client.postMultipart(`/messages/${lead.threadId}`, { intent: "unblock" }, [file(jpeg, "a.jpg", "image/jpeg")]);
    expect(await text(withBlock)).toContain(ATTACHMENT_TEXTS.refused);
    expect(await messagesOf(lead.threadId)).toEqual([]);
    expect(storedFiles().length).toBe(before);
  });

  it("reads a visitor's or a stranger's files not at all: the thread's rule comes before its form reader (the adapter's readForm)", async () => {
    const lead = await boughtLead(app);
    const stranger = await signUpAs(app, "consumer", "Sid Stranger");
    const visitor = { client: new SessionClient(app) };
    // Every write to storage while they post, counted on the real storage.
    const storage = app.services.storage;
    const put = storage.put.bind(storage);
    const written: string[] = [];
    storage.put = async (key, data) => {
      written.push(key);
      return put(key, data);
    };
    try {
      const refusedVisitor = await sendWith(visitor, lead.threadId, "Let me in", [file(jpeg, "a.jpg", "image/jpeg")], false);
      expect(refusedVisitor.status).toBe(302);
      expect(refusedVisitor.headers.get("location")).toContain("/auth?redirect=");
      expect((await sendWith(stranger, lead.threadId, "Let me in", [file(jpeg, "a.jpg", "image/jpeg")])).status).toBe(404);
      expect(written).toEqual([]);
      // The party's own post still goes through the reader to storage.
      expect((await sendWith(lead.digger, lead.threadId, "Mine", [file(jpeg, "a.jpg", "image/jpeg")])).status).toBe(200);
      expect(written).toHaveLength(1);
    } finally {
      storage.put = put;
    }
    expect((await messagesOf(lead.threadId)).map((m) => m.body)).toEqual(["Mine"]);
  });

  it("the database holds at most 5 per message, in positions 0 to 4, of the four types", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    await sendWith(lead.digger, lead.threadId, "One", [file(jpeg, "a.jpg", "image/jpeg")]);
    const [row] = await attachmentsOfThread(lead.threadId);
    const insert = (over: Record<string, unknown>) =>
      db().insert(messageAttachments).values({ messageId: row!.messageId, position: 1, storageKey: `private/messages/${Math.random().toString(16).slice(2)}.jpg`, fileName: "b.jpg", contentType: "image/jpeg", sizeBytes: 10, ...over });
    await expect(insert({ position: 0 })).rejects.toThrow();
    await expect(insert({ position: 5 })).rejects.toThrow();
    await expect(insert({ contentType: "image/gif" as "image/jpeg" })).rejects.toThrow();
    await expect(insert({ sizeBytes: MAX_ATTACHMENT_BYTES + 1 })).rejects.toThrow();
    await expect(insert({ storageKey: "messages/public.jpg" })).rejects.toThrow();
  });
});

describe("serving attachments", () => {
  it("to both parties (images inline, PDFs as downloads, never cached); the 404 page for another digger of the gig, a stranger, a visitor, an operator without a report", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    await sendWith(lead.digger, lead.threadId, "Photo and quote", [file(png, "deck.png", "image/png"), file(pdf, "Quote é.pdf", "application/pdf")]);
    const [image, document] = await attachmentsOfThread(lead.threadId);
    const imagePath = attachmentPath(lead.threadId, image!.id);
    const pdfPath = attachmentPath(lead.threadId, document!.id);

    for (const party of [lead.digger, lead.client]) {
      const shown = await party.client.get(imagePath);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("content-type")).toBe("image/png");
      expect(shown.headers.get("content-disposition")).toMatch(/^inline; filename="deck.png"/);
      expect(shown.headers.get("x-content-type-options")).toBe("nosniff");
      expect(shown.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(shown.headers.get("cache-control")).toBe("private, no-store");
      expect(Buffer.from(await shown.arrayBuffer()).equals(png)).toBe(true);
      const download = await party.client.get(pdfPath);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/pdf");
      expect(download.headers.get("content-disposition")).toBe(`attachment; filename="Quote _.pdf"; filename*=UTF-8''${encodeURIComponent("Quote é.pdf")}`);
      expect(download.headers.get("cache-control")).toBe("private, no-store");
      expect(Buffer.from(await download.arrayBuffer()).equals(storedPdf)).toBe(true);
    }

    const rival = await diggerWithProfile(app);
    await insertPurchase(app, lead.gig, rival.diggerId);
    const stranger = await signUpAs(app, "consumer", "Sid Stranger");
    const visitor = { client: new SessionClient(app) };
    for (const outsider of [rival, stranger, visitor, operator]) {
      for (const address of [imagePath, pdfPath]) {
        const refused = await outsider.client.get(address);
        expect(refused.status).toBe(404);
        expect(await refused.text()).not.toContain("%PDF-");
      }
    }
    // Another thread's address, an unknown id, a malformed one: the 404 page too.
    const other = await boughtLead(app, { clientName: "Ada Attach" });
    expect((await lead.digger.client.get(attachmentPath(other.threadId, image!.id))).status).toBe(404);
    expect((await lead.digger.client.get(attachmentPath(lead.threadId, "5b1f0b0e-0000-4000-8000-000000000000"))).status).toBe(404);
    expect((await lead.digger.client.get(`/messages/${lead.threadId}/attachments/not-an-id`)).status).toBe(404);
  });

  it("to operators once the message is reported, in the console's queue; Hide hides them from both parties", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    await sendWith(lead.digger, lead.threadId, "Pay me outside the site, see the invoice", [file(pdf, "invoice.pdf", "application/pdf"), file(jpeg, "qr.jpg", "image/jpeg")]);
    const [message] = await messagesOf(lead.threadId);
    const files = await attachmentsOfThread(lead.threadId);
    const paths = files.map((row) => attachmentPath(lead.threadId, row.id));
    for (const address of paths) expect((await operator.client.get(address)).status).toBe(404);

    const reported = await lead.client.client.post(`/messages/${lead.threadId}`, { intent: "report", messageId: message!.id, reason: "Asks for payment outside the site" });
    expect(reported.status).toBe(200);
    const queue = await text(await operator.client.get("/ops/messages"));
    for (const address of paths) expect(queue).toContain(address);
    expect(queue).toContain("invoice.pdf");
    for (const address of paths) expect((await operator.client.get(address)).status).toBe(200);

    expect((await operator.client.post("/ops/messages", { intent: "hide", messageId: message!.id })).status).toBe(200);
    for (const party of [lead.digger, lead.client]) {
      for (const address of paths) expect((await party.client.get(address)).status).toBe(404);
      const page = await text(await party.client.get(`/messages/${lead.threadId}`));
      expect(page).toContain(MESSAGE_TEXTS.removed);
      for (const address of paths) expect(page).not.toContain(address);
    }
    // The operator still sees what was reported (the audit of the decision).
    expect((await operator.client.get(paths[0]!)).status).toBe(200);
  });
});

describe("privacy", () => {
  it("the export lists attachment names; the purge of a deleted account deletes its attachments' rows and files, not the other party's", async () => {
    const lead = await boughtLead(app, { clientName: "Ada Attach" });
    await sendWith(lead.client, lead.threadId, "My photos", [file(jpeg, "kitchen.jpg", "image/jpeg"), file(pdf, "plans.pdf", "application/pdf")]);
    await sendWith(lead.digger, lead.threadId, "My quote", [file(pdf, "quote.pdf", "application/pdf")]);
    const exported = JSON.parse(await (await lead.client.client.get("/account/data")).text()) as {
      threads: Array<{ id: string; messages: Array<{ text: string; attachments: string[] }> }>;
    };
    expect(exported.threads.find((t) => t.id === lead.threadId)?.messages).toEqual([
      expect.objectContaining({ text: "My photos", attachments: ["kitchen.jpg", "plans.pdf"] }),
      expect.objectContaining({ text: "My quote", attachments: ["quote.pdf"] }),
    ]);

    const rows = await attachmentsOfThread(lead.threadId);
    const clientKeys = rows.filter((row) => row.name !== "quote.pdf").map((row) => row.key);
    const diggerKey = rows.find((row) => row.name === "quote.pdf")!.key;
    for (const key of [...clientKeys, diggerKey]) expect(await app.services.storage.get(key)).not.toBeNull();

    await db().update(users).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(users.id, lead.client.id));
    await purgeDeletedAccounts({ ...app.services, config: { accountPurgeDelayHours: 0 } });
    expect(await db().select().from(messageAttachments).where(inArray(messageAttachments.storageKey, clientKeys))).toEqual([]);
    for (const key of clientKeys) expect(await app.services.storage.get(key)).toBeNull();
    expect(await app.services.storage.get(diggerKey)).not.toBeNull();
    expect((await attachmentsOfThread(lead.threadId)).map((row) => row.name)).toEqual(["quote.pdf"]);
    const page = await text(await lead.digger.client.get(`/messages/${lead.threadId}`));
    expect(page).toContain(MESSAGE_TEXTS.deletedMessage);
    expect(page).not.toContain("kitchen.jpg");
    expect(page).toContain("quote.pdf");
  });
});
