/**
 * No element's class list holds two utilities of which one silently loses (docs/decisions/0062).
 * `cn` joins classes without merging them: a primitive's own style is a component class of
 * app.css, which any utility passed as className overrides, so a conflict can only come from two
 * utilities in one list (say `size-14 size-12`), where the stylesheet's order, not the author,
 * would pick the winner. Every page each role reaches (the private-data crawl's world), and the
 * forms' answers with errors, are read with tailwind-merge, which names such pairs.
 */
import { twMerge } from "tailwind-merge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawl, worldPages } from "../security/crawl.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import { ROLES, type World } from "../security/world.ts";

let security: SecurityWorld;
let world: World;
beforeAll(async () => {
  ({ world } = security = await openSecurityWorld());
}, WORLD_SETUP_MS);
afterAll(() => security.close());

/** Each class list of an HTML page, with the classes tailwind-merge would drop from it. */
function conflictsIn(html: string): Array<{ list: string; lost: string[] }> {
  const found: Array<{ list: string; lost: string[] }> = [];
  for (const [, list] of html.matchAll(/\sclass="([^"]*)"/g)) {
    const kept = new Set(twMerge(list!).split(" "));
    const lost = list!.split(/\s+/).filter((name) => name && !kept.has(name));
    if (lost.length > 0) found.push({ list: list!, lost });
  }
  return found;
}

describe("class lists", () => {
  it("hold no two utilities where one overrides the other, on every page each role reaches", { timeout: 300_000 }, async () => {
    const conflicts = new Map<string, string>();
    const record = (url: string, html: string) => {
      for (const { list, lost } of conflictsIn(html)) if (!conflicts.has(list)) conflicts.set(list, `${url}: ${lost.join(" ")} lost in "${list}"`);
    };
    let pages = 0;
    let lists = 0;
    for (const role of ROLES) {
      const crawled = await crawl(world.client(role), worldPages(world), ({ url, status, body }) => {
        if (status !== 200 || !body.startsWith("<!DOCTYPE html>")) return;
        lists += body.match(/\sclass="/g)?.length ?? 0;
        record(url, body);
      });
      pages += crawled.pages;
    }
    // The forms' answers with their errors shown (aria-invalid fields, messages, the toast's data).
    for (const [role, path, fields] of [
      ["signedOut", "/contact", {}],
      ["signedOut", "/auth", { intent: "sign-in" }],
      ["owningClient", "/post-gig", {}],
      ["owningDigger", "/digger-registration", {}],
      ["owningClient", `/my-gigs/${world.gig.id}/edit`, {}],
    ] as const) {
      const html = await (await world.client(role).post(path, fields)).text();
      expect(html, `POST ${path} answers its page with the errors`).toContain('aria-invalid="true"');
      record(`POST ${path}`, html);
    }
    expect(pages).toBeGreaterThan(100);
    expect(lists).toBeGreaterThan(10_000);
    expect([...conflicts.values()]).toEqual([]);
  });

  it("finds a conflict where there is one, so that the crawl above means something", () => {
    expect(conflictsIn('<div class="avatar size-14 size-12"></div><p class="button px-3">')).toEqual([{ list: "avatar size-14 size-12", lost: ["size-14"] }]);
  });
});
