/**
 * Issue 23's lists: Browse Gigs' search also matches the location; both browse pages have a
 * Location filter kept in the address; they say how many results match (up to a cap) and an
 * empty filtered result offers 'Clear filters'; the landing's hero search opens Browse Talent.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_CAP, resultCountText } from "../../core/result-count.ts";
import { diggerProfiles } from "../../server/db/schema.ts";
import { signUpAs, type TestUser } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile, insertGig } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
let client: TestUser;
const town = `Zephyrtown${randomUUID().slice(0, 6)}`;
beforeAll(async () => {
  app = await createTestApp();
  client = await signUpAs(app, "consumer");
});
afterAll(() => app.close());

const html = async (path: string) => decodeHtml(await (await new SessionClient(app).get(path)).text());

describe("Browse Gigs by place", () => {
  it("finds gigs by their location, in the search and in the Location filter, and counts them", async () => {
    const here = await insertGig(app, client.id, { location: `${town}, CO 80301` });
    const alsoHere = await insertGig(app, client.id, { location: `North ${town.toLowerCase()}` });
    const elsewhere = await insertGig(app, client.id, { location: "Faraway, ME" });

    for (const path of [`/browse-gigs?location=${town}`, `/browse-gigs?q=${town.toUpperCase()}`]) {
      const page = await html(path);
      expect(page, path).toContain(here.title);
      expect(page, path).toContain(alsoHere.title);
      expect(page, path).not.toContain(elsewhere.title);
      expect(page, path).toContain("2 gigs match");
    }
    // A ZIP is text like any other.
    const byZip = await html(`/browse-gigs?location=80301&q=${encodeURIComponent(here.title)}`);
    expect(byZip).toContain(here.title);
    expect(byZip).toContain("1 gig matches");
    // The filter is kept in the form, so the view can be shared and changed.
    expect(byZip).toMatch(/name="location"[^>]*value="80301"|value="80301"[^>]*name="location"/);
  });

  it("offers 'Clear filters' on an empty filtered result, and not on an empty list without filters", async () => {
    const page = await html(`/browse-gigs?location=nowhere-${randomUUID()}`);
    expect(page).toContain("No gigs found. Try adjusting your filters.");
    expect(page).toMatch(/href="\/browse-gigs"[^>]*>Clear filters</);
  });
});

describe("Browse Gigs at a cursor", () => {
  it("links Load more to the next page, and that page (opened without JavaScript) back to the first with the filters kept", async () => {
    const word = `Quokka${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 21; i++) await insertGig(app, client.id, { title: `${word} shelf number ${i}` });
    const first = await html(`/browse-gigs?q=${word}`);
    expect(first).toContain("21 gigs match");
    expect(first).not.toContain("Back to the first page");
    const next = /<a[^>]*href="([^"]*cursor=[^"]*)"[^>]*>Load more<\/a>/.exec(first)?.[1];
    expect(next).toMatch(new RegExp(`^/browse-gigs\\?q=${word}&cursor=`));
    const second = await html(next!);
    expect(second).toContain(`${word} shelf number 0`);
    expect(second).toMatch(new RegExp(`<a[^>]*href="/browse-gigs\\?q=${word}"[^>]*>Back to the first page</a>`));
    expect(second).not.toContain("Load more");
  });
});

describe("Browse Talent by place", () => {
  it("filters diggers by their location, from the landing's hero search too", async () => {
    const near = await diggerWithProfile(app);
    const far = await diggerWithProfile(app);
    await app.database.db.update(diggerProfiles).set({ location: `${town}, CO`, profession: `Deck builder ${town}` }).where(eq(diggerProfiles.id, near.diggerId));
    await app.database.db.update(diggerProfiles).set({ location: "Faraway, ME", profession: `Deck builder ${town}` }).where(eq(diggerProfiles.id, far.diggerId));
    const handleOf = async (id: string) => (await app.database.db.select({ handle: diggerProfiles.handle }).from(diggerProfiles).where(eq(diggerProfiles.id, id)))[0]!.handle;

    // The hero's form: "What do you need?" and "Where?" to /browse-diggers.
    const landing = await html("/");
    expect(landing).toContain("What do you need?");
    expect(landing).toContain("Where?");
    expect(landing).toMatch(/<form[^>]*action="\/browse-diggers"/);

    const page = await html(`/browse-diggers?q=${encodeURIComponent(`deck builder ${town}`)}&location=${town.toLowerCase()}`);
    expect(page).toContain(await handleOf(near.diggerId));
    expect(page).not.toContain(await handleOf(far.diggerId));
    expect(page).toContain("1 digger matches");
    const empty = await html(`/browse-diggers?location=nowhere-${randomUUID()}`);
    expect(empty).toMatch(/href="\/browse-diggers"[^>]*>Clear filters</);
  });
});

describe("the count's words", () => {
  it("says one, many, and more than the cap", () => {
    expect(resultCountText(1, ["gig", "gigs"])).toBe("1 gig matches");
    expect(resultCountText(0, ["gig", "gigs"])).toBe("0 gigs match");
    expect(resultCountText(1234, ["gig", "gigs"])).toBe("1,000+ gigs match");
    expect(resultCountText(COUNT_CAP, ["digger", "diggers"])).toBe("1,000 diggers match");
  });
});
