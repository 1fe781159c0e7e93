/**
 * The public pages: the landing page's showcase from real data (or the samples when the
 * database has none) without any private field, the legal pages' configured addresses and
 * date, and where the calls to action lead.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketingTargets } from "../../app/features/marketing/cta.ts";
import { sampleDiggers, sampleGigs } from "../../app/features/marketing/samples.ts";
import { avatarInitials, formatRating } from "../../core/digger-display.ts";
import {
  categories,
  diggerCategories,
  diggerProfiles,
  diggerReferences,
  gigs,
  users,
} from "../../server/db/schema.ts";
import { seedDemoData } from "../../server/db/seed/index.ts";
import { legalDate } from "../../server/marketing/legal.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

/** The page's HTML with HTML entities and JavaScript \uXXXX escapes decoded (hydration data included). */
function decoded(html: string): string {
  return html
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#x([0-9a-fA-F]+);/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCharCode(Number(dec)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** The rendered text of the page, without scripts, tags or React's text separators. */
function visibleText(html: string): string {
  return decoded(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

async function getPage(app: TestApp, path: string): Promise<string> {
  const response = await app.request(path);
  expect(response.status).toBe(200);
  return response.text();
}

/** The letters each avatar shows when there is no photo, in page order. */
function avatarLetters(html: string): string[] {
  return [...html.matchAll(/data-slot="avatar-fallback"[^>]*>([^<]*)</g)].map((m) => m[1]!);
}

function expectInOrder(text: string, parts: string[]) {
  const positions = parts.map((part) => text.indexOf(part));
  for (const [i, position] of positions.entries()) expect(position, `"${parts[i]}" is on the page`).toBeGreaterThanOrEqual(0);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

describe("landing page with an empty database", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it("shows the three sample diggers and three sample gigs, labelled as examples and not linked", async () => {
    const html = await getPage(app, "/");
    const text = visibleText(html);
    for (const digger of sampleDiggers) {
      expect(text).toContain(digger.name);
      expect(text).toContain(digger.profession);
      for (const name of digger.expertise) expect(text).toContain(name);
      expect(text).toContain(`${digger.rating.toFixed(1)} out of 5 (${digger.reviewCount} reviews)`);
    }
    for (const gig of sampleGigs) {
      expect(text).toContain(gig.title);
      expect(text).toContain(gig.timeline);
      expect(text).toContain(gig.category);
      expect(text).toContain(`${gig.purchases} purchases`);
    }
    // The samples cover three of the budget text's cases.
    expect(text).toContain("$15,000 - $25,000");
    expect(text).toContain("From $3,000");
    expect(text).toContain("Up to $800");
    expect(text).toContain("Examples of the profiles you will find here");
    expect(text).toContain("Examples of the gigs clients post");
    expect(html).not.toContain('href="/digger/');
    expect(html).not.toContain('href="/gig/');
  });

  it("shows the samples by Browse Talent's rules: initials of the handle, rating with one decimal", async () => {
    const html = await getPage(app, "/");
    const text = visibleText(html);
    expect(avatarLetters(html)).toEqual(sampleDiggers.map((d) => avatarInitials(d.name)));
    for (const digger of sampleDiggers) expect(text).toContain(`${formatRating(digger.rating)} out of 5`);
  });

  it("keeps the h1, the six feature cards, the figures, the pay-per-lead pricing and the closing call to action", async () => {
    const html = await getPage(app, "/");
    const text = visibleText(html);
    expect(html).toMatch(/<h1[^>]*>Digs &amp; Gigs<\/h1>/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const feature of [
      "Verified Profiles",
      "Smart Matching",
      "Project Management Tools",
      "Community",
      "Pay Per Lead",
      "Identity Protection",
    ]) {
      expect(html).toMatch(new RegExp(`<h3[^>]*>${feature}</h3>`));
    }
    expect(text).toContain("Diggers 10K+ Projects 5K+ Satisfaction 98%");
    expect(text).toContain("0.5% of the client's minimum budget, with a $50.00 minimum");
    expect(text).toMatch(/\$5,000 \$50\.00/);
    expect(text).toMatch(/\$20,000 \$100\.00/);
    expect(text).toContain("Free");
    // Billing is pay-per-lead: the spec's monthly tiers are not offered as prices.
    for (const tier of ["Starter", "Growing", "Professional", "Expert", "Elite", "$29", "$49", "$79", "$99"]) {
      expect(text).not.toContain(tier);
    }
    expect(text).toContain("Ready to Get Started?");
  });

  it("sends visitors' calls to action through sign-in (spec section 2)", async () => {
    const html = decoded(await getPage(app, "/"));
    expect(html).toMatch(/href="\/auth\?redirect=\/browse-diggers"[^>]*>.*?Find Talent<\/a>/);
    expect(html).toMatch(/href="\/auth\?type=digger&redirect=\/digger-registration"[^>]*>.*?Build My Digs<\/a>/);
    expect(html).toMatch(/href="\/auth\?type=digger&redirect=\/digger-registration"[^>]*>Create Your Dig<\/a>/);
    expect(html).toMatch(/href="\/auth\?redirect=\/post-gig"[^>]*>Post a Gig<\/a>/);
  });

  it("has its own title and description", async () => {
    const html = await getPage(app, "/");
    expect(html).toContain("<title>Digs &amp; Gigs</title>");
    expect(html).toMatch(/<meta name="description" content="Post a gig for free[^"]*"/);
  });
});

describe("landing page with real data", () => {
  let app: TestApp;
  const ids = { diggers: {} as Record<string, string>, gigs: {} as Record<string, string> };
  const client = { name: "Quentin Privateclient", email: "quentin.private@example.com" };
  const diggerPeople = [
    { key: "a", rating: 4.9, total: 10, name: "Avery Hidden", business: "Avery Secret Works LLC", phone: "(555) 010-9001" },
    { key: "b", rating: 4.9, total: 50, name: "Blake Hidden", business: "Blake & Co Private Plumbing", phone: "(555) 010-9002" },
    { key: "c", rating: 5, total: 3, name: "Casey Hidden", business: "Casey Confidential Ltd", phone: "(555) 010-9003" },
    { key: "d", rating: 4.5, total: 200, name: "Drew Hidden", business: "Drew Undisclosed Inc", phone: "(555) 010-9004" },
    { key: "e", rating: 0, total: 0, name: "Emery Hidden", business: "Emery Unlisted", phone: "(555) 010-9005" },
  ];

  beforeAll(async () => {
    app = await createTestApp();
    const { db } = app.database;
    const cats = new Map(
      (await db.select({ id: categories.id, slug: categories.slug }).from(categories)).map((c) => [c.slug, c.id]),
    );
    const cat = (slug: string) => cats.get(slug)!;

    for (const person of diggerPeople) {
      const userId = randomUUID();
      await db.insert(users).values({
        id: userId,
        name: person.name,
        email: `${person.key}.digger.private@example.com`,
        userType: "digger",
      });
      const [profile] = await db
        .insert(diggerProfiles)
        .values({
          userId,
          handle: `handle_${person.key}`,
          businessName: person.business,
          phone: person.phone,
          location: "Springfield",
          profession: `Profession ${person.key.toUpperCase()}`,
          bio: "A bio that is long enough to be a bio.",
          averageRating: person.rating,
          totalRatings: person.total,
        })
        .returning({ id: diggerProfiles.id });
      ids.diggers[person.key] = profile!.id;
      await db.insert(diggerReferences).values({
        diggerId: profile!.id,
        referenceName: `Reference Of ${person.name}`,
        referenceEmail: `reference.${person.key}@example.com`,
        referencePhone: "(555) 010-9999",
      });
    }
    await db.insert(diggerCategories).values(
      ["plumbing", "leak-repair", "drain-cleaning", "water-heaters"].map((slug) => ({
        diggerId: ids.diggers.b!,
        categoryId: cat(slug),
      })),
    );

    await db.insert(users).values({ id: "client-1", name: client.name, email: client.email, emailVerified: true, userType: "consumer" });
    const now = Date.now();
    const gig = (key: string, hoursAgo: number, values: Partial<typeof gigs.$inferInsert>) => ({
      clientId: "client-1",
      title: `Gig ${key} title for the landing page`,
      description: `Gig ${key} description that is comfortably longer than the fifty character minimum.`,
      location: "Springfield",
      timeline: `Timeline ${key}`,
      categoryId: cat("plumbing"),
      contactPreferences: `Call me on the private line ${key}`,
      createdAt: new Date(now - hoursAgo * 3_600_000),
      ...values,
    });
    const inserted = await db
      .insert(gigs)
      .values([
        gig("one", 1, { budgetMinCents: 50_000, budgetMaxCents: 120_000, purchaseCount: 2 }),
        gig("two", 2, { budgetMinCents: 300_000, purchaseCount: 1, categoryId: cat("leak-repair") }),
        gig("three", 3, {}),
        gig("closed", 0, { status: "closed", budgetMaxCents: 10_000 }),
        gig("older", 4, { budgetMaxCents: 80_000 }),
      ])
      .returning({ id: gigs.id, title: gigs.title });
    for (const row of inserted) ids.gigs[row.title.split(" ")[1]!] = row.id;
  });
  afterAll(() => app.close());

  it("shows the three top-rated diggers (rating, then number of ratings), linked to their profiles", async () => {
    const html = await getPage(app, "/");
    const text = visibleText(html);
    expectInOrder(text, ["handle_c", "handle_b", "handle_a"]);
    expect(text).not.toContain("handle_d");
    expect(text).not.toContain("handle_e");
    expect(text).toContain("Profession C");
    expect(text).toContain("5.0 out of 5 (3 reviews)");
    expect(text).toContain("4.9 out of 5 (50 reviews)");
    for (const key of ["a", "b", "c"]) expect(html).toContain(`href="/digger/${ids.diggers[key]}"`);
    // Expertise: category names, sub-categories first, at most three badges.
    expect(text).toContain("Drain Cleaning Leak Repair Water Heaters +1 more");
    expect(text).toContain("Our top-rated diggers");
    expect(text).not.toContain(sampleDiggers[0]!.name);
  });

  it("shows the three newest open gigs with budget text, timeline, category and purchases (never bids), linked to their pages", async () => {
    const html = await getPage(app, "/");
    const text = visibleText(html);
    expectInOrder(text, ["Gig one title", "Gig two title", "Gig three title"]);
    expect(text).not.toContain("Gig closed title");
    expect(text).not.toContain("Gig older title");
    // Each value follows its (visually hidden) label.
    expect(text).toContain("Budget $500 - $1,200 Timeline Timeline one Purchases 2 purchases");
    expect(text).toContain("Budget From $3,000 Timeline Timeline two Purchases 1 purchase");
    expect(text).toContain("Budget Budget not specified Timeline Timeline three Purchases 0 purchases");
    expect(text).toContain("Category: Leak Repair Gig two title");
    for (const key of ["one", "two", "three"]) expect(html).toContain(`href="/gig/${ids.gigs[key]}"`);
    expect(text).not.toContain(sampleGigs[0]!.title);
  });

  it("contains no private field of a digger, a reference or a client, not even in the hydration data", async () => {
    const html = decoded(await getPage(app, "/"));
    expect(html).toContain("streamController.enqueue"); // the hydration data is checked too
    for (const person of diggerPeople) {
      expect(html).not.toContain(person.name);
      expect(html).not.toContain(person.business);
      expect(html).not.toContain(person.phone);
      expect(html).not.toContain(`${person.key}.digger.private@example.com`);
      expect(html).not.toContain(`reference.${person.key}@example.com`);
    }
    expect(html).not.toContain("(555) 010-9999");
    expect(html).not.toContain(client.name);
    expect(html).not.toContain(client.email);
    expect(html).not.toContain("private line");
  });
});

describe("landing page cards and the browse pages' cards", () => {
  // The landing once had rules of its own: a 4.85 rating showed as 4.8 there and 4.9 on
  // Browse Talent, and its initials came from the handle's words ("ZI" for zed_ivy_works).
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    const { db } = app.database;
    const cats = new Map(
      (await db.select({ id: categories.id, slug: categories.slug }).from(categories)).map((c) => [c.slug, c.id]),
    );
    await db.insert(users).values({ id: "zed-user", name: "Zed Private", email: "zed.private@example.com", userType: "digger" });
    const [profile] = await db
      .insert(diggerProfiles)
      .values({
        userId: "zed-user",
        handle: "zed_ivy_works",
        businessName: "Zed Works",
        phone: "(555) 010-7777",
        location: "Springfield",
        profession: "Carpenter",
        bio: "A bio that is long enough to be a bio.",
        averageRating: 4.85,
        totalRatings: 7,
      })
      .returning({ id: diggerProfiles.id });
    await db.insert(diggerCategories).values(
      ["plumbing", "leak-repair", "drain-cleaning", "water-heaters"].map((slug) => ({ diggerId: profile!.id, categoryId: cats.get(slug)! })),
    );
    await db.insert(users).values({ id: "zed-client", name: "Client Private", email: "zed.client@example.com", emailVerified: true, userType: "consumer" });
    await db.insert(gigs).values({
      clientId: "zed-client",
      title: "Fix the dripping kitchen tap",
      description: "The kitchen tap drips all night; it needs a new cartridge or a new tap.",
      location: "Springfield",
      timeline: "This week",
      categoryId: cats.get("leak-repair")!,
      budgetMinCents: 50_000,
      budgetMaxCents: 120_000,
    });
  });
  afterAll(() => app.close());

  it("shows a digger's rating, review count, initials and category badges as Browse Talent does", async () => {
    const landing = await getPage(app, "/");
    const browse = await getPage(app, "/browse-diggers");
    for (const html of [landing, browse]) {
      const text = visibleText(html);
      expect(text).toContain("4.9 out of 5 (7 reviews)");
      expect(text).toContain("Drain Cleaning Leak Repair Water Heaters +1 more");
      expect(avatarLetters(html)).toEqual([avatarInitials("zed_ivy_works")]);
    }
    expect(avatarLetters(landing)).toEqual(["ZE"]);
  });

  it("shows a gig's category and budget as Browse Gigs does", async () => {
    for (const path of ["/", "/browse-gigs"]) {
      const text = visibleText(await getPage(app, path));
      expect(text, path).toContain("Category: Leak Repair");
      expect(text, path).toContain("Budget $500 - $1,200");
    }
  });
});

describe("landing page with the demo data", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    expect(await seedDemoData(app.database.db)).toBe(true);
  });
  afterAll(() => app.close());

  it("shows the demo's top-rated diggers and newest open gigs", async () => {
    const { db } = app.database;
    const diggers = await db
      .select({
        id: diggerProfiles.id,
        handle: diggerProfiles.handle,
        rating: diggerProfiles.averageRating,
        total: diggerProfiles.totalRatings,
      })
      .from(diggerProfiles);
    const top = diggers
      .sort((x, y) => y.rating - x.rating || y.total - x.total || (x.id < y.id ? -1 : 1))
      .slice(0, 3);
    const openGigs = await db
      .select({ id: gigs.id, title: gigs.title, createdAt: gigs.createdAt })
      .from(gigs)
      .where(eq(gigs.status, "open"));
    const newest = openGigs.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime()).slice(0, 3);

    const html = await getPage(app, "/");
    const text = visibleText(html);
    expectInOrder(
      text,
      top.map((d) => d.handle),
    );
    expectInOrder(
      text,
      newest.map((g) => g.title),
    );
    for (const d of top) expect(html).toContain(`href="/digger/${d.id}"`);
    for (const g of newest) expect(html).toContain(`href="/gig/${g.id}"`);
  });

  it("contains no business name, phone, e-mail or full name of anyone in the demo data", async () => {
    const { db } = app.database;
    const html = decoded(await getPage(app, "/"));
    const people = await db.select({ name: users.name, email: users.email }).from(users);
    const profiles = await db
      .select({ business: diggerProfiles.businessName, phone: diggerProfiles.phone })
      .from(diggerProfiles);
    const references = await db
      .select({
        name: diggerReferences.referenceName,
        email: diggerReferences.referenceEmail,
        phone: diggerReferences.referencePhone,
      })
      .from(diggerReferences);
    const allGigs = await db.select({ contactPreferences: gigs.contactPreferences }).from(gigs);
    expect(people.length).toBeGreaterThan(0);
    expect(profiles.length).toBeGreaterThan(0);
    const secrets = [
      ...people.flatMap((p) => [p.name, p.email]),
      ...profiles.flatMap((p) => [p.business, p.phone]),
      ...references.flatMap((r) => [r.name, r.email, r.phone]),
      ...allGigs.map((g) => g.contactPreferences),
    ].filter((s): s is string => Boolean(s));
    const leaked = secrets.filter((secret) => html.includes(secret));
    expect(leaked).toEqual([]);
  });
});

describe("terms and privacy", () => {
  let app: TestApp;
  const addresses = {
    LEGAL_EMAIL: "legal.desk@terms-test.example",
    PRIVACY_EMAIL: "privacy.desk@terms-test.example",
    SUPPORT_EMAIL: "help.desk@terms-test.example",
    BUSINESS_ADDRESS: "Digs & Gigs Test Ltd, 42 Placeholder Road, Testville",
  };
  beforeAll(async () => {
    app = await createTestApp(addresses);
  });
  afterAll(() => app.close());

  it("/terms shows today's date, the legal, privacy and support addresses and the business address", async () => {
    const html = await getPage(app, "/terms");
    const text = visibleText(html);
    const today = legalDate(new Date());
    expect(text).toContain(`Last Updated: ${today.text}`);
    expect(html).toContain(`<time dateTime="${today.iso}">`);
    for (const address of [addresses.LEGAL_EMAIL, addresses.PRIVACY_EMAIL, addresses.SUPPORT_EMAIL]) {
      expect(html).toContain(`href="mailto:${address}"`);
    }
    expect(text).toContain(addresses.BUSINESS_ADDRESS);
    expect(html).toMatch(/<h1[^>]*>Terms of Service<\/h1>/);
    expect(html).toContain("<title>Terms of Service | Digs &amp; Gigs</title>");
  });

  it("/terms covers the spec's rules", async () => {
    const text = visibleText(await getPage(app, "/terms"));
    for (const phrase of [
      "18 or older",
      "Accounts are free for both clients and diggers",
      "Lead purchases are final, except in cases of fraud or misrepresentation",
      "Refunds are judged case by case",
      "approves or rejects the refund",
      "Posted by Mistake 100%",
      "Changed Mind 100%",
      "Already Found Digger 50%",
      "Fake or Spam Request 100%",
      // The reply guarantee (issue 48), in the words of core/reply-guarantee.ts.
      "Reply guarantee. Write to the client within 24 hours of buying a lead",
      "we refund the lead in full, automatically",
      "Card payments are processed by our card payment provider",
      "Payment for the work is arranged directly between the client and the digger",
      "We do not mediate disputes",
    ]) {
      expect(text).toContain(phrase);
    }
  });

  it("/privacy shows today's date, the privacy, legal and support addresses and the business address", async () => {
    const html = await getPage(app, "/privacy");
    const text = visibleText(html);
    expect(text).toContain(`Last Updated: ${legalDate(new Date()).text}`);
    for (const address of [addresses.PRIVACY_EMAIL, addresses.LEGAL_EMAIL, addresses.SUPPORT_EMAIL]) {
      expect(html).toContain(`href="mailto:${address}"`);
    }
    expect(text).toContain(addresses.BUSINESS_ADDRESS);
    expect(html).toMatch(/<h1[^>]*>Privacy Policy<\/h1>/);
    expect(html).toContain("<title>Privacy Policy | Digs &amp; Gigs</title>");
  });

  it("/privacy covers the spec's rules", async () => {
    const html = await getPage(app, "/privacy");
    const text = visibleText(html);
    for (const phrase of [
      "only your handle is public",
      "Your full name, business name, phone, e-mail and references are private",
      "revealed only to the diggers who buy the lead",
      "We delete your data within 30 days of your request",
      "opt out of promotional e-mail",
      "Transactional e-mail",
      "cannot be turned off",
      "get a copy of your data on request",
      "18 or older",
    ]) {
      expect(text).toContain(phrase);
    }
    expect(html).toMatch(/<a[^>]*href="\/account"[^>]*>account page<\/a>/);
  });
});

describe("/how-it-works", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it("shows both sides' steps, the free note, pay-per-lead pricing, Trust & Safety and its calls to action", async () => {
    const html = await getPage(app, "/how-it-works");
    const text = visibleText(html);
    expectInOrder(text, [
      "Post Your Gig",
      "Get Discovered",
      "Connect & Hire",
      "100% free for clients",
      "Create Your Profile",
      "Browse Opportunities",
      "Purchase & Connect",
      "Pay-Per-Lead Pricing",
      "Trust & Safety",
      "Identity Protection",
      "Verified Credentials",
      "Fair Refunds",
      "Reply Guarantee",
      "Write to the client within 24 hours of buying a lead",
      "we refund the lead in full, automatically",
    ]);
    expect(text).toMatch(/\$5,000 \$50\.00/);
    expect(text).toMatch(/\$20,000 \$100\.00/);
    const links = decoded(html);
    expect(links).toMatch(/href="\/auth\?redirect=\/post-gig"[^>]*>Post a Gig<\/a>/);
    expect(links).toMatch(/href="\/auth\?type=digger&redirect=\/digger-registration"[^>]*>Become a Digger<\/a>/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
  });
});

describe("call-to-action targets", () => {
  it("go through /auth for visitors (spec section 2)", () => {
    expect(marketingTargets(false)).toEqual({
      findTalent: "/auth?redirect=/browse-diggers",
      becomeDigger: "/auth?type=digger&redirect=/digger-registration",
      postGig: "/auth?redirect=/post-gig",
    });
  });

  it("go straight to the page for a signed-in user", () => {
    expect(marketingTargets(true)).toEqual({
      findTalent: "/browse-diggers",
      becomeDigger: "/digger-registration",
      postGig: "/post-gig",
    });
  });
});
