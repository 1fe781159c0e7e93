/**
 * Request body limits (issue 16, finding 5): every body is counted as it arrives, before
 * anything reads it, and refused with 413 past its route's limit: 100 KB by default, a digger
 * registration with every photo at its size limit, a message with its 5 attachments at theirs
 * (a thread's multipart body only), 1 MB for Stripe's webhook. A chunked body
 * (no Content-Length) is cut off at the limit instead of being read whole: in-process, where
 * the test counts what the server pulled from the stream, and on a real socket.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PHOTO_BYTES, MAX_WORK_PHOTOS } from "#core/digger-schemas.ts";
import { BODY_LIMITS, bodyTooLarge } from "../../server/app.ts";
import { diggerProfiles, gigs } from "../../server/db/schema.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validDiggerForm, validGigForm } from "../support/forms.ts";
import { topLevelCategoryId } from "../support/leads.ts";
import { freePort } from "../support/ports.ts";
import { startServerProcess, waitForReady } from "../support/server-process.ts";
import { location, SessionClient } from "../support/session-client.ts";

const MB = 1024 * 1024;
const encoder = new TextEncoder();
const ZEROS = new Uint8Array(64 * 1024);

let app: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "dg-body-limit-"));
  app = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A multipart body: one file of `bytes` zeros, made 64 KB at a time as it is read. */
function* multipartChunks(boundary: string, bytes: number): Generator<Uint8Array> {
  yield encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="workPhotos"; filename="huge.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  for (let n = 0; n < bytes; n += ZEROS.length) yield ZEROS;
  yield encoder.encode(`\r\n--${boundary}--\r\n`);
}

/** A form field `name` of `bytes` letters, made 64 KB at a time as it is read. */
function* urlEncodedChunks(name: string, bytes: number): Generator<Uint8Array> {
  yield encoder.encode(`${name}=`);
  const letters = new Uint8Array(ZEROS.length).fill(0x61);
  for (let n = 0; n < bytes; n += letters.length) yield letters;
}

/** A body with no Content-Length that makes each chunk only when the server reads it; `read` counts bytes made. */
function streamOf(chunks: Iterator<Uint8Array>, read: { bytes: number }): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks.next();
        if (next.done) return controller.close();
        read.bytes += next.value.length;
        controller.enqueue(next.value);
      },
    },
    { highWaterMark: 0 },
  );
}

const chunkedPost = (contentType: string, body: ReadableStream<Uint8Array>) =>
  ({ method: "POST", headers: { "content-type": contentType, origin: app.config.publicUrl }, body, duplex: "half" }) as RequestInit;

/** A real JPEG (a solid colour of shade `n`) padded with comment segments to exactly `size` bytes. */
async function photoOfSize(n: number, size: number): Promise<Buffer> {
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10 * n, g: 80, b: 160 } } })
    .jpeg()
    .toBuffer();
  const segments: Buffer[] = [];
  for (let missing = size - image.length; missing > 0; ) {
    // A COM segment is 4 to 65537 bytes; never leave fewer than 4 for the last one.
    const length = missing > 65537 + 4 ? 65537 : missing > 65537 ? missing - 4 : missing;
    const segment = Buffer.alloc(length, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(length - 2, 2);
    segments.push(segment);
    missing -= length;
  }
  return Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
}

describe("request body limits, in-process", () => {
  it("cuts off a chunked upload to /digger-registration past the photo allowance with 413, unread beyond it", async () => {
    const digger = await signUpAs(app, "digger");
    const boundary = `dg-${randomUUID()}`;
    const read = { bytes: 0 };
    const response = await digger.client.send(
      "/digger-registration",
      chunkedPost(`multipart/form-data; boundary=${boundary}`, streamOf(multipartChunks(boundary, 80 * MB), read)),
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toBe(bodyTooLarge(BODY_LIMITS.diggerRegistration));
    expect(read.bytes).toBeLessThan(BODY_LIMITS.diggerRegistration + MB);
    expect(await app.database.db.select().from(diggerProfiles).where(eq(diggerProfiles.userId, digger.id))).toEqual([]);
  });

  it("gives a thread's address the attachments' allowance for a multipart body only: past it 413, unread beyond it; any other body the default", async () => {
    const thread = `/messages/${randomUUID()}`;
    for (const target of [thread, `${thread}.data`]) {
      const boundary = `dg-${randomUUID()}`;
      const read = { bytes: 0 };
      const response = await new SessionClient(app).send(target, chunkedPost(`multipart/form-data; boundary=${boundary}`, streamOf(multipartChunks(boundary, 80 * MB), read)));
      expect(response.status, target).toBe(413);
      expect(await response.text()).toBe(bodyTooLarge(BODY_LIMITS.messageWithAttachments));
      expect(read.bytes).toBeGreaterThan(BODY_LIMITS.default);
      expect(read.bytes).toBeLessThan(BODY_LIMITS.messageWithAttachments + MB);
    }
    const read = { bytes: 0 };
    const urlEncoded = await new SessionClient(app).send(thread, chunkedPost("application/x-www-form-urlencoded", streamOf(urlEncodedChunks("body", 20 * MB), read)));
    expect(urlEncoded.status).toBe(413);
    expect(await urlEncoded.text()).toBe(bodyTooLarge(BODY_LIMITS.default));
    expect(read.bytes).toBeLessThan(BODY_LIMITS.default + MB);
  });

  it("refuses an oversized contact form (page and data request, chunked or not), sign-in JSON and webhook with 413", async () => {
    const origin = app.config.publicUrl;
    const read = { bytes: 0 };
    const chunked = await new SessionClient(app).send(
      "/contact",
      chunkedPost("application/x-www-form-urlencoded", streamOf(urlEncodedChunks("message", 20 * MB), read)),
    );
    expect(chunked.status).toBe(413);
    expect(await chunked.text()).toBe(bodyTooLarge(BODY_LIMITS.default));
    expect(read.bytes).toBeLessThan(BODY_LIMITS.default + MB);

    const bigForm = new URLSearchParams({ name: "Grace Hopper", email: "grace@example.com", message: "m".repeat(2 * MB) }).toString();
    const form = { "content-type": "application/x-www-form-urlencoded", origin };
    const json = { "content-type": "application/json", origin };
    const bigJson = JSON.stringify({ email: "grace@example.com", password: "p".repeat(2 * MB) });
    const refused = [
      // A browser's own post, which says how long it is.
      ["/contact", { method: "POST", headers: { ...form, "content-length": String(bigForm.length) }, body: bigForm }],
      // React Router's data request for the same form.
      ["/contact.data", { method: "POST", headers: form, body: bigForm }],
      ["/api/auth/sign-in/email", { method: "POST", headers: json, body: bigJson }],
      ["/api/auth/sign-in/email", { method: "POST", headers: { ...json, "content-length": String(bigJson.length) }, body: bigJson }],
      ["/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" }, body: bigJson }],
    ] as const;
    for (const [target, init] of refused) {
      const response = await new SessionClient(app).send(target, init);
      expect(response.status, target).toBe(413);
      const limit = target === "/api/webhooks/stripe" ? BODY_LIMITS.stripeWebhook : BODY_LIMITS.default;
      expect(await response.text(), target).toBe(bodyTooLarge(limit));
    }
  });

  it("lets through a registration with every photo at its size limit, and the largest ordinary forms", async () => {
    const digger = await signUpAs(app, "digger");
    const categoryId = await topLevelCategoryId(app);
    const form = new FormData();
    const fields = validDiggerForm(categoryId, { businessName: "Full Album LLC", bio: "\u20ac".repeat(2000) });
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const photo = async (field: string, n: number) =>
      form.append(field, new File([new Uint8Array(await photoOfSize(n, MAX_PHOTO_BYTES))], `p${n}.jpg`, { type: "image/jpeg" }));
    await photo("profilePhoto", 0);
    for (let n = 1; n <= MAX_WORK_PHOTOS; n++) await photo("workPhotos", n);
    const registration = await digger.client.send("/digger-registration", { method: "POST", body: form, headers: { origin: app.config.publicUrl } });
    expect(registration.status).toBe(302);
    const [profile] = await app.database.db.select().from(diggerProfiles).where(eq(diggerProfiles.userId, digger.id));
    // A first profile lands on Browse Gigs in its categories (issue 47).
    expect(location(registration)).toMatch(new RegExp(`^/browse-gigs\\?category=${categoryId}`));
    expect(profile!.workPhotos).toHaveLength(MAX_WORK_PHOTOS);

    // The same form sent by the page's script, as React Router's data request: an edit with one new photo.
    const edit = new FormData();
    for (const [key, value] of Object.entries({ ...fields, handle: profile!.handle, businessName: "Edited Album LLC" })) edit.append(key, value);
    edit.append("workPhotos", new File([new Uint8Array(await photoOfSize(99, 2 * BODY_LIMITS.default))], "extra.jpg", { type: "image/jpeg" }));
    const dataRequest = await digger.client.send("/digger-registration.data", { method: "POST", body: edit, headers: { origin: app.config.publicUrl } });
    expect(dataRequest.status).not.toBe(413);
    const [edited] = await app.database.db.select().from(diggerProfiles).where(eq(diggerProfiles.userId, digger.id));
    expect(edited!.businessName).toBe("Edited Album LLC");
    expect(edited!.workPhotos).toHaveLength(1);

    // A gig at every field's longest, each character three bytes and nine once URL-encoded.
    const clientUser = await signUpAs(app, "consumer");
    const longGig = validGigForm(categoryId, { title: `${"\u20ac".repeat(91)} ${randomUUID().slice(0, 8)}`, description: "\u20ac".repeat(2000), contactPreferences: "\u20ac".repeat(500) });
    expect(location(await clientUser.client.post("/post-gig", longGig))).toBe("/");
    expect(await app.database.db.select({ id: gigs.id }).from(gigs).where(eq(gigs.title, longGig.title!))).toHaveLength(1);

    const contact = await new SessionClient(app).post("/contact", {
      name: "Grace Hopper",
      email: "grace@example.com",
      subject: "\u20ac".repeat(200),
      message: "\u20ac".repeat(1000),
    });
    expect(contact.status).not.toBe(413);
    expect(await contact.text()).toContain("Message sent successfully!");

    const signIn = await new SessionClient(app).send("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.config.publicUrl },
      body: JSON.stringify({ email: digger.email, password: "correct-horse" }),
    });
    expect(signIn.status).toBe(200);
  });
});

/** Posts `chunks` with no Content-Length over a real socket until the server answers; counts what was written by then. */
function postChunked(url: string, contentType: string, chunks: Iterator<Uint8Array>) {
  return new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request(url, { method: "POST", headers: { "content-type": contentType, origin: new URL(url).origin } }, (res) => {
      answered = true;
      const sentBeforeAnswer = written;
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode!, body, written: sentBeforeAnswer });
        req.destroy();
      });
    });
    // The server may close the connection on a body it refused while this is still writing.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const writeNext = () => {
      if (answered) return;
      const next = chunks.next();
      if (next.done) return void req.end();
      written += next.value.length;
      req.write(next.value, () => setImmediate(writeNext));
    };
    writeNext();
  });
}

describe("request body limits, on a real server", () => {
  it("answers an oversized chunked upload with 413 before it is all sent, and keeps serving", async () => {
    const serverDir = await mkdtemp(path.join(tmpdir(), "dg-body-limit-server-"));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServerProcess({
      DATA_DIR: serverDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      SEED_DEMO_DATA: "false",
    });
    try {
      await waitForReady(url, server);
      const boundary = `dg-${randomUUID()}`;
      const upload = await postChunked(`${url}/digger-registration`, `multipart/form-data; boundary=${boundary}`, multipartChunks(boundary, 160 * MB));
      expect(upload.status).toBe(413);
      expect(upload.body).toBe(bodyTooLarge(BODY_LIMITS.diggerRegistration));
      // Answered long before the end: past the limit only what socket buffers held on the way.
      expect(upload.written).toBeLessThan(BODY_LIMITS.diggerRegistration + 48 * MB);

      const contact = await postChunked(`${url}/contact`, "application/x-www-form-urlencoded", urlEncodedChunks("message", 20 * MB));
      expect(contact.status).toBe(413);
      expect(contact.body).toBe(bodyTooLarge(BODY_LIMITS.default));

      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/contact`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      await rm(serverDir, { recursive: true, force: true });
    }
  });
});
