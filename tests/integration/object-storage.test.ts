/**
 * Uploads in an object store (issue 18, docs/decisions/0015-object-storage.md): with the S3
 * settings, a digger's photos go to the S3 server (s3rver, checked through the S3 protocol,
 * not through our code), a second server that shares only the bucket and the database serves
 * them, removing a photo and purging the account delete the objects, and no `private/` key is
 * ever served at /uploads/, from the object store or from the local disk.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diggerProfiles, users } from "../../server/db/schema.ts";
import { purgeDeletedAccounts } from "../../server/privacy/purge.ts";
import { keyOfUploadUrl } from "../../server/storage/storage.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { validDiggerForm } from "../support/forms.ts";
import { headersOfUpload, makeImage, uploadHeaders } from "../support/images.ts";
import { topLevelCategoryId } from "../support/leads.ts";
import { startS3Peer, type S3Peer } from "../support/s3.ts";
import { location, SessionClient } from "../support/session-client.ts";

let s3: S3Peer;
/** The server that takes the upload, and another one that shares only the bucket and the database. */
let first: TestApp;
let second: TestApp;
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "dg-object-storage-"));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  s3 = await startS3Peer();
  first = await createTestApp({ ...s3.env, DATA_DIR: await tempDir() });
  second = await createTestApp({ ...s3.env, DATA_DIR: await tempDir() }, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The object's bytes, read from the S3 server directly. */
async function objectBytes(key: string): Promise<Buffer> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

const photo = async (name: string, width: number) => new File([new Uint8Array(await makeImage("jpeg", { width }))], name, { type: "image/jpeg" });

describe("uploads in the object store", () => {
  it("stores a registration's photos in the bucket, served by another server, and deletes them when removed or purged", async () => {
    expect(first.config.storage).toMatchObject({ kind: "s3", bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true });
    const digger = await signUpAs(first, "digger");
    const form = validDiggerForm(await topLevelCategoryId(first));
    const registration = await digger.client.postMultipart("/digger-registration", form, [
      { field: "profilePhoto", file: await photo("me.jpg", 600) },
      { field: "workPhotos", file: await photo("work.jpg", 80) },
    ]);
    expect(registration.status, await registration.clone().text()).toBe(302);
    const [profile] = await first.database.db.select().from(diggerProfiles).where(eq(diggerProfiles.userId, digger.id));
    const profileKey = keyOfUploadUrl(profile!.profileImageUrl!)!;
    const workKey = keyOfUploadUrl(profile!.workPhotos[0]!)!;
    expect(profileKey).toMatch(/^diggers\/[0-9a-f]+\/[0-9a-f]+\.jpg$/);

    // In the bucket, with its content type; nothing on the first server's disk.
    expect(await s3.keys()).toEqual([profileKey, workKey].sort());
    expect(await s3.head(profileKey)).toMatchObject({ contentType: "image/jpeg" });
    expect(await readdir(first.config.dataDir)).not.toContain("uploads");

    // The other server serves it, the same bytes with the same headers as from the local disk.
    const served = await second.request(profile!.profileImageUrl!);
    expect(served.status).toBe(200);
    expect(headersOfUpload(served)).toEqual(uploadHeaders("image/jpeg"));
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(await objectBytes(profileKey))).toBe(true);
    expect((await sharp(bytes).metadata()).width).toBe(512);
    expect((await second.request(`/uploads/diggers/${"0".repeat(24)}/missing.jpg`)).status).toBe(404);

    // Removing the profile photo (an edit, on the second server) deletes its object.
    const onSecond = new SessionClient(second);
    for (const [name, value] of digger.client.cookies) onSecond.cookies.set(name, value);
    const edit = await onSecond.post("/digger-registration", { ...form, removeProfilePhoto: "on", keepWorkPhotos: profile!.workPhotos[0]! });
    expect(location(edit)).toBe(`/digger/${profile!.id}`);
    expect(await s3.head(profileKey)).toBeNull();
    expect(await s3.keys()).toEqual([workKey]);
    expect((await first.request(profile!.profileImageUrl!)).status).toBe(404);

    // The purge of the deleted account deletes the rest.
    await first.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, digger.id));
    expect(await purgeDeletedAccounts({ ...first.services, config: { accountPurgeDelayHours: 0 } })).toBe(1);
    expect(await s3.keys()).toEqual([]);
  });
});

describe("private files", () => {
  const image = () => makeImage("jpeg");
  const privatePaths = ["/uploads/private/credentials/licence.jpg", "/uploads/%70rivate/credentials/licence.jpg", "/uploads/diggers/../private/credentials/licence.jpg"];

  it("never serves a key under private/ from the object store", async () => {
    const data = await image();
    for (const key of ["private/credentials/licence.jpg", "diggers/public/control.jpg"]) {
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: data, ContentType: "image/jpeg" }));
    }
    expect((await first.request("/uploads/diggers/public/control.jpg")).status).toBe(200);
    for (const target of privatePaths) expect((await first.request(target)).status, target).toBe(404);
    expect((await first.request(privatePaths[0]!, { method: "HEAD" })).status).toBe(404);
  });

  it("never serves a key under private/ from the local disk either", async () => {
    const dataDir = await tempDir();
    const local = await createTestApp({ DATA_DIR: dataDir }, { database: first.database });
    expect(local.config.storage).toEqual({ kind: "local", dir: path.join(dataDir, "uploads") });
    for (const key of ["private/credentials/licence.jpg", "diggers/public/control.jpg"]) {
      const file = path.join(dataDir, "uploads", key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, await image());
    }
    expect((await local.request("/uploads/diggers/public/control.jpg")).status).toBe(200);
    for (const target of privatePaths) expect((await local.request(target)).status, target).toBe(404);
    await local.close();
  });
});
