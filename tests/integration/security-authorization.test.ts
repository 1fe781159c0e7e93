/**
 * The authorization matrix (issue 10; design.md section 6): every loader and action of every
 * route, and every route of the Hono server, as each of five roles. The expected outcome of
 * each cell is written in the one table below; a route of the server build or of the Hono
 * app with no row fails the test, so a new route must say who may use it.
 *
 * Roles are relative to the row's subject: the owning consumer owns the gig (or asked for
 * the reference), the owning digger bought the lead (or owns the profile, reference or
 * checkout). A cell is the status, plus the first path segment for a redirect ("302 /auth").
 * A cell ending in "*" is a request that is allowed to change data; every other cell must
 * leave every guarded table exactly as it was (compared by a digest of all their rows).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { createTestApp, loadServerBuild, type TestApp } from "../support/app.ts";
import { location, type SessionClient } from "../support/session-client.ts";
import { validGigForm } from "../support/forms.ts";
import { createWorld, fingerprint, ROLES, type Role, type World } from "../security/world.ts";

type Cells = [signedOut: string, owningConsumer: string, otherConsumer: string, owningDigger: string, otherDigger: string];
interface Request {
  path: string;
  method?: "GET" | "POST";
  form?: Record<string, string | string[]>;
  /** A newly signed-in client (the request ends its session). */
  fresh?: boolean;
}
interface Row {
  /** A React Router route id with ":loader" or ":action", or a Hono route "METHOD /path". */
  route: string;
  what: string;
  request: (w: World, role: Role) => Request | Promise<Request>;
  expect: Cells;
}

const ALL = (cell: string): Cells => [cell, cell, cell, cell, cell];
const SIGNED_IN = (cell: string, visitor = "302 /auth"): Cells => [visitor, cell, cell, cell, cell];
const get = (path: string) => () => ({ path });

const validGig = (w: World) => validGigForm(w.gig.categoryId);

// prettier-ignore
const TABLE: Row[] = [
  //                                                                                                    signed out    owning consumer  other consumer  owning digger  other digger
  { route: "root:loader", what: "every page's user and flash", request: get("/terms"), expect: ALL("200") },
  { route: "routes/home:loader", what: "landing page", request: get("/"), expect: ALL("200") },
  { route: "routes/auth:loader", what: "sign-in page", request: get("/auth"), expect: ["200", "302 /", "302 /", "302 /", "302 /"] },
  // A signed-in user posting to /auth is sent home like one who visits it.
  { route: "routes/auth:action", what: "sign-in with a wrong password", request: (w) => ({ path: "/auth", form: { intent: "sign-in", email: w.users.otherConsumer.email, password: "not-the-password" } }), expect: SIGNED_IN("302 /", "401") },
  { route: "routes/auth:action", what: "password reset e-mail for an unknown address", request: () => ({ path: "/auth", form: { intent: "forgot-password", email: `nobody-${randomUUID()}@example.com` } }), expect: SIGNED_IN("302 /", "200") },
  { route: "routes/digger-registration:loader", what: "own digger profile form", request: get("/digger-registration"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/post-gig:loader", what: "post a gig form", request: get("/post-gig"), expect: ["302 /auth", "200", "200", "302 /", "302 /"] },
  { route: "routes/post-gig:action", what: "post a gig", request: (w) => ({ path: "/post-gig", form: validGig(w) }), expect: ["302 /auth", "302* /", "302* /", "302 /", "302 /"] },
  { route: "routes/browse-diggers:loader", what: "Browse Talent", request: get("/browse-diggers"), expect: ALL("200") },
  { route: "routes/browse-gigs:loader", what: "Browse Gigs", request: get("/browse-gigs"), expect: ALL("200") },
  { route: "routes/digger:loader", what: "a digger's public profile", request: (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}` }), expect: ALL("200") },
  { route: "routes/digger:action", what: "request a reference's contact", request: (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}`, form: { referenceId: w.reference.id } }), expect: ["302 /auth", "409", "200*", "302 /digger", "302 /digger"] },
  { route: "routes/gig:loader", what: "a gig's public page", request: (w) => ({ path: `/gig/${w.gig.id}` }), expect: ALL("200") },
  { route: "routes/gig:action", what: "buy the lead", request: (w) => ({ path: `/gig/${w.gig.id}`, form: { intent: "purchase" } }), expect: ["302 /auth", "403", "403", "409", "302* /checkout"] },
  { route: "routes/my-leads:loader", what: "My Leads", request: get("/my-leads"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/my-leads:action", what: "report an issue on a purchase", request: async (w) => ({ path: "/my-leads", form: { purchaseId: (await w.freshPurchase()).purchase.id, issueType: "mistake", description: "The client posted this by mistake." } }), expect: ["302 /auth", "302 /", "302 /", "200*", "404"] },
  { route: "routes/my-gigs:loader", what: "My Gigs (each user's own)", request: get("/my-gigs"), expect: SIGNED_IN("200") },
  { route: "routes/my-gigs:action", what: "close a gig", request: async (w) => ({ path: "/my-gigs", form: { intent: "set-status", status: "closed", gigId: (await w.freshGig()).id } }), expect: ["302 /auth", "200*", "404", "404", "404"] },
  { route: "routes/my-gigs.$gigId.issues:loader", what: "a gig's issues", request: (w) => ({ path: `/my-gigs/${w.gig.id}/issues` }), expect: ["302 /auth", "200", "404", "404", "404"] },
  { route: "routes/my-gigs.$gigId.issues:action", what: "approve an issue (refund)", request: async (w) => { const f = await w.freshIssue(); return { path: `/my-gigs/${f.gig.id}/issues`, form: { decision: "approve", issueId: f.issue.id } }; }, expect: ["302 /auth", "200*", "404", "404", "404"] },
  { route: "routes/contact:loader", what: "Contact Us", request: get("/contact"), expect: ALL("200") },
  { route: "routes/contact:action", what: "send a message to support", request: () => ({ path: "/contact", form: { name: "Grace Hopper", email: "grace@example.com", subject: `Question ${randomUUID()}`, message: "How do refunds work for a lead that was posted by mistake?" } }), expect: ALL("200*") },
  { route: "routes/terms:loader", what: "Terms of Service", request: get("/terms"), expect: ALL("200") },
  { route: "routes/privacy:loader", what: "Privacy Policy", request: get("/privacy"), expect: ALL("200") },
  { route: "routes/account:loader", what: "own account", request: get("/account"), expect: SIGNED_IN("200") },
  { route: "routes/account:action", what: "change password with a wrong current password", request: () => ({ path: "/account", form: { intent: "change-password", currentPassword: "not-the-password", newPassword: "another-password-123" } }), expect: SIGNED_IN("400") },
  { route: "routes/account:action", what: "delete the account with another address typed", request: () => ({ path: "/account", form: { intent: "delete-account", confirmEmail: "someone-else@example.com" } }), expect: SIGNED_IN("400") },
  { route: "routes/account.data:loader", what: "download own data", request: get("/account/data"), expect: SIGNED_IN("200") },
  { route: "routes/unsubscribe:loader", what: "unsubscribe page (checks the token, changes nothing)", request: get("/unsubscribe?token=forged.token"), expect: ALL("200") },
  { route: "routes/unsubscribe:action", what: "unsubscribe with a forged token", request: () => ({ path: "/unsubscribe?token=forged.token", form: { token: "forged.token" } }), expect: ALL("400") },
  { route: "routes/reference-requests:loader", what: "own reference requests", request: get("/reference-requests"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/reference-requests:action", what: "approve a reference request", request: async (w) => ({ path: "/reference-requests", form: { requestId: (await w.freshReferenceRequest()).id, decision: "approve" } }), expect: ["302 /auth", "302 /", "302 /", "200*", "404"] },
  { route: "routes/reset-password:loader", what: "reset password form", request: get("/reset-password?token=abc"), expect: ALL("200") },
  { route: "routes/reset-password:action", what: "reset with a forged token", request: () => ({ path: "/reset-password", form: { token: "forged-token", password: "another-password-123" } }), expect: ALL("400") },
  { route: "routes/sign-out:loader", what: "GET /sign-out signs nobody out", request: get("/sign-out"), expect: ALL("302 /") },
  { route: "routes/sign-out:action", what: "sign out", request: () => ({ path: "/sign-out", form: {}, fresh: true }), expect: ALL("302 /") },
  { route: "routes/dev-mail:loader", what: "recorded e-mail (local mode only; 404 in production)", request: get("/dev/mail"), expect: ALL("200") },
  { route: "routes/checkout:loader", what: "the test checkout of a pending purchase", request: async (w) => ({ path: `/checkout/${(await w.freshCheckout()).providerSessionId}` }), expect: ["404", "404", "404", "200", "404"] },
  { route: "routes/checkout:action", what: "pay a pending test checkout", request: async (w) => ({ path: `/checkout/${(await w.freshCheckout()).providerSessionId}`, form: { intent: "pay" } }), expect: ["404", "404", "404", "302* /gig", "404"] },
  { route: "routes/sitemap:loader", what: "sitemap.xml", request: get("/sitemap.xml"), expect: ALL("200") },
  { route: "routes/robots:loader", what: "robots.txt", request: get("/robots.txt"), expect: ALL("200") },
  { route: "routes/not-found:loader", what: "an unknown address", request: get("/no-such-page"), expect: ALL("404") },
  { route: "GET /healthz", what: "health check", request: get("/healthz"), expect: ALL("200") },
  { route: "GET /api/auth/*", what: "Better Auth: own session", request: get("/api/auth/get-session"), expect: ALL("200") },
  { route: "POST /api/auth/*", what: "Better Auth: sign out", request: () => ({ path: "/api/auth/sign-out", method: "POST", fresh: true }), expect: ALL("200") },
  { route: "POST /api/webhooks/stripe", what: "an unsigned webhook", request: () => ({ path: "/api/webhooks/stripe", method: "POST" }), expect: ALL("400") },
  { route: "GET /uploads/*", what: "an upload that is not there", request: get("/uploads/diggers/none/missing.jpg"), expect: ALL("404") },
  // Last: saving a profile replaces its references. The other digger may not take the owner's handle.
  { route: "routes/digger-registration:action", what: "save own digger profile (with the owner's handle)", request: (w) => ({ path: "/digger-registration", form: { handle: w.users.owningDigger.handle, businessName: "Renamed Business LLC", phone: "(555) 010-2222", location: "Austin, TX", profession: "Electrician", bio: "Wiring.", availability: "Weekdays", hourlyRateMin: "60", hourlyRateMax: "95", yearsExperience: "5", isInsured: "no", isBonded: "no", isLicensed: "no", categoryIds: [w.gig.categoryId], "references.0.name": "Rita Reference", "references.0.email": "rita@example.org", acceptTerms: "on" } }), expect: ["302 /auth", "302 /", "302 /", "302* /digger", "409"] },
];

function outcome(response: Response): string {
  if (response.status < 300 || response.status >= 400) return String(response.status);
  const to = location(response) ?? "";
  return `${response.status} /${to.startsWith("/") ? to.split(/[/?]/)[1] : to}`;
}

async function send(client: SessionClient, w: World, request: Request): Promise<Response> {
  if (request.form) {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(request.form)) for (const v of [value].flat()) body.append(key, v);
    return client.send(request.path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: w.app.config.publicUrl },
      body: body.toString(),
    });
  }
  const method = request.method ?? "GET";
  return client.send(request.path, { method, headers: method === "POST" ? { origin: w.app.config.publicUrl } : {} });
}

let app: TestApp;
let world: World;
beforeAll(async () => {
  app = await createTestApp();
  world = await createWorld(app);
});
afterAll(() => app.close());

describe("authorization matrix", () => {
  it("has a row for every loader and action of the server build, and for every Hono route", async () => {
    const build = await loadServerBuild();
    const needed = new Set<string>();
    for (const [id, route] of Object.entries(build.routes)) {
      if (route?.module.loader) needed.add(`${id}:loader`);
      if (route?.module.action) needed.add(`${id}:action`);
    }
    const hono = createApp({ services: app.services, build });
    for (const r of hono.routes) {
      // Middleware takes (c, next); the React Router catch-all is covered by the build's routes.
      if (r.handler.length < 2 && r.path !== "/*") needed.add(`${r.method} ${r.path}`);
    }
    const rows = new Set(TABLE.map((row) => row.route));
    expect([...needed].filter((route) => !rows.has(route)), "routes with no row in the matrix").toEqual([]);
    expect([...rows].filter((route) => !needed.has(route)), "rows for routes that no longer exist").toEqual([]);
  });

  // One test per row, in the table's order (the last row changes the owning digger's profile).
  it.each(TABLE.map((row) => [`${row.route}: ${row.what}`, row] as const))("%s", async (_name, row) => {
    const mismatches: string[] = [];
    const changed: string[] = [];
    for (const [index, role] of ROLES.entries()) {
      const expected = row.expect[index]!;
      const request = await row.request(world, role);
      const client = request.fresh ? await world.freshClient(role) : world.client(role);
      const before = await fingerprint(app);
      const response = await send(client, world, request);
      const actual = outcome(response);
      if (actual !== expected.replace("*", "")) {
        const said = (await response.text()).match(/(?:error|message)[\\"]*,[\\"]*([^"\\]{0,120})/)?.[1] ?? "";
        mismatches.push(`as ${role}: expected ${expected}, got ${actual} ${said}`);
      }
      if (!expected.includes("*")) {
        const after = await fingerprint(app);
        const tables = Object.keys(before).filter((t) => before[t] !== after[t]);
        if (tables.length > 0) changed.push(`as ${role} changed ${tables.join(", ")}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(changed).toEqual([]);
  });

  it(`has ${TABLE.length} rows x ${ROLES.length} roles`, () => {
    console.info(`authorization matrix: ${TABLE.length} rows x ${ROLES.length} roles = ${TABLE.length * ROLES.length} cells`);
    expect(TABLE.every((row) => row.expect.length === ROLES.length)).toBe(true);
  });
});
