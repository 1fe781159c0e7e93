/**
 * Issue 23's honest states for a digger: the header offers My Profile (their own page) once a
 * profile exists, Complete Profile before; their own profile offers Edit Profile instead of
 * 'Post a Gig to Connect', which everyone else still sees.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { decodeHtml, diggerWithProfile } from "../support/leads.ts";
import { SessionClient } from "../support/session-client.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("a digger's own profile", () => {
  it("is My Profile in the header once it exists, and offers Edit Profile to its owner only", async () => {
    const digger = await diggerWithProfile(app);
    const own = decodeHtml(await (await digger.client.get(`/digger/${digger.diggerId}`)).text());
    expect(own).toMatch(new RegExp(`href="/digger/${digger.diggerId}"[^>]*>My Profile<`));
    expect(own).not.toContain(">Complete Profile<");
    expect(own).toMatch(/href="\/digger-registration"[^>]*>Edit Profile</);
    expect(own).not.toContain("Post a Gig to Connect");

    for (const client of [new SessionClient(app), (await signUpAs(app, "consumer")).client, (await diggerWithProfile(app)).client]) {
      const page = decodeHtml(await (await client.get(`/digger/${digger.diggerId}`)).text());
      expect(page).toContain("Post a Gig to Connect");
      expect(page).not.toContain(">Edit Profile<");
    }

    const newcomer = await signUpAs(app, "digger");
    const home = decodeHtml(await (await newcomer.client.get("/")).text());
    expect(home).toMatch(/href="\/digger-registration"[^>]*>Complete Profile</);
    expect(home).not.toContain(">My Profile<");
  });
});
