/**
 * Diggers: registration (every message, handle rules, one transaction), editing, photo
 * uploads, Browse Talent (search, filter, sorts, pagination on the demo data) and the public
 * profile, whose HTML and data never carry private fields.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories, diggerCategories, diggerProfiles, diggerReferences, users } from "../../server/db/schema.ts";
import { seedDemoData } from "../../server/db/seed/index.ts";
import { demoDiggers } from "../../server/db/seed/demo-data.ts";
import { browseDiggers, type DiggerSort } from "../../server/diggers/browse.ts";
import { diggerPage } from "../../server/diggers/public-profile.ts";
import { addDiggerProfile, signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { headersOfUpload, makeImage, MIME, uploadHeaders, type ImageFormat } from "../support/images.ts";
import { location, SessionClient } from "../support/session-client.ts";

let app: TestApp;
let dataDir: string;
let topLevel: Array<{ id: string; name: string }>;
let subCategories: Array<{ id: string; name: string; parentId: string }>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "dg-diggers-"));
  app = await createTestApp({ DATA_DIR: dataDir });
  await seedDemoData(app.database.db);
  const all = await app.database.db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentCategoryId })
    .from(categories);
  topLevel = all.filter((c) => !c.parentId);
  subCategories = all.filter((c): c is typeof c & { parentId: string } => c.parentId !== null);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** HTML text with entities decoded, so messages with apostrophes compare as written. */
const decode = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

async function signUp(userType: "consumer" | "digger") {
  const user = await signUpAs(app, userType, `Person ${randomUUID().slice(0, 8)}`);
  return { ...user, userId: user.id };
}

type Fields = Record<string, string | string[]>;
interface Upload {
  field: string;
  data: Buffer;
  name: string;
  type: string;
}

function profileFields(overrides: Fields = {}): Fields {
  return {
    handle: `Pro_${randomUUID().slice(0, 8)}`,
    businessName: "Secret Business LLC",
    phone: "(555) 010-9999",
    location: "Austin, TX",
    profession: "Electrician",
    bio: "Twenty years wiring homes and small offices.",
    hourlyRateMin: "60",
    hourlyRateMax: "95.50",
    yearsExperience: "20",
    availability: "Weekdays",
    portfolioUrl: "https://example.com/work",
    isInsured: "yes",
    isBonded: "no",
    isLicensed: "yes",
    categoryIds: [topLevel[0]!.id, subCategories[0]!.id],
    "references.0.name": "Rita Reference",
    "references.0.email": "rita.reference@example.com",
    "references.0.phone": "(555) 010-1234",
    "references.0.projectDescription": "Rewired the kitchen",
    acceptTerms: "on",
    ...overrides,
  };
}

function submit(client: SessionClient, fields: Fields, uploads: Upload[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
  }
  for (const u of uploads) form.append(u.field, new File([new Uint8Array(u.data)], u.name, { type: u.type }));
  return client.send("/digger-registration", { method: "POST", body: form, headers: { origin: app.config.publicUrl } });
}

async function image(field: string, format: ImageFormat = "jpeg", options: Parameters<typeof makeImage>[1] = {}): Promise<Upload> {
  return { field, data: await makeImage(format, options), name: `photo.${format === "jpeg" ? "jpg" : format}`, type: MIME[format] };
}

const profileOf = async (userId: string) =>
  (await app.database.db.select().from(diggerProfiles).where(eq(diggerProfiles.userId, userId)))[0];

async function createProfile(overrides: Fields = {}, uploads: Upload[] = []) {
  const digger = await signUp("digger");
  const response = await submit(digger.client, profileFields(overrides), uploads);
  expect(response.status, await response.clone().text()).toBe(302);
  const profile = (await profileOf(digger.userId))!;
  return { ...digger, profile, response };
}

describe("registration access", () => {
  it("sends a visitor to sign in as a digger, and a consumer home with 'Only diggers can access this page'", async () => {
    const visitor = await new SessionClient(app).get("/digger-registration");
    expect(location(visitor)).toBe("/auth?type=digger&redirect=%2Fdigger-registration");

    const { client, userId } = await signUp("consumer");
    const page = await client.get("/digger-registration");
    expect(location(page)).toBe("/");
    expect(await (await client.get("/")).text()).toContain("Only diggers can access this page");
    const post = await submit(client, profileFields());
    expect(location(post)).toBe("/");
    expect(await profileOf(userId)).toBeUndefined();
  });

  it("answers a submission without a session with 'Not authenticated'", async () => {
    const client = new SessionClient(app);
    const response = await submit(client, profileFields());
    expect(location(response)).toBe("/auth?type=digger&redirect=%2Fdigger-registration");
    expect(await (await client.get("/auth")).text()).toContain("Not authenticated");
  });

  it("shows every section of the form to a digger without a profile", async () => {
    const { client } = await signUp("digger");
    const html = decode(await (await client.get("/digger-registration")).text());
    for (const text of [
      "Create Your Digger Profile",
      "Basic Information",
      "Professional Credentials",
      "Select Categories",
      "Verifiable References",
      "Add Another Reference",
      "Create Digger Profile",
      "Cancel",
      topLevel[0]!.name,
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toMatch(/<a href="\/terms" target="_blank" rel="noopener noreferrer"/);
    expect(html).toMatch(/<a href="\/privacy" target="_blank" rel="noopener noreferrer"/);
  });
});

describe("registration rules", () => {
  it.each<[Fields, string]>([
    [{ handle: "" }, "Handle is required"],
    [{ handle: "!!! ---" }, "Handle is required"],
    [{ handle: "a".repeat(31) }, "Handle must be at most 30 characters"],
    [{ businessName: " " }, "Business name is required"],
    [{ phone: "" }, "Phone is required"],
    [{ location: "" }, "Location is required"],
    [{ profession: "" }, "Profession is required"],
    [{ bio: "" }, "Bio is required"],
    [{ hourlyRateMin: "abc" }, "Minimum hourly rate must be an amount in dollars, 0 or more"],
    [{ hourlyRateMax: "-5" }, "Maximum hourly rate must be an amount in dollars, 0 or more"],
    [{ hourlyRateMin: "100", hourlyRateMax: "99.99" }, "Minimum hourly rate cannot be greater than maximum hourly rate"],
    [{ yearsExperience: "2.5" }, "Years of experience must be a whole number from 0 to 100"],
    [{ portfolioUrl: "not a url" }, "Please enter a valid URL"],
    [{ portfolioUrl: "javascript:alert(1)" }, "Please enter a valid URL"],
    [{ categoryIds: [] }, "Please select at least one category"],
    [{ acceptTerms: "" }, "Please accept the Terms of Service to continue"],
    [{ "references.0.name": "" }, "Reference name is required"],
    [{ "references.0.email": "" }, "Reference email is required"],
    [{ "references.0.email": "not-an-email" }, "Please enter a valid reference email address"],
    [{ isLicensed: "maybe" }, "Please choose whether you are licensed"],
  ])("rejects %j with its message and saves nothing", async (change, message) => {
    const { client, userId } = await signUp("digger");
    const response = await submit(client, profileFields(change));
    expect(response.status).toBe(400);
    expect(decode(await response.text())).toContain(message);
    expect(await profileOf(userId)).toBeUndefined();
  });

  it("rejects a category id that does not exist", async () => {
    const { client, userId } = await signUp("digger");
    const response = await submit(client, profileFields({ categoryIds: [randomUUID()] }));
    expect(response.status).toBe(400);
    expect(await profileOf(userId)).toBeUndefined();
  });

  it("creates the profile with the handle normalised, categories and complete references, then shows it", async () => {
    const token = randomUUID().slice(0, 8);
    const { client, profile, response } = await createProfile({
      handle: ` Mr.Fix-It ${token.toUpperCase()} `,
      "references.1.name": "Only A Name",
      "references.2.name": "Second Ref",
      "references.2.email": "second.ref@example.com",
    });
    expect(profile.handle).toBe(`mrfixit${token}`);
    expect(profile).toMatchObject({
      businessName: "Secret Business LLC",
      hourlyRateMinCents: 6000,
      hourlyRateMaxCents: 9550,
      yearsExperience: 20,
      isInsured: true,
      isBonded: false,
      isLicensed: "yes",
      portfolioUrl: "https://example.com/work",
    });
    // A new profile goes on to Browse Gigs, in the digger's own categories and city (issue 47).
    expect(location(response)).toBe(`/browse-gigs?category=${topLevel[0]!.id}&category=${subCategories[0]!.id}&location=Austin`);
    const cats = await app.database.db.select().from(diggerCategories).where(eq(diggerCategories.diggerId, profile.id));
    expect(cats.map((c) => c.categoryId).sort()).toEqual([topLevel[0]!.id, subCategories[0]!.id].sort());
    const refs = await app.database.db.select().from(diggerReferences).where(eq(diggerReferences.diggerId, profile.id));
    expect(refs.map((r) => r.referenceName).sort()).toEqual(["Rita Reference", "Second Ref"]);
    const page = decode(await (await client.get(location(response)!)).text());
    expect(page).toContain("Profile created successfully!");
    // The filter shows the two categories chosen, the city filled in, and the list is 'near you'.
    expect(page).toContain(`2 categories: ${topLevel[0]!.name}, ${subCategories[0]!.name}`);
    expect(page).toMatch(/<option value="[^"]+,[^"]+" selected="">2 categories/);
    expect(page).toMatch(/name="location"[^>]*value="Austin"/);
    expect(page).toContain("Open requests from clients near you.");
  });

  it("keeps handles unique after normalisation: 'This handle is already taken'", async () => {
    const handle = `taken_${randomUUID().slice(0, 8)}`;
    await createProfile({ handle });
    const { client, userId } = await signUp("digger");
    const response = await submit(client, profileFields({ handle: handle.toUpperCase().replace("_", "_-") }));
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("This handle is already taken");
    expect(await profileOf(userId)).toBeUndefined();
  });

  it("writes profile, categories and references in one transaction: a failing reference insert leaves nothing", async () => {
    const db = app.database.db;
    await db.execute(sql`create or replace function dg_test_fail_reference() returns trigger language plpgsql as $$
      begin if new.reference_name = 'Explode' then raise exception 'reference insert failed'; end if; return new; end $$`);
    await db.execute(sql`create trigger dg_test_fail_reference before insert on digger_references
      for each row execute function dg_test_fail_reference()`);
    try {
      const { client, userId } = await signUp("digger");
      const response = await submit(client, profileFields({ "references.0.name": "Explode" }));
      expect(response.status).toBe(500);
      expect(await profileOf(userId)).toBeUndefined();
      const orphans = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(diggerCategories)
        .leftJoin(diggerProfiles, eq(diggerProfiles.id, diggerCategories.diggerId))
        .where(isNull(diggerProfiles.id));
      expect(orphans[0]!.n).toBe(0);
    } finally {
      await db.execute(sql`drop trigger dg_test_fail_reference on digger_references`);
      await db.execute(sql`drop function dg_test_fail_reference()`);
    }
  });
});

describe("editing", () => {
  it("shows the owner their profile with Save Changes, and saves changes, categories and references", async () => {
    const { client, profile } = await createProfile({
      "references.1.name": "Second Ref",
      "references.1.email": "second.ref@example.com",
    });
    const html = decode(await (await client.get("/digger-registration")).text());
    expect(html).toContain("Edit Your Digger Profile");
    expect(html).toContain("Save Changes");
    expect(html).toContain("Secret Business LLC");
    expect(html).toContain("second.ref@example.com");

    const refs = await app.database.db.select().from(diggerReferences).where(eq(diggerReferences.diggerId, profile.id));
    const rita = refs.find((r) => r.referenceName === "Rita Reference")!;
    // Someone else's reference id is not a way to edit their reference: it becomes a new one of ours.
    const other = await createProfile();
    const [othersRef] = await app.database.db.select().from(diggerReferences).where(eq(diggerReferences.diggerId, other.profile.id));

    const response = await submit(
      client,
      profileFields({
        handle: profile.handle,
        businessName: "Renamed Business",
        categoryIds: [topLevel[1]!.id],
        "references.0.id": rita.id,
        "references.0.name": "Rita Renamed",
        "references.1.id": othersRef!.id,
        "references.1.name": "New Ref",
        "references.1.email": "new.ref@example.com",
      }),
    );
    expect(response.status).toBe(302);
    // An edit goes back to the profile.
    expect(location(response)).toBe(`/digger/${profile.id}`);
    expect(await (await client.get(location(response)!)).text()).toContain("Profile updated successfully!");
    const updated = (await profileOf(profile.userId))!;
    expect(updated.id).toBe(profile.id);
    expect(updated.businessName).toBe("Renamed Business");
    const cats = await app.database.db.select().from(diggerCategories).where(eq(diggerCategories.diggerId, profile.id));
    expect(cats.map((c) => c.categoryId)).toEqual([topLevel[1]!.id]);
    const after = await app.database.db.select().from(diggerReferences).where(eq(diggerReferences.diggerId, profile.id));
    expect(after.map((r) => r.referenceName).sort()).toEqual(["New Ref", "Rita Renamed"]);
    expect(after.find((r) => r.referenceName === "Rita Renamed")!.id).toBe(rita.id);
    const [othersAfter] = await app.database.db.select().from(diggerReferences).where(eq(diggerReferences.id, othersRef!.id));
    expect(othersAfter).toMatchObject({ diggerId: other.profile.id, referenceName: othersRef!.referenceName });
  });
});

describe("photos", () => {
  it("stores a cleaned, resized profile photo and work photos, served as images with safe headers", async () => {
    const { profile } = await createProfile({}, [
      await image("profilePhoto", "jpeg", { width: 2000, height: 1200, exif: true }),
      await image("workPhotos", "png", { width: 3000, height: 2000 }),
      await image("workPhotos", "webp"),
    ]);
    expect(profile.profileImageUrl).toMatch(/^\/uploads\/diggers\/[0-9a-f]+\/[0-9a-f]+\.jpg$/);
    expect(profile.workPhotos).toHaveLength(2);
    const served = await app.request(profile.profileImageUrl!);
    expect(served.status).toBe(200);
    expect(headersOfUpload(served)).toEqual(uploadHeaders("image/jpeg"));
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes("SecretCam")).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width!, meta.height!)).toBe(512);
    const work = await sharp(Buffer.from(await (await app.request(profile.workPhotos[0]!)).arrayBuffer())).metadata();
    expect(work.format).toBe("png");
    expect(work.width).toBe(1600);
    expect((await app.request("/uploads/../../etc/passwd.jpg")).status).toBe(404);
  });

  it.each<[string, () => Promise<Upload>, string]>([
    ["a text file renamed to .jpg", async () => ({ field: "workPhotos", data: Buffer.from("just some text, not an image"), name: "evil.jpg", type: "image/jpeg" }), "Photos must be JPEG, PNG or WebP images"],
    ["a GIF", async () => ({ field: "profilePhoto", data: await sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } }).gif().toBuffer(), name: "a.jpg", type: "image/jpeg" }), "Photos must be JPEG, PNG or WebP images"],
    ["a file over 5 MB", async () => ({ field: "workPhotos", data: Buffer.alloc(5 * 1024 * 1024 + 1), name: "big.jpg", type: "image/jpeg" }), "Each photo must be 5 MB or smaller"],
  ])("rejects %s with a clear message and saves nothing", async (_name, upload, message) => {
    const { client, userId } = await signUp("digger");
    const response = await submit(client, profileFields(), [await upload()]);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await profileOf(userId)).toBeUndefined();
  });

  it("allows at most 12 work photos, counting the ones kept, and keeps only the profile's own", async () => {
    const png = await image("workPhotos", "png");
    const { client, profile } = await createProfile({}, Array.from({ length: 12 }, () => png));
    expect(profile.workPhotos).toHaveLength(1); // twelve identical files are one photo
    const thirteen = await Promise.all(Array.from({ length: 13 }, (_, i) => image("workPhotos", "jpeg", { width: 10 + i })));
    const tooMany = await submit(client, profileFields({ handle: profile.handle }), thirteen);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("You can add up to 12 work photos");

    const response = await submit(client, profileFields({ handle: profile.handle, keepWorkPhotos: ["/uploads/diggers/elsewhere/abc.jpg"] }));
    expect(response.status).toBe(302);
    expect((await profileOf(profile.userId))!.workPhotos).toEqual([]);
  });
});

describe("browse talent", () => {
  type Profile = typeof diggerProfiles.$inferSelect;
  const byRating = (a: Profile, b: Profile) => Number(b.averageRating) - Number(a.averageRating) || (a.id < b.id ? -1 : 1);
  async function allPages(sort: DiggerSort, q = "", category = "") {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await browseDiggers(app.database.db, { q, location: "", category, sort }, cursor);
      ids.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 50);
    return { ids, pages };
  }

  it.each<[DiggerSort, (a: Profile, b: Profile) => number]>([
    ["rating", byRating],
    ["experience", (a, b) => (b.yearsExperience ?? -1) - (a.yearsExperience ?? -1) || (a.id < b.id ? -1 : 1)],
    ["rate", (a, b) => (a.hourlyRateMinCents ?? Infinity) - (b.hourlyRateMinCents ?? Infinity) || (a.id < b.id ? -1 : 1)],
  ])("sorts by %s across pages, every digger exactly once", async (sort, compare) => {
    const rows = await app.database.db.select().from(diggerProfiles);
    expect(rows.length).toBeGreaterThan(20);
    const { ids, pages } = await allPages(sort);
    expect(pages).toBeGreaterThan(1);
    expect(ids).toEqual([...rows].sort(compare).map((r) => r.id));
  });

  it("searches profession, handle and bio case-insensitively, and takes % and _ literally", async () => {
    const { ids } = await allPages("rating", "PLUMB");
    const rows = await app.database.db.select().from(diggerProfiles).where(inArray(diggerProfiles.id, ids));
    expect(rows.map((r) => r.handle)).toContain("alvarez_plumbing");
    for (const r of rows) expect(`${r.handle} ${r.profession} ${r.bio}`.toLowerCase()).toContain("plumb");
    expect((await allPages("rating", "%")).ids).toEqual([]);
    expect((await allPages("rating", "zzqq_nothing")).ids).toEqual([]);
  });

  it("searches in rating order across pages, whether or not the top rating band holds a full page", async () => {
    // Matches rated 4.95-5.00 fill the first page from the band just under the top; the next
    // pages find too few in theirs and read every match. Ties in rating are broken by id.
    const term = `bandterm${randomUUID().slice(0, 8)}`;
    const top = Array.from({ length: 25 }, (_, i) => 5 - (i % 6) / 100);
    const lower = Array.from({ length: 20 }, (_, i) => Math.round((4.5 - Math.floor(i / 2) * 0.3) * 100) / 100);
    const db = app.database.db;
    for (const [i, rating] of [...top, ...lower].entries()) {
      const [user] = await db
        .insert(users)
        .values({ id: randomUUID(), name: `Band ${i}`, email: `${term}-${i}@example.com`, userType: "digger" })
        .returning({ id: users.id });
      await addDiggerProfile(app, user!, "Band Test LLC", { handle: `${term}_${i}`, averageRating: rating });
    }
    const rows = await db.select().from(diggerProfiles).where(sql`${diggerProfiles.handle} like ${`${term}%`}`);
    const expected = rows.sort(byRating).map((r) => r.id);
    const { ids, pages } = await allPages("rating", term.toUpperCase());
    expect(pages).toBe(3);
    expect(ids).toEqual(expected);
  });

  it("filters by a top-level category including its sub-categories", async () => {
    const sub = subCategories[5]!;
    const { profile } = await createProfile({ categoryIds: [sub.id] });
    const { ids } = await allPages("rating", "", sub.parentId);
    expect(ids).toContain(profile.id);
    const expected = await app.database.db
      .selectDistinct({ id: diggerCategories.diggerId })
      .from(diggerCategories)
      .innerJoin(categories, eq(categories.id, diggerCategories.categoryId))
      .where(sql`${categories.id} = ${sub.parentId} or ${categories.parentCategoryId} = ${sub.parentId}`);
    expect(ids.sort()).toEqual(expected.map((e) => e.id).sort());
  });

  it("renders cards with handle, rating to one decimal, at most 3 category badges then +N, and pages", async () => {
    const marcus = demoDiggers[1]!; // priya_builds: 4 categories, rated 4.60 by its seeded reviews
    const html = decode(await (await app.request(`/browse-diggers?q=${marcus.handle}`)).text());
    expect(html).toContain(marcus.handle);
    expect(html).toContain("4.6");
    expect(html).toContain("+1");
    expect(html).not.toContain(marcus.businessName);
    expect(html).not.toContain(marcus.fullName);
    expect(html).not.toContain(marcus.phone);
    const first = decode(await (await app.request("/browse-diggers?sort=rate")).text());
    expect(first).toContain("Lowest Rate");
    // One behaviour and one name with Browse Gigs: 'Load more' (appending once hydrated; its
    // href, followed without JavaScript, is the next page, which offers the way back to the first).
    expect(first).not.toContain("Next page");
    expect(first).not.toContain("Back to the first page");
    const next = /<a[^>]*href="([^"]*cursor=[^"]*)"[^>]*>Load more<\/a>/.exec(first)?.[1];
    expect(next).toMatch(/^\/browse-diggers\?sort=rate&cursor=/);
    const second = decode(await (await app.request(next!)).text());
    expect(second).toMatch(/<a[^>]*href="\/browse-diggers\?sort=rate"[^>]*>Back to the first page<\/a>/);
    expect(second).not.toMatch(/diggers? match/);
    const none = decode(await (await app.request("/browse-diggers?q=zzqq_nothing")).text());
    expect(none).toContain("No diggers found. Try adjusting your filters.");
    const bad = await app.request("/browse-diggers?sort=evil&category=x&cursor=%%%");
    expect(bad.status).toBe(200);
  });

  it("falls back to DG and 'anonymous' when a handle is missing", async () => {
    // Handles cannot be empty in the database; the display rule is covered in tests/unit/digger-display.test.ts.
    const { avatarInitials, displayHandle } = await import("../../core/digger-display.ts");
    expect(avatarInitials("")).toBe("DG");
    expect(displayHandle("")).toBe("anonymous");
  });
});

describe("public profile", () => {
  it("shows the profile with badges and references, never a private field in HTML or data", async () => {
    const { profile, email } = await createProfile(
      { handle: `public_${randomUUID().slice(0, 8)}`, isBonded: "yes" },
      [await image("workPhotos", "jpeg")],
    );
    const [owner] = await app.database.db.select().from(users).where(eq(users.id, profile.userId));
    const secrets = [profile.businessName, profile.phone, email, owner!.name, "rita.reference@example.com", "(555) 010-1234"];
    const clientUser = await signUp("consumer");
    for (const client of [new SessionClient(app), clientUser.client]) {
      const page = await client.get(`/digger/${profile.id}`);
      expect(page.status).toBe(200);
      const html = decode(await page.text());
      for (const text of [profile.handle, "About", "Past Work", "Client References", "Rita Reference", "Contact hidden", "Post a Gig to Connect", "Insured", "Bonded", "Licensed", "View Portfolio", "Back to Browse"]) {
        expect(html).toContain(text);
      }
      expect(html).toContain(profile.workPhotos[0]);
      const data = await client.get(`/digger/${profile.id}.data`);
      expect(data.status).toBe(200);
      const raw = await data.text();
      for (const secret of secrets) {
        expect(html).not.toContain(secret);
        expect(raw).not.toContain(secret);
      }
    }
  });

  it("sends an unknown id to /browse-diggers with 'Digger not found'", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const client = new SessionClient(app);
      const response = await client.get(`/digger/${id}`);
      expect(location(response)).toBe("/browse-diggers");
      expect(await (await client.get("/browse-diggers")).text()).toContain("Digger not found");
    }
  });

  it("diggerPage throws 'Digger not found' for Browse Talent, and tells the owner it is theirs", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      await expect(diggerPage(app.database.db, id, null)).rejects.toMatchObject({
        name: "AppError",
        code: "not_found",
        message: "Digger not found",
        redirectTo: "/browse-diggers",
      });
    }
    const { profile } = await createProfile();
    const owner = await diggerPage(app.database.db, profile.id, { id: profile.userId, userType: "digger" });
    expect(owner.viewer).toEqual({ signedIn: true, isOwner: true, canRequestContact: false });
    expect((await diggerPage(app.database.db, profile.id, null)).viewer).toEqual({ signedIn: false, isOwner: false, canRequestContact: true });
  });

  it("does not leak private fields of the demo diggers on browse pages", async () => {
    const html = await (await app.request("/browse-diggers")).text();
    const raw = await (await app.request("/browse-diggers.data")).text();
    const seeded = await app.database.db.select().from(diggerProfiles).where(and(eq(diggerProfiles.verified, false)));
    for (const d of seeded.slice(0, 5)) {
      expect(html).not.toContain(d.phone);
      expect(raw).not.toContain(d.phone);
      expect(decode(html)).not.toContain(d.businessName);
    }
  });
});
