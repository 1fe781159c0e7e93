/**
 * The authorization matrix (issue 10; design.md section 6): every loader and action of every
 * route, and every route of the Hono server, as each of six roles (since issue 22 the sixth is
 * an operator, who fares as the other client where a row names no sixth cell). The expected
 * outcome of each cell is written in the one table below; a route of the server build or of
 * the Hono app with no row fails the test, so a new route must say who may use it.
 *
 * Roles are relative to the row's subject: the owning client owns the gig (or asked for
 * the reference), the owning digger bought the lead (or owns the profile, reference or
 * checkout). A cell is the status, plus the first path segment for a redirect ("302 /auth").
 * A cell ending in "*" is a request that is allowed to change data (only the row's `writes`
 * tables, when it names them); every other cell must leave every guarded table exactly as it
 * was (compared by a digest of all their rows).
 *
 * Better Auth's JSON API (`/api/auth/*`) is reachable from any browser, so each endpoint the
 * configuration turns on has rows of its own, read from the live auth instance; there the
 * owning client's account, session or address is the subject.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitBookedLine } from "../../core/visits.ts";
import { createApp } from "../../server/app.ts";
import { notifications } from "../../server/db/schema.ts";
import { readerTime } from "../../server/reader-time.ts";
import { TEST_PASSWORD } from "../support/accounts.ts";
import { loadServerBuild, type TestApp } from "../support/app.ts";
import { location, type SessionClient } from "../support/session-client.ts";
import { validGigForm } from "../support/forms.ts";
import { jobsSettled } from "../support/jobs.ts";
import { plainPdf } from "../support/pdf.ts";
import { insertBookedVisit, visitRow, type Visit } from "../support/visit-rows.ts";
import { signVisitAnswerToken } from "../../server/mail/visit-answer-token.ts";
import { authBasePath, disabledAuthPaths, enabledAuthRoutes, sessionTokenOf } from "../security/auth-endpoints.ts";
import { browserSubscription, SSRF_PUSH_ENDPOINTS, subscriptionForm } from "../support/push-service.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import { ageVisitProposals, freshVisit, freshVisitProposal, worldPastVisit } from "../security/visits.ts";
import { CLIENT_REVIEW_FORM, freshClientReview, freshReviewWindow } from "../security/client-reviews.ts";
import { fingerprint, GUARDED_TABLES, proofPdf, ROLES, type GuardedTable, type Role, type World } from "../security/world.ts";

/** A date a year from now: an expiry or "verified until" the forms accept. */
const NEXT_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

/** Without its sixth cell, the operator (a client account with the role) is expected to fare as the other client. */
type Cells =
  | [signedOut: string, owningClient: string, otherClient: string, owningDigger: string, otherDigger: string]
  | [signedOut: string, owningClient: string, otherClient: string, owningDigger: string, otherDigger: string, operator: string];
interface Request {
  path: string;
  method?: "GET" | "POST";
  form?: Record<string, string | string[]>;
  /** Files, sent with `form` as multipart. */
  files?: Array<{ field: string; file: File }>;
  /** A JSON body (Better Auth's API). */
  json?: Record<string, unknown>;
  /** A newly signed-in client (the request ends its session). */
  fresh?: boolean;
}
interface Cell {
  w: World;
  role: Role;
  request: Request;
  response: Response;
  body: string;
  client: SessionClient;
}
interface Row {
  /** A React Router route id with ":loader" or ":action", a Hono route or a Better Auth endpoint "METHOD /path". */
  route: string;
  what: string;
  request: (w: World, role: Role) => Request | Promise<Request>;
  expect: Cells;
  /** The only tables a "*" cell may change. */
  writes?: GuardedTable[];
  /** More to check in each cell's answer: what is wrong, or nothing. */
  check?: (cell: Cell) => string | undefined | Promise<string | undefined>;
  /** The request ends every session of the role's user: its shared client signs in again. */
  endsAllSessions?: boolean;
}

const ALL = (cell: string): Cells => [cell, cell, cell, cell, cell, cell];
const SIGNED_IN = (cell: string, visitor = "302 /auth"): Cells => [visitor, cell, cell, cell, cell, cell];
/** The operator console: the 404 page for everyone else, signed in or not. */
const OPS = (cell: string): Cells => ["404", "404", "404", "404", "404", cell];
const get = (path: string) => () => ({ path });
/** A thread: its two parties (the owning client and digger); the 404 page for everyone else, operators included. */
const PARTIES = (cell: string): Cells => ["302 /auth", cell, "404", cell, "404", "404"];

/** A thread's quote (issue 33): its digger sends and changes it (403 for the client); its client decides it (403 for the digger). */
const QUOTER = (cell: string): Cells => ["302 /auth", "403", "404", cell, "404", "404"];
const DECIDER = (cell: string): Cells => ["302 /auth", cell, "404", "403", "404", "404"];
const QUOTE_FORM = { type: "fixed", amount: "1200", included: "Labour and materials" };
/** A visit's times (issue 50): its digger proposes (and marks 'Visited'), its client books and answers (403 for the other party). */
const VISIT_FORM = { "options.0.date": new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10), "options.0.time": "10:00", "options.0.window": "60", note: "I'll bring a ladder" };
/** What a visit's step writes besides its rows: the other party's notice, and the read mark of the thread page shown again after the post. */
const VISIT_NOTICES: GuardedTable[] = ["threads", "notifications", "emails"];

const validGig = (w: World) => validGigForm(w.gig.categoryId);

const EVIL = "https://evil.example/steal";
const newEmail = () => `new-${randomUUID()}@example.com`;
const nobody = () => `nobody-${randomUUID()}@example.com`;
/** A POST to Better Auth's JSON API, as its client library sends it. */
const api = (path: string, json: Record<string, unknown> = {}, more: Partial<Request> = {}): Request => ({ path: `/api/auth${path}`, method: "POST", json, ...more });
const otherType = (role: Role) => (role.endsWith("Digger") ? "consumer" : "digger");
const ownName = (w: World, role: Role) => (role === "signedOut" ? "Visiting Person" : w.users[role].fullName);

interface AuthAnswer {
  token?: string | null;
  user?: { id?: string } | null;
  message?: string;
}
function jsonOf<T = AuthAnswer>(body: string): T | undefined {
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}
const userWithEmail = (w: World, email: string) => w.app.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email.toLowerCase()) });
const sessionExists = async (w: World, token: string) => (await w.app.database.db.query.sessions.findFirst({ where: (t, { eq }) => eq(t.token, token) })) !== undefined;
/** A 400 must say this (401 "sign in first" says its own). */
const saying = (message: string) => ({ response, body }: Cell) =>
  response.status === 400 && jsonOf(body)?.message !== message ? `said ${body.slice(0, 120)}, not "${message}"` : undefined;
const storedOwnName = async ({ w, role }: Cell) => {
  if (role === "signedOut") return undefined;
  const name = (await userWithEmail(w, w.users[role].email))?.name;
  return name === w.users[role].fullName ? undefined : `stored the name ${JSON.stringify(name)}`;
};
/** The answer to a sign-up for a taken address: a new account's, without a session, and nothing of the owner's. */
const likeANewAccount = ({ w, response, body }: Cell) => {
  if (response.status === 429) return undefined;
  const answer = jsonOf(body);
  const owner = w.users.owningClient;
  if (answer?.token !== null || !answer.user?.id) return `answered ${body.slice(0, 120)}`;
  if (response.headers.getSetCookie().some((c) => c.includes("session_token="))) return "set a session cookie";
  return answer.user.id === owner.id || body.includes(owner.fullName) ? `showed the owner's account: ${body.slice(0, 120)}` : undefined;
};
const signedOutAfter = async ({ client }: Cell) => {
  const session = await (await client.get("/api/auth/get-session")).text();
  return session === "null" ? undefined : `still signed in: ${session.slice(0, 80)}`;
};

// prettier-ignore
/** The bell's page shows the role's own entry and nobody else's. */
function onlyOwnNotification({ w, role, body }: Cell): string | undefined {
  const page = body.replaceAll("&#x27;", "'");
  for (const [owner, entry] of Object.entries(w.notificationOf)) {
    if (owner === role && !page.includes(entry.text)) return "does not show its own notification";
    if (owner !== role && page.includes(entry.text)) return `shows ${owner}'s notification`;
  }
  return undefined;
}

/** The world's thread is in the inbox of its two parties and nobody else's, nor its message. */
function onlyPartiesSeeThread({ w, role, body }: Cell): string | undefined {
  const party = role === "owningClient" || role === "owningDigger";
  const listed = body.includes(`/messages/${w.thread.id}`);
  if (party && !listed) return "does not list its own thread";
  if (!party && (listed || body.replaceAll("&#x27;", "'").includes(w.message.body))) return "lists another's thread";
  return undefined;
}

/** The world's visit (issue 50): on the Visits list of the thread's two parties, with its time and gig, and nobody else's. */
async function onlyPartiesSeeVisit({ w, role, body }: Cell): Promise<string | undefined> {
  const visit = await worldPastVisit(w);
  const page = body.replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
  const line = visitBookedLine(readerTime(null, w.app.config).visitWindow(visit.startsAt, visit.windowMinutes));
  const shown = [line, w.gig.title, `/messages/${w.thread.id}`].filter((text) => page.includes(text));
  if (role === "owningClient" || role === "owningDigger") return shown.length === 3 ? undefined : "does not show its own visit";
  return shown.length > 0 ? `shows another's visit (${shown.join(", ")})` : undefined;
}

/** The world's message shows to the thread's two parties and nobody else. */
function onlyPartiesSeeMessage({ w, role, body }: Cell): string | undefined {
  const party = role === "owningClient" || role === "owningDigger";
  const shown = body.replaceAll("&#x27;", "'").includes(w.message.body);
  if (party && !shown) return "does not show its own thread's message";
  return !party && shown ? "shows another's message" : undefined;
}

let freshNotices: Awaited<ReturnType<World["freshNotifications"]>> | undefined;
/** 'Mark all as read' marked the role's own new entry read, and nobody else's. */
async function onlyOwnMarkedRead({ w, role }: Cell): Promise<string | undefined> {
  for (const [owner, entry] of Object.entries(freshNotices ?? {})) {
    const [row] = await w.app.database.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.id, entry.id));
    if (owner === role && !row?.readAt) return "left its own notification unread";
    if (owner !== role && row?.readAt) return `marked ${owner}'s notification read`;
  }
  return undefined;
}

/**
 * A booked visit in the world's thread (issue 50), written as booking writes its rows (without
 * its notices: the rows alone); `fresh`: a new one each time, else one for the whole file.
 */
let sharedVisit: Promise<Visit> | undefined;
function worldVisit(w: World, { fresh = false } = {}): Promise<Visit> {
  const make = () => insertBookedVisit(w.app, w.thread, new Date(Date.now() + 3 * 86_400_000));
  return fresh ? make() : (sharedVisit ??= make());
}
const visitLink = (token: string, answer: "confirm" | "change") => `/visit-reply?token=${encodeURIComponent(token)}&answer=${answer}`;

/**
 * A sent message's recipient is told by the `messages.tell` job after the send (decision 0078),
 * which marks the message told: settled before the next role's request, whose fingerprint would
 * otherwise see the job's write.
 */
const toldOf = async ({ w }: { w: World }) => (await jobsSettled(w.app.database.db, "messages.tell", 20_000), undefined);

const TABLE: Row[] = [
  //                                                                                                    signed out    owning client  other client  owning digger  other digger
  { route: "root:loader", what: "every page's user and flash", request: get("/terms"), expect: ALL("200") },
  { route: "routes/home:loader", what: "landing page", request: get("/"), expect: ALL("200") },
  { route: "routes/auth:loader", what: "sign-in page", request: get("/auth"), expect: ["200", "302 /", "302 /", "302 /", "302 /"] },
  // A signed-in user posting to /auth is sent home like one who visits it.
  { route: "routes/auth:action", what: "sign-in with a wrong password", request: (w) => ({ path: "/auth", form: { intent: "sign-in", email: w.users.otherClient.email, password: "not-the-password" } }), expect: SIGNED_IN("302 /", "401") },
  { route: "routes/auth:action", what: "password reset e-mail for an unknown address", request: () => ({ path: "/auth", form: { intent: "forgot-password", email: `nobody-${randomUUID()}@example.com` } }), expect: SIGNED_IN("302 /", "200") },
  { route: "routes/digger-registration:loader", what: "own digger profile form", request: get("/digger-registration"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/post-gig:loader", what: "post a gig form", request: get("/post-gig"), expect: ["302 /auth", "200", "200", "302 /", "302 /"] },
  { route: "routes/post-gig:action", what: "post a gig", request: (w) => ({ path: "/post-gig", form: validGig(w) }), expect: ["302 /auth", "302* /", "302* /", "302 /", "302 /"] },
  { route: "routes/browse-diggers:loader", what: "Browse Talent", request: get("/browse-diggers"), expect: ALL("200") },
  { route: "routes/browse-gigs:loader", what: "Browse Gigs", request: get("/browse-gigs"), expect: ALL("200") },
  { route: "routes/digger:loader", what: "a digger's public profile", request: (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}` }), expect: ALL("200") },
  { route: "routes/digger:action", what: "request a reference's contact", request: (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}`, form: { referenceId: w.reference.id } }), expect: ["302 /auth", "409", "200*", "302 /digger", "302 /digger"] },
  { route: "routes/gig:loader", what: "a gig's public page", request: (w) => ({ path: `/gig/${w.gig.id}` }), expect: ALL("200") },
  { route: "routes/gig:action", what: "buy the lead", request: async (w) => (await w.keepGigOpen(), { path: `/gig/${w.gig.id}`, form: { intent: "purchase" } }), expect: ["302 /auth", "403", "403", "409", "302* /checkout"] },
  { route: "routes/gig:action", what: "resend the confirmation e-mail from a gig's page (own address, already confirmed)", request: (w) => ({ path: `/gig/${w.gig.id}`, form: { intent: "resend-confirmation" } }), expect: ["302 /auth", "400", "400", "400", "400"] },
  { route: "routes/my-leads:loader", what: "My Leads", request: get("/my-leads"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/my-leads:action", what: "report an issue on a purchase", request: async (w) => ({ path: "/my-leads", form: { purchaseId: (await w.freshPurchase()).purchase.id, issueType: "mistake", description: "The client posted this by mistake." } }), expect: ["302 /auth", "302 /", "302 /", "200*", "404"] },
  // The digger's review of a lead's client (issue 51): the lead's digger only; 403 for every other signed-in user, operators too.
  { route: "routes/my-leads.$purchaseId.review:loader", what: "the form of the digger's review of a lead's client", request: async (w) => ({ path: `/my-leads/${(await freshReviewWindow(w)).id}/review` }), expect: ["302 /auth", "403", "403", "200", "403"] },
  { route: "routes/my-leads.$purchaseId.review:action", what: "review a lead's client", request: async (w) => ({ path: `/my-leads/${(await freshReviewWindow(w)).id}/review`, form: CLIENT_REVIEW_FORM }), expect: ["302 /auth", "403", "403", "200*", "403"], writes: ["client_reviews", "notifications", "emails"] },
  { route: "routes/my-leads.$purchaseId.review:action", what: "edit a published review of a lead's client", request: async (w) => ({ path: `/my-leads/${(await freshReviewWindow(w, { published: true })).id}/review`, form: CLIENT_REVIEW_FORM }), expect: ["302 /auth", "403", "403", "409", "403"] },
  { route: "routes/my-leads.$purchaseId.review:action", what: "review the client of a lead nobody hired", request: async (w) => ({ path: `/my-leads/${(await w.freshPurchase()).purchase.id}/review`, form: CLIENT_REVIEW_FORM }), expect: ["302 /auth", "403", "403", "409", "403"] },
  { route: "routes/my-gigs:loader", what: "My Gigs (each user's own)", request: get("/my-gigs"), expect: SIGNED_IN("200") },
  { route: "routes/my-gigs:action", what: "close a gig", request: async (w) => ({ path: "/my-gigs", form: { intent: "set-status", status: "closed", gigId: (await w.freshGig()).id } }), expect: ["302 /auth", "200*", "404", "404", "404"] },
  { route: "routes/my-gigs:action", what: "resend the confirmation e-mail (own address, already confirmed)", request: () => ({ path: "/my-gigs", form: { intent: "resend-confirmation" } }), expect: ["302 /auth", "400", "400", "400", "400"] },
  { route: "routes/my-gigs.$gigId.edit:loader", what: "a gig's edit page", request: (w) => ({ path: `/my-gigs/${w.gig.id}/edit` }), expect: ["302 /auth", "200", "302 /my-gigs", "302 /my-gigs", "302 /my-gigs"] },
  { route: "routes/my-gigs.$gigId.edit:action", what: "edit a bought gig's timeline", request: (w) => ({ path: `/my-gigs/${w.gig.id}/edit`, form: { timeline: `Next month ${randomUUID().slice(0, 4)}` } }), expect: ["302 /auth", "302 /my-gigs*", "302 /my-gigs", "302 /my-gigs", "302 /my-gigs"], writes: ["gigs"] },
  { route: "routes/my-gigs.$gigId.edit:action", what: "edit a bought gig's title (locked after a purchase)", request: (w) => ({ path: `/my-gigs/${w.gig.id}/edit`, form: { title: "A brand new title for it", timeline: "Soon" } }), expect: ["302 /auth", "409", "302 /my-gigs", "302 /my-gigs", "302 /my-gigs"] },
  { route: "routes/my-gigs.$gigId.edit:action", what: "delete a gig nobody bought", request: async (w) => ({ path: `/my-gigs/${(await w.freshGig()).id}/edit`, form: { intent: "delete" } }), expect: ["302 /auth", "302 /my-gigs*", "302 /my-gigs", "302 /my-gigs", "302 /my-gigs"], writes: ["gigs"] },
  { route: "routes/my-gigs.$gigId.edit:action", what: "delete a bought gig", request: (w) => ({ path: `/my-gigs/${w.gig.id}/edit`, form: { intent: "delete" } }), expect: ["302 /auth", "409", "302 /my-gigs", "302 /my-gigs", "302 /my-gigs"] },
  { route: "routes/my-gigs.$gigId.issues:loader", what: "a gig's issues", request: (w) => ({ path: `/my-gigs/${w.gig.id}/issues` }), expect: ["302 /auth", "200", "404", "404", "404"] },
  { route: "routes/my-gigs.$gigId.issues:action", what: "approve an issue (refund)", request: async (w) => { const f = await w.freshIssue(); return { path: `/my-gigs/${f.gig.id}/issues`, form: { decision: "approve", issueId: f.issue.id } }; }, expect: ["302 /auth", "200*", "404", "404", "404"] },
  // Compare Quotes (issue 33): the gig's client only; the 404 page for everyone else, operators too (decision 0043).
  { route: "routes/my-gigs.$gigId.quotes:loader", what: "compare a gig's quotes", request: async (w) => (await w.freshQuote(), { path: `/my-gigs/${w.gig.id}/quotes` }), expect: ["302 /auth", "200", "404", "404", "404", "404"], check: ({ role, body }) => (role === "owningClient" && !body.includes("Accept") ? "the client does not see the quote's Accept" : undefined) },
  { route: "routes/my-gigs.$gigId.diggers:loader", what: "the diggers who bought a gig's lead", request: (w) => ({ path: `/my-gigs/${w.gig.id}/diggers` }), expect: ["302 /auth", "200", "403", "403", "403"] },
  // A hire and a review recompute the digger's figures (digger_profiles) and e-mail the digger.
  { route: "routes/my-gigs.$gigId.diggers:action", what: "mark the buyer of a gig as hired", request: async (w) => { const f = await w.freshPurchase(); return { path: `/my-gigs/${f.gig.id}/diggers`, form: { intent: "hire", diggerId: w.users.owningDigger.diggerId } }; }, expect: ["302 /auth", "200*", "403", "403", "403"], writes: ["hires", "gigs", "digger_profiles", "emails", "notifications"] },
  { route: "routes/my-gigs.$gigId.diggers:action", what: "remove a hire", request: (w) => ({ path: `/my-gigs/${w.gig.id}/diggers`, form: { intent: "unhire", diggerId: w.users.otherDigger.diggerId } }), expect: ["302 /auth", "409", "403", "403", "403"] },
  { route: "routes/my-gigs.$gigId.diggers:action", what: "review the buyer of a gig", request: async (w) => { const f = await w.freshPurchase(); return { path: `/my-gigs/${f.gig.id}/diggers`, form: { intent: "review", diggerId: w.users.owningDigger.diggerId, rating: "5", body: "Great work, on time and tidy. Would hire again." } }; }, expect: ["302 /auth", "200*", "403", "403", "403"], writes: ["reviews", "digger_profiles", "emails", "notifications"] },
  { route: "routes/my-gigs.$gigId.diggers:action", what: "review the same digger for the same gig again", request: (w) => ({ path: `/my-gigs/${w.gig.id}/diggers`, form: { intent: "review", diggerId: w.users.owningDigger.diggerId, rating: "1", body: "Trying to review a second time here." } }), expect: ["302 /auth", "409", "403", "403", "403"] },
  { route: "routes/my-gigs.$gigId.diggers:action", what: "review a digger who never bought the lead", request: (w) => ({ path: `/my-gigs/${w.gig.id}/diggers`, form: { intent: "review", diggerId: w.users.otherDigger.diggerId, rating: "1", body: "Never bought this lead but reviewed." } }), expect: ["302 /auth", "409", "403", "403", "403"] },
  { route: "routes/digger:action", what: "reply to a review on the owning digger's profile", request: async (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}`, form: { intent: "reply", reviewId: (await w.freshReview()).id, reply: "Thank you, it was a pleasure!" } }), expect: ["302 /auth", "403", "403", "200*", "403"], writes: ["reviews"] },
  { route: "routes/digger:action", what: "reply, on one's own profile, to a review of another digger", request: async (w, role) => ({ path: `/digger/${role === "otherDigger" ? w.users.otherDigger.diggerId : w.users.owningDigger.diggerId}`, form: { intent: "reply", reviewId: (await w.freshReview()).id, reply: "Thank you, it was a pleasure!" } }), expect: ["302 /auth", "403", "403", "200*", "403"], writes: ["reviews"] },
  // Any signed-in user may report a review once (the reviewed digger too); a visitor signs in first.
  { route: "routes/digger:action", what: "report a review", request: async (w) => ({ path: `/digger/${w.users.owningDigger.diggerId}`, form: { intent: "report-review", reviewId: (await w.freshReview()).id, reason: "This review is about another business." } }), expect: ["302 /auth", "200*", "200*", "200*", "200*", "200*"], writes: ["review_reports"] },
  // Issue 51: a digger's review of a client is reported by anyone signed in who sees the gig page, by the client from /account, and decided in the Reviews queue.
  { route: "routes/gig:action", what: "report a digger's review of the gig's client", request: async (w) => ({ path: `/gig/${w.gig.id}`, form: { intent: "report-review", reviewId: (await freshClientReview(w)).id, reason: "This review is about another client." } }), expect: ["302 /auth", "200*", "200*", "200*", "200*", "200*"], writes: ["review_reports"] },
  { route: "routes/account:action", what: "report a digger's review of oneself (the owning client's)", request: async (w) => ({ path: "/account", form: { intent: "report-review", reviewId: (await freshClientReview(w)).id, reason: "This digger never came to the house." } }), expect: ["302 /auth", "200*", "404", "404", "404", "404"], writes: ["review_reports"] },
  { route: "routes/ops.reviews:action", what: "keep a reported review of a client", request: async (w) => ({ path: "/ops/reviews", form: { intent: "keep", reviewId: (await freshClientReview(w, { reported: true })).id, side: "client" } }), expect: OPS("200*"), writes: ["review_reports", "operator_actions"] },
  { route: "routes/contact:loader", what: "Contact Us", request: get("/contact"), expect: ALL("200") },
  { route: "routes/contact:action", what: "send a message to support", request: () => ({ path: "/contact", form: { name: "Grace Hopper", email: "grace@example.com", subject: `Question ${randomUUID()}`, message: "How do refunds work for a lead that was posted by mistake?" } }), expect: ALL("200*") },
  { route: "routes/terms:loader", what: "Terms of Service", request: get("/terms"), expect: ALL("200") },
  { route: "routes/privacy:loader", what: "Privacy Policy", request: get("/privacy"), expect: ALL("200") },
  { route: "routes/account:loader", what: "own account", request: get("/account"), expect: SIGNED_IN("200") },
  { route: "routes/account:action", what: "change password with a wrong current password", request: () => ({ path: "/account", form: { intent: "change-password", currentPassword: "not-the-password", newPassword: "another-password-123" } }), expect: SIGNED_IN("400") },
  { route: "routes/account:action", what: "delete the account with another address typed", request: () => ({ path: "/account", form: { intent: "delete-account", confirmEmail: "someone-else@example.com" } }), expect: SIGNED_IN("400") },
  {
    route: "routes/account:action",
    what: "save lead alerts (diggers with a profile only)",
    request: (w) => ({ path: "/account", form: { intent: "lead-alerts", frequency: "off", categoryIds: [w.gig.categoryId], keywords: "deck", location: "Austin", maxLeadPrice: "80" } }),
    expect: ["302 /auth", "403", "403", "200*", "200*"],
    writes: ["lead_alert_settings", "lead_alert_categories"],
  },
  { route: "routes/account:action", what: "save How to reach me (one's own choices; a user id in the form is not read)", request: (w) => ({ path: "/account", form: { intent: "reach", push: "shown", "email.messages": "on", "push.quotes": "on", userId: w.users.owningClient.id } }), expect: SIGNED_IN("200*"), writes: ["reach_preferences"] },
  { route: "routes/account:action", what: "turn push notifications on for this device", request: () => ({ path: "/account", form: subscriptionForm(browserSubscription(`https://push.example.test/send/${randomUUID()}`)) }), expect: SIGNED_IN("200*"), writes: ["push_subscriptions"] },
  { route: "routes/account:action", what: "turn push notifications on with a plain-http endpoint", request: () => ({ path: "/account", form: { ...subscriptionForm(browserSubscription(`http://push.example.test/send/${randomUUID()}`)) } }), expect: SIGNED_IN("400") },
  // Issue 45, finding 1: the third attack's endpoints, a port and service probe of this machine and its network.
  ...SSRF_PUSH_ENDPOINTS.map((endpoint): Row => ({ route: "routes/account:action", what: `turn push notifications on at ${endpoint} (not a browser vendor's push service)`, request: () => ({ path: "/account", form: subscriptionForm(browserSubscription(endpoint)) }), expect: SIGNED_IN("400"), check: ({ response, body }) => (response.status !== 400 || body.includes("push service is not supported") ? undefined : "not the unsupported push service's message") })),
  // Finding 11: the owning client's device, with keys of the sender's own making; only the owner may renew its keys.
  { route: "routes/account:action", what: "take the owning client's push device over with other keys", request: async (w) => ({ path: "/account", form: subscriptionForm(browserSubscription((await w.freshPushDevice()).endpoint)) }), expect: ["302 /auth", "200*", "400", "400", "400", "400"], writes: ["push_subscriptions"] },
  { route: "routes/account:action", what: "remove the owning consumer's push device", request: async (w) => ({ path: "/account", form: { intent: "push-remove", deviceId: (await w.freshPushDevice()).id } }), expect: ["302 /auth", "200*", "404", "404", "404", "404"], writes: ["push_subscriptions"] },
  { route: "routes/account.data:loader", what: "download own data", request: get("/account/data"), expect: SIGNED_IN("200") },
  { route: "routes/unsubscribe:loader", what: "unsubscribe page (checks the token, changes nothing)", request: get("/unsubscribe?token=forged.token"), expect: ALL("200") },
  { route: "routes/unsubscribe:loader", what: "lead alerts' unsubscribe page (checks the token, changes nothing)", request: get("/unsubscribe?token=forged.token&list=lead-alerts"), expect: ALL("200") },
  { route: "routes/unsubscribe:action", what: "turn lead alerts off with a forged token", request: () => ({ path: "/unsubscribe?token=forged.token&list=lead-alerts", form: { token: "forged.token", list: "lead-alerts" } }), expect: ALL("400") },
  { route: "routes/unsubscribe:loader", what: "new messages' unsubscribe page (checks the token, changes nothing)", request: get("/unsubscribe?token=forged.token&list=messages"), expect: ALL("200") },
  { route: "routes/unsubscribe:action", what: "turn e-mail about new messages off with a forged token", request: () => ({ path: "/unsubscribe?token=forged.token&list=messages", form: { token: "forged.token", list: "messages" } }), expect: ALL("400") },
  { route: "routes/unsubscribe:action", what: "unsubscribe with a forged token", request: () => ({ path: "/unsubscribe?token=forged.token", form: { token: "forged.token" } }), expect: ALL("400") },
  // A visit's signed Confirm / Need to change (issue 50): the token alone decides, for everyone alike; opening it changes nothing.
  { route: "routes/visit-reply:loader", what: "a visit's signed link (checks the token, changes nothing)", request: async (w) => ({ path: visitLink(signVisitAnswerToken(w.app.config.authSecret, await worldVisit(w)), "confirm") }), expect: ALL("200"), check: async ({ w, body }) => ((await worldVisit(w).then((v) => visitRow(w.app, v.id))).clientConfirmedAt ? "opening the link confirmed the visit" : body.includes("Confirm</button>") ? undefined : "does not offer Confirm") },
  { route: "routes/visit-reply:action", what: "confirm a visit with a forged token (its id, another signature)", request: async (w) => { const visit = await worldVisit(w); const token = `${visit.id}.${visit.sequence}.${"A".repeat(43)}`; return { path: visitLink(token, "confirm"), form: { token, answer: "confirm" } }; }, expect: ALL("400") },
  { route: "routes/visit-reply:action", what: "a visit's Need to change by its signed link, signed in or not", request: async (w) => { const visit = await worldVisit(w, { fresh: true }); const token = signVisitAnswerToken(w.app.config.authSecret, visit); return { path: visitLink(token, "change"), form: { token, answer: "change" } }; }, expect: ALL("200*"), writes: ["emails", "notifications", "visits"] },
  { route: "routes/reference-requests:loader", what: "own reference requests", request: get("/reference-requests"), expect: ["302 /auth", "302 /", "302 /", "200", "200"] },
  { route: "routes/reference-requests:action", what: "approve a reference request", request: async (w) => ({ path: "/reference-requests", form: { requestId: (await w.freshReferenceRequest()).id, decision: "approve" } }), expect: ["302 /auth", "302 /", "302 /", "200*", "404"] },
  { route: "routes/notifications:loader", what: "own notifications (the bell)", request: get("/notifications"), expect: SIGNED_IN("200"), check: onlyOwnNotification },
  { route: "routes/notifications:action", what: "mark all as read", request: async (w) => ((freshNotices = await w.freshNotifications()), { path: "/notifications", form: {} }), expect: SIGNED_IN("200*"), writes: ["notifications"], check: onlyOwnMarkedRead },
  // Conversations (issue 32): a thread's two parties only; everyone else, operators included (the world's message is reported), gets the 404 page.
  // A form posted without JavaScript shows the thread again, whose loader marks it read (threads).
  { route: "routes/messages:loader", what: "own conversations (the inbox)", request: async (w) => (await w.touchThread(), { path: "/messages" }), expect: SIGNED_IN("200"), check: onlyPartiesSeeThread },
  { route: "routes/visits:loader", what: "own visits (the Visits list: the thread's parties only)", request: async (w) => (await worldPastVisit(w), { path: "/visits" }), expect: SIGNED_IN("200"), check: onlyPartiesSeeVisit },
  { route: "routes/messages.$threadId:loader", what: "a thread (opening it marks it read)", request: (w) => ({ path: `/messages/${w.thread.id}` }), expect: PARTIES("200*"), writes: ["threads"], check: onlyPartiesSeeMessage },
  { route: "routes/messages.$threadId:action", what: "send a message", request: (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "send", body: "Hello, is the job still open?", js: "1" } }), expect: PARTIES("200*"), writes: ["messages", "threads", "message_notices", "lead_purchases"] , check: toldOf },
  { route: "routes/messages.$threadId:action", what: "send a message without JavaScript", request: (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "send", body: "Hello again" } }), expect: PARTIES("303* /messages"), writes: ["messages", "threads", "message_notices"] , check: toldOf },
  { route: "routes/messages.$threadId:action", what: "send a message with an attachment (a multipart form)", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "send", body: "The plan is attached", js: "1" }, files: [{ field: "attachments", file: new File([new Uint8Array(await plainPdf())], "plan.pdf", { type: "application/pdf" }) }] }), expect: PARTIES("200*"), writes: ["messages", "threads", "message_notices", "message_attachments"] , check: toldOf },
  { route: "routes/messages.$threadId.attachments.$id:loader", what: "a reported message's attachment", request: (w) => ({ path: `/messages/${w.thread.id}/attachments/${w.reportedAttachment.id}` }), expect: ["404", "200", "404", "200", "404", "200"] },
  { route: "routes/messages.$threadId.attachments.$id:loader", what: "an attachment of a message nobody reported", request: (w) => ({ path: `/messages/${w.thread.id}/attachments/${w.attachment.id}` }), expect: ["404", "200", "404", "200", "404", "404"] },
  { route: "routes/messages.$threadId:action", what: "report a message", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "report", messageId: (await w.freshMessage()).id, reason: "Asks for payment outside the site" } }), expect: PARTIES("200*"), writes: ["message_reports", "threads"] },
  // A block cancels the pair's upcoming visits (issue 50), telling both: the world's thread may hold one of an earlier row.
  { route: "routes/messages.$threadId:action", what: "block the other party", request: (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "block" } }), expect: PARTIES("200*"), writes: ["blocks", "threads", "visits", "visit_proposals", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "unblock the other party", request: (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "unblock" } }), expect: PARTIES("200*"), writes: ["blocks", "threads"] },
  // Quotes (issue 33): only the thread's digger quotes, only the gig's client decides; the 404 page for everyone else.
  { route: "routes/messages.$threadId:action", what: "send a quote", request: async (w) => (await w.clearQuotes(), { path: `/messages/${w.thread.id}`, form: { intent: "send-quote", ...QUOTE_FORM } }), expect: QUOTER("200*"), writes: ["quotes", "quote_line_items", "threads"] },
  { route: "routes/messages.$threadId:action", what: "revise a quote", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "revise-quote", quoteId: (await w.freshQuote()).id, ...QUOTE_FORM } }), expect: QUOTER("200*"), writes: ["quotes", "quote_line_items", "threads"] },
  { route: "routes/messages.$threadId:action", what: "withdraw a quote", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "withdraw-quote", quoteId: (await w.freshQuote()).id } }), expect: QUOTER("200*"), writes: ["quotes"] },
  { route: "routes/messages.$threadId:action", what: "accept a quote", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "accept-quote", quoteId: (await w.freshQuote()).id } }), expect: DECIDER("200*"), writes: ["quotes", "hires", "notifications", "emails"] },
  { route: "routes/messages.$threadId:action", what: "decline a quote", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "decline-quote", quoteId: (await w.freshQuote()).id, reason: "Too dear" } }), expect: DECIDER("200*"), writes: ["quotes", "notifications", "emails"] },
  // Site visits (issue 50): only the thread's digger proposes, only its client books, asks for
  // other times, confirms and asks to change, either party cancels, each marks their own side.
  { route: "routes/messages.$threadId:action", what: "propose a visit", request: async (w) => (await ageVisitProposals(w), { path: `/messages/${w.thread.id}`, form: { intent: "propose-visit", ...VISIT_FORM } }), expect: QUOTER("200*"), writes: ["visit_proposals", "visit_options", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "book a visit's time", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "book-visit", proposalId: (await freshVisitProposal(w)).id, position: "1" } }), expect: DECIDER("200*"), writes: ["visit_proposals", "visits", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "ask for other times", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "ask-other-times", proposalId: (await freshVisitProposal(w)).id } }), expect: DECIDER("200*"), writes: ["visit_proposals", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "confirm a visit", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "confirm-visit", visitId: (await freshVisit(w)).id } }), expect: DECIDER("200*"), writes: ["visits", "threads"] },
  { route: "routes/messages.$threadId:action", what: "ask to change a visit (Need to change)", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "change-visit", visitId: (await freshVisit(w)).id } }), expect: DECIDER("200*"), writes: ["visits", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "cancel a visit with a reason", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "cancel-visit", visitId: (await freshVisit(w)).id, reason: "Something came up" } }), expect: PARTIES("200*"), writes: ["visits", "visit_proposals", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "mark a visit 'Visited' (the digger's)", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "mark-visit", visitId: (await freshVisit(w, -3)).id, outcome: "visited" } }), expect: QUOTER("200*"), writes: ["visits", ...VISIT_NOTICES] },
  { route: "routes/messages.$threadId:action", what: "mark a visit 'Digger did not come' (the client's)", request: async (w) => ({ path: `/messages/${w.thread.id}`, form: { intent: "mark-visit", visitId: (await freshVisit(w, -3)).id, outcome: "digger_absent" } }), expect: DECIDER("200*"), writes: ["visits", ...VISIT_NOTICES] },
  { route: "routes/ops.messages:loader", what: "the console's reported messages", request: get("/ops/messages"), expect: OPS("200") },
  { route: "routes/ops.messages:action", what: "keep a reported message", request: async (w) => ({ path: "/ops/messages", form: { intent: "keep", messageId: (await w.freshReportedMessage()).id } }), expect: OPS("200*"), writes: ["message_reports", "operator_actions"] },
  { route: "routes/reset-password:loader", what: "reset password form", request: get("/reset-password?token=abc"), expect: ALL("200") },
  { route: "routes/reset-password:action", what: "reset with a forged token", request: () => ({ path: "/reset-password", form: { token: "forged-token", password: "another-password-123" } }), expect: ALL("400") },
  { route: "routes/verify-email:loader", what: "confirm-e-mail page (changes nothing)", request: get("/verify-email?token=forged.token"), expect: ALL("200") },
  { route: "routes/verify-email:action", what: "confirm an e-mail with a forged token", request: () => ({ path: "/verify-email?token=forged.token", form: { token: "forged.token" } }), expect: ["302 /auth", "302 /my-gigs", "302 /my-gigs", "302 /", "302 /"] },
  // Verified phone numbers (issue 49): the code step shows one's own waiting code's number only; the owning client has one (tests/security/world.ts).
  { route: "routes/verify-phone:loader", what: "the code step: the number of one's own waiting code only", request: get("/verify-phone?next=/account"), expect: SIGNED_IN("200"), check: ({ w, role, body }) => (role === "owningClient") === body.includes(w.phone.shown) ? undefined : role === "owningClient" ? "the owner's number is missing" : "another account's number is shown" },
  { route: "routes/verify-phone:action", what: "enter a code that is not 6 digits", request: () => ({ path: "/verify-phone?next=/account", form: { intent: "verify", code: "12" } }), expect: SIGNED_IN("400") },
  { route: "routes/verify-phone:action", what: "enter a wrong code: a try of one's own waiting code only", request: () => ({ path: "/verify-phone?next=/account", form: { intent: "verify", code: "999999" } }), expect: ["302 /auth", "400*", "400", "400", "400", "400"], writes: ["phone_codes"] },
  { route: "routes/verify-phone:action", what: "send a new code: within the minute for the owner, none waiting for the others", request: () => ({ path: "/verify-phone?next=/account", form: { intent: "send-new-code" } }), expect: ["302 /auth", "429", "400", "400", "400", "400"] },
  { route: "routes/account:action", what: "save a phone number that cannot receive texts", request: () => ({ path: "/account", form: { intent: "phone-save", accountPhone: "(800) 234-5678" } }), expect: SIGNED_IN("400") },
  { route: "routes/account:action", what: "verify the account's number: within the minute for the owner, no number for the others", request: () => ({ path: "/account", form: { intent: "phone-verify" } }), expect: ["302 /auth", "429", "400", "400", "400", "400"] },
  { route: "routes/account:action", what: "remove one's own phone number (a user id in the form is not read)", request: (w) => ({ path: "/account", form: { intent: "phone-remove", userId: w.users.owningClient.id } }), expect: SIGNED_IN("200*"), writes: ["users", "phone_verifications", "phone_codes"] },
  { route: "routes/sign-out:loader", what: "GET /sign-out signs nobody out", request: get("/sign-out"), expect: ALL("302 /") },
  { route: "routes/sign-out:action", what: "sign out", request: () => ({ path: "/sign-out", form: {}, fresh: true }), expect: SIGNED_IN("302* /", "302 /"), writes: ["sessions"], check: signedOutAfter },
  { route: "routes/dev-mail:loader", what: "recorded e-mail (local mode only; 404 in production)", request: get("/dev/mail"), expect: ALL("200") },
  { route: "routes/dev-sms:loader", what: "recorded text messages (local mode only; 404 in production)", request: get("/dev/sms"), expect: ALL("200") },
  { route: "routes/dev-clock:loader", what: "the reply guarantee's clock (local mode only; 404 in production)", request: get("/dev/clock"), expect: ALL("200") },
  { route: "routes/dev-clock:action", what: "move back the guarantee of a purchase that does not exist (local mode only; 404 in production)", request: () => ({ path: "/dev/clock", form: { id: randomUUID() } }), expect: ALL("404") },
  { route: "routes/ops:loader", what: "the operator console's frame", request: get("/ops/audit"), expect: OPS("200") },
  { route: "routes/ops.audit:loader", what: "the audit log", request: get("/ops/audit?action=user.suspend"), expect: OPS("200") },
  { route: "routes/ops.verification:loader", what: "the console's verification page", request: get("/ops/verification?q=owning"), expect: OPS("200") },
  { route: "routes/ops.verification:action", what: "grant a digger the Verified badge", request: async (w) => ({ path: "/ops/verification", form: { intent: "grant", diggerId: (await w.freshDigger()).diggerId, reason: "Identity checked on a call" } }), expect: OPS("200*"), writes: ["digger_profiles", "operator_actions"] },
  { route: "routes/ops.verification:action", what: "approve a credential proof until a date", request: async (w) => ({ path: "/ops/verification", form: { intent: "approve-credential", documentId: (await w.freshProof()).id, verifiedUntil: NEXT_YEAR } }), expect: OPS("200*"), writes: ["credential_documents", "digger_profiles", "operator_actions", "notifications", "emails"] },
  { route: "routes/ops.verification:action", what: "reject a credential proof with a reason", request: async (w) => ({ path: "/ops/verification", form: { intent: "reject-credential", documentId: (await w.freshProof()).id, reason: "The policy number is unreadable" } }), expect: OPS("200*"), writes: ["credential_documents", "operator_actions", "notifications", "emails"] },
  // A proof's file: its digger and operators; everyone else gets 404, as for an id that is no proof's.
  { route: "routes/credentials.$id.document:loader", what: "the owning digger's proof document", request: (w) => ({ path: `/credentials/${w.proof.id}/document` }), expect: ["404", "404", "404", "200", "404", "200"] },
  { route: "routes/ops.gigs:loader", what: "the console's Gigs search", request: get("/ops/gigs?q=deck"), expect: OPS("200") },
  { route: "routes/ops.gigs:action", what: "hide a gig with a reason", request: async (w) => ({ path: "/ops/gigs", form: { intent: "hide", gigId: (await w.freshGig()).id, reason: "Spam listing" } }), expect: OPS("200*"), writes: ["gigs", "operator_actions", "notifications", "emails"] },
  { route: "routes/ops.reviews:loader", what: "the console's reported reviews", request: get("/ops/reviews"), expect: OPS("200") },
  { route: "routes/ops.reviews:action", what: "keep a reported review", request: async (w) => ({ path: "/ops/reviews", form: { intent: "keep", reviewId: (await w.freshReportedReview()).id } }), expect: OPS("200*"), writes: ["review_reports", "operator_actions"] },
  { route: "routes/ops.payments:loader", what: "the console's payments", request: get("/ops/payments"), expect: OPS("200") },
  // The job it queues confirms the refund (the test provider): the row waits for it, so that it
  // never changes the refunds table during the next row (PostgreSQL's workers poll).
  { route: "routes/ops.payments:action", what: "retry a pending refund", request: async (w) => ({ path: "/ops/payments", form: { refundId: (await w.freshPendingRefund()).id } }), expect: OPS("200*"), writes: ["operator_actions", "refunds"], check: async ({ w }) => (await jobsSettled(w.app.database.db, "refund.send", 20_000), undefined) },
  { route: "routes/ops.payments:action", what: "decide an overdue issue awaiting an operator", request: async (w) => ({ path: "/ops/payments", form: { intent: "decide-issue", issueId: (await w.freshEscalatedIssue()).id, decision: "reject" } }), expect: OPS("200*"), writes: ["lead_issues", "operator_actions", "notifications", "emails"] },
  { route: "routes/ops.payments:action", what: "reject a fake-request report", request: async (w) => ({ path: "/ops/payments", form: { intent: "decide-fake-request", issueId: (await w.freshFakeRequest()).id, decision: "reject" } }), expect: OPS("200*"), writes: ["lead_issues", "operator_actions", "notifications", "emails"] },
  { route: "routes/ops.payments:action", what: "decline a reply guarantee refund past the digger's bound", request: async (w) => ({ path: "/ops/payments", form: { intent: "decide-guarantee", purchaseId: (await w.freshEscalatedGuarantee()).id, decision: "reject" } }), expect: OPS("200*"), writes: ["lead_purchases", "operator_actions", "notifications", "emails"] },
  { route: "routes/ops._index:loader", what: "the operator console's first page", request: get("/ops"), expect: OPS("302 /ops") },
  { route: "routes/ops.users:loader", what: "the console's Users search", request: get("/ops/users?q=client"), expect: OPS("200") },
  { route: "routes/ops.users.$userId:loader", what: "a user's page in the console", request: (w) => ({ path: `/ops/users/${w.users.owningClient.id}` }), expect: OPS("200") },
  { route: "routes/ops.users.$userId:action", what: "suspend a consumer", request: async (w) => ({ path: `/ops/users/${(await w.freshClientUser()).id}`, form: { intent: "suspend", reason: "Fraudulent gigs" } }), expect: OPS("200*"), writes: ["users", "sessions", "operator_actions", "emails"] },
  { route: "routes/ops.users.$userId:action", what: "suspend one's own account (the operator's)", request: (w) => ({ path: `/ops/users/${w.users.operator.id}`, form: { intent: "suspend", reason: "Testing" } }), expect: OPS("403") },
  { route: "routes/ops.users.$userId:action", what: "reinstate a suspended consumer", request: async (w) => ({ path: `/ops/users/${(await w.freshClientUser("Spam")).id}`, form: { intent: "reinstate", reason: "Appeal accepted" } }), expect: OPS("200*"), writes: ["users", "operator_actions", "emails"] },
  { route: "routes/checkout:loader", what: "the test checkout of a pending purchase", request: async (w) => ({ path: `/checkout/${(await w.freshCheckout()).providerSessionId}` }), expect: ["404", "404", "404", "200", "404"] },
  { route: "routes/checkout:action", what: "pay a pending test checkout", request: async (w) => ({ path: `/checkout/${(await w.freshCheckout()).providerSessionId}`, form: { intent: "pay" } }), expect: ["404", "404", "404", "302* /gig", "404"] },
  { route: "routes/sitemap:loader", what: "sitemap.xml", request: get("/sitemap.xml"), expect: ALL("200") },
  { route: "routes/robots:loader", what: "robots.txt", request: get("/robots.txt"), expect: ALL("200") },
  { route: "routes/not-found:loader", what: "an unknown address", request: get("/no-such-page"), expect: ALL("404") },
  { route: "GET /healthz", what: "liveness", request: get("/healthz"), expect: ALL("200") },
  { route: "GET /readyz", what: "readiness", request: get("/readyz"), expect: ALL("200") },
  // Accounts with a thread only (issue 45): the others get 204, Server-Sent Events' "do not reconnect".
  { route: "GET /messages/live", what: "own live updates (Server-Sent Events of one's own events)", request: get("/messages/live"), expect: ["401", "200", "204", "200", "204", "204"], check: ({ role, response, body }) => (role === "signedOut" || (response.status === 204 ? body === "" : body.includes("event: ready")) ? undefined : `not a live stream: ${body.slice(0, 80)}`) },
  { route: "GET /metrics", what: "Prometheus metrics (local mode: open; production: METRICS_TOKEN or 404)", request: get("/metrics"), expect: ALL("200") },
  // Better Auth's JSON API: every endpoint the configuration turns on.
  { route: "GET /api/auth/get-session", what: "own session (a visitor's: null)", request: get("/api/auth/get-session"), expect: ALL("200"), check: ({ w, role, body }) => ((role === "signedOut" ? body === "null" : jsonOf(body)?.user?.id === w.users[role].id) ? undefined : `not own session: ${body.slice(0, 80)}`) },
  { route: "POST /api/auth/get-session", what: "own session by POST (off without deferSessionRefresh)", request: () => api("/get-session"), expect: ALL("405") },
  { route: "POST /api/auth/sign-out", what: "sign out", request: () => api("/sign-out", {}, { fresh: true }), expect: SIGNED_IN("200*", "200"), writes: ["sessions"], check: signedOutAfter },
  { route: "POST /api/auth/sign-in/email", what: "sign in to the owner's account with a wrong password", request: (w) => api("/sign-in/email", { email: w.users.owningClient.email, password: "not-the-password" }), expect: ALL("401") },
  { route: "POST /api/auth/sign-in/email", what: "sign in to the owner's account with its password", request: (w) => api("/sign-in/email", { email: w.users.owningClient.email, password: TEST_PASSWORD }), expect: ALL("200*"), writes: ["sessions"], check: ({ w, body }) => (jsonOf(body)?.user?.id === w.users.owningClient.id ? undefined : `not the owner's session: ${body.slice(0, 80)}`) },
  { route: "POST /api/auth/sign-in/social", what: "start a Google sign-in", request: () => api("/sign-in/social", { provider: "google", callbackURL: "/my-gigs" }), expect: ALL("200*"), writes: ["verifications"] },
  { route: "POST /api/auth/sign-in/social", what: "start a Google sign-in that returns to another site", request: () => api("/sign-in/social", { provider: "google", callbackURL: EVIL }), expect: ALL("403") },
  { route: "GET /api/auth/callback/:id", what: "Google's callback with a forged code and state", request: get("/api/auth/callback/google?code=forged&state=forged"), expect: ALL("302 /auth") },
  { route: "POST /api/auth/callback/:id", what: "Google's callback by form_post with a forged code and state", request: () => api("/callback/google", { code: "forged", state: "forged" }), expect: ALL("302 /api") },
  { route: "POST /api/auth/sign-up/email", what: "sign up, 18+ confirmed, claiming a confirmed address", request: () => api("/sign-up/email", { name: "New Person", email: newEmail(), password: TEST_PASSWORD, userType: "digger", ageConfirmed: true, emailVerified: true }), expect: ALL("200*"), writes: ["users", "accounts", "sessions", "emails"], check: async ({ w, request }) => { const user = await userWithEmail(w, String(request.json!.email)); return user?.userType === "digger" && user.emailVerified === false ? undefined : `made ${JSON.stringify(user)}`; } },
  { route: "POST /api/auth/sign-up/email", what: "sign up without ageConfirmed: true", request: () => api("/sign-up/email", { name: "New Person", email: newEmail(), password: TEST_PASSWORD, userType: "consumer" }), expect: ALL("400"), check: saying("Please confirm you are 18 or older") },
  { route: "POST /api/auth/sign-up/email", what: "sign up as an administrator (userType admin)", request: () => api("/sign-up/email", { name: "New Person", email: newEmail(), password: TEST_PASSWORD, userType: "admin", ageConfirmed: true }), expect: ALL("400") },
  // The owner is e-mailed; the answer is a new account's, without a session.
  // The sixth sign-up for one address within the hour is refused (signUpPerEmail: 5 an hour).
  { route: "POST /api/auth/sign-up/email", what: "sign up with the owner's address (in capitals)", request: (w) => api("/sign-up/email", { name: "Mallory Taker", email: w.users.owningClient.email.toUpperCase(), password: "mallorys-password", userType: "consumer", ageConfirmed: true }), expect: ["200*", "200*", "200*", "200*", "200*", "429"], writes: ["emails"], check: likeANewAccount },
  { route: "POST /api/auth/request-password-reset", what: "a reset e-mail for own address (a visitor's: an unknown one)", request: (w, role) => api("/request-password-reset", { email: role === "signedOut" ? nobody() : w.users[role].email, redirectTo: "/reset-password" }), expect: SIGNED_IN("200*", "200"), writes: ["verifications", "emails"] },
  { route: "POST /api/auth/request-password-reset", what: "a reset e-mail whose link returns to another site", request: () => api("/request-password-reset", { email: nobody(), redirectTo: EVIL }), expect: ALL("403") },
  { route: "POST /api/auth/reset-password", what: "reset with a forged token", request: () => api("/reset-password", { token: "forged-token", newPassword: "another-password-123" }), expect: ALL("400") },
  { route: "GET /api/auth/reset-password/:token", what: "the reset link's check with a forged token", request: get("/api/auth/reset-password/forged-token?callbackURL=%2Freset-password"), expect: ALL("302 /reset-password") },
  { route: "GET /api/auth/reset-password/:token", what: "the reset link's check sending to another site", request: get(`/api/auth/reset-password/forged-token?callbackURL=${encodeURIComponent(EVIL)}`), expect: ALL("403") },
  { route: "GET /api/auth/verify-email", what: "confirm an address with a forged token", request: get("/api/auth/verify-email?token=forged.token.here"), expect: ALL("401") },
  { route: "GET /api/auth/verify-email", what: "confirm an address with a forged token, sending to another site", request: get(`/api/auth/verify-email?token=forged.token.here&callbackURL=${encodeURIComponent(EVIL)}`), expect: ALL("400") },
  // Neutral to a visitor (the owner's address is confirmed: no e-mail); a signed-in user may only ask for their own.
  { route: "POST /api/auth/send-verification-email", what: "a confirmation e-mail for the owner's address", request: (w) => api("/send-verification-email", { email: w.users.owningClient.email }), expect: ["200", "400", "400", "400", "400"] },
  { route: "POST /api/auth/change-password", what: "change password with a wrong current password", request: () => api("/change-password", { currentPassword: "not-the-password", newPassword: "another-password-123", revokeOtherSessions: true }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/update-user", what: "own name, saved again", request: (w, role) => api("/update-user", { name: ownName(w, role) }), expect: SIGNED_IN("200*", "401"), writes: ["users"] },
  // Our rules on the body answer before Better Auth's session check: a visitor learns only the rule.
  { route: "POST /api/auth/update-user", what: "own account type (userType)", request: (w, role) => api("/update-user", { name: ownName(w, role), userType: otherType(role) }), expect: ALL("400"), check: saying("The account type cannot be changed") },
  { route: "POST /api/auth/update-user", what: "an empty name", request: () => api("/update-user", { name: " \u200B " }), expect: ALL("400"), check: saying("Full name is required") },
  { route: "POST /api/auth/update-user", what: "a name over 100 characters", request: () => api("/update-user", { name: "M".repeat(101) }), expect: ALL("400"), check: saying("Full name must be at most 100 characters") },
  // As on the sign-up form, line breaks and direction marks become spaces: the stored name is the name as shown.
  { route: "POST /api/auth/update-user", what: "own name with a line break", request: (w, role) => api("/update-user", { name: ownName(w, role).replace(" ", "\r\n") }), expect: SIGNED_IN("200*", "401"), writes: ["users"], check: storedOwnName },
  { route: "POST /api/auth/update-user", what: "own name with a right-to-left override", request: (w, role) => api("/update-user", { name: `\u202E${ownName(w, role)}\u202C` }), expect: SIGNED_IN("200*", "401"), writes: ["users"], check: storedOwnName },
  { route: "POST /api/auth/update-user", what: "own e-mail address", request: () => api("/update-user", { email: newEmail() }), expect: SIGNED_IN("400", "401") },
  { route: "GET /api/auth/list-sessions", what: "own sessions", request: get("/api/auth/list-sessions"), expect: SIGNED_IN("200", "401"), check: ({ w, role, body }) => { const sessions = jsonOf<Array<{ userId: string }>>(body); return role === "signedOut" || (sessions?.length && sessions.every((s) => s.userId === w.users[role].id)) ? undefined : `listed ${body.slice(0, 120)}`; } },
  // Better Auth answers 200 to another user's token, and revokes nothing.
  { route: "POST /api/auth/revoke-session", what: "revoke one of the owner's sessions by its token", request: async (w) => api("/revoke-session", { token: sessionTokenOf(await w.freshClient("owningClient")) }), expect: ["401", "200*", "200", "200", "200"], writes: ["sessions", "push_subscriptions"], check: async ({ w, role, request }) => (role === "owningClient" && (await sessionExists(w, String(request.json!.token))) ? "the owner's session is still there" : undefined) },
  { route: "POST /api/auth/revoke-other-sessions", what: "revoke own other sessions", request: () => api("/revoke-other-sessions"), expect: SIGNED_IN("200*", "401"), writes: ["sessions", "push_subscriptions", "users"], check: async ({ role, client }) => (role !== "signedOut" && (await (await client.get("/api/auth/get-session")).text()) === "null" ? "ended its own session too" : undefined) },
  { route: "POST /api/auth/revoke-sessions", what: "revoke all own sessions", request: () => api("/revoke-sessions", {}, { fresh: true }), expect: SIGNED_IN("200*", "401"), writes: ["sessions", "push_subscriptions", "users"], endsAllSessions: true, check: signedOutAfter },
  { route: "POST /api/auth/two-factor/enable", what: "turn on two-factor with a wrong password", request: () => api("/two-factor/enable", { password: "not-the-password" }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/two-factor/get-totp-uri", what: "the TOTP secret, two-factor off", request: () => api("/two-factor/get-totp-uri", { password: TEST_PASSWORD }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/two-factor/verify-totp", what: "a TOTP code with no sign-in waiting for one, two-factor off", request: () => api("/two-factor/verify-totp", { code: "123456" }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/two-factor/verify-backup-code", what: "a backup code, two-factor off", request: () => api("/two-factor/verify-backup-code", { code: "abcde-fghij" }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/two-factor/generate-backup-codes", what: "new backup codes, two-factor off", request: () => api("/two-factor/generate-backup-codes", { password: TEST_PASSWORD }), expect: SIGNED_IN("400", "401") },
  { route: "POST /api/auth/two-factor/disable", what: "turn off two-factor with a wrong password", request: () => api("/two-factor/disable", { password: "not-the-password" }), expect: SIGNED_IN("400", "401") },
  { route: "GET /api/auth/ok", what: "Better Auth's health check", request: get("/api/auth/ok"), expect: ALL("200") },
  // Sent to /auth with the code alone, our own message for it (issue 30, finding 12).
  { route: "GET /api/auth/error", what: "Better Auth's error page with markup in its query", request: get(`/api/auth/error?error=${encodeURIComponent("<script>alert(1)</script>")}&error_description=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`), expect: ALL("302 /auth"), check: ({ body }) => (body.includes("<script>alert(1)") || body.includes("<img src=x") ? "the markup is in the page" : undefined) },
  { route: "POST /api/webhooks/stripe", what: "an unsigned webhook", request: () => ({ path: "/api/webhooks/stripe", method: "POST" }), expect: ALL("400") },
  { route: "GET /uploads/*", what: "an upload that is not there", request: get("/uploads/diggers/none/missing.jpg"), expect: ALL("404") },
  // Last: saving a profile replaces its references. The other digger may not take the owner's handle.
  { route: "routes/digger-registration:action", what: "upload proof of a credential for one's own profile", request: () => ({ path: "/digger-registration?proof", form: { credential: "bonded", credentialNumber: "BOND-5511", credentialExpiry: NEXT_YEAR }, files: [{ field: "credentialDocument", file: proofPdf() }] }), expect: ["302 /auth", "302 /", "302 /", "200*", "200*", "302 /"], writes: ["credential_documents"] },
  { route: "routes/digger-registration:action", what: "save own digger profile (with the owner's handle)", request: (w) => ({ path: "/digger-registration", form: { handle: w.users.owningDigger.handle, businessName: "Renamed Business LLC", phone: "(555) 010-2222", location: "Austin, TX", profession: "Electrician", bio: "Wiring.", availability: "Weekdays", hourlyRateMin: "60", hourlyRateMax: "95", yearsExperience: "5", isInsured: "no", isBonded: "no", isLicensed: "no", categoryIds: [w.gig.categoryId], "references.0.name": "Rita Reference", "references.0.email": "rita@example.org", acceptTerms: "on" } }), expect: ["302 /auth", "302 /", "302 /", "302* /digger", "409"] },
];

/** A live stream never ends: its first chunk is read, then it is closed as a browser leaving the page would. */
async function bodyOf(response: Response): Promise<string> {
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return response.text();
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

function outcome(response: Response): string {
  if (response.status < 300 || response.status >= 400) return String(response.status);
  const to = location(response) ?? "";
  return `${response.status} /${to.startsWith("/") ? to.split(/[/?]/)[1] : to}`;
}

async function send(client: SessionClient, w: World, request: Request): Promise<Response> {
  if (request.json) {
    return client.send(request.path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: w.app.config.publicUrl },
      body: JSON.stringify(request.json),
    });
  }
  if (request.files) {
    const body = new FormData();
    for (const [key, value] of Object.entries(request.form ?? {})) for (const v of [value].flat()) body.append(key, v);
    for (const { field, file } of request.files) body.append(field, file);
    return client.send(request.path, { method: "POST", headers: { origin: w.app.config.publicUrl }, body });
  }
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

let security: SecurityWorld<true>;
let app: TestApp;
let world: World;
// A sign-in provider, as in production: its endpoints answer as they would there.
beforeAll(async () => ({ app, world } = security = await openSecurityWorld({ signInProvider: true })), WORLD_SETUP_MS);
afterAll(() => security.close());

describe("authorization matrix", () => {
  it("has a row for every loader and action of the server build, every Hono route and every Better Auth endpoint", async () => {
    const build = await loadServerBuild();
    const needed = new Set<string>();
    for (const [id, route] of Object.entries(build.routes)) {
      if (route?.module.loader) needed.add(`${id}:loader`);
      if (route?.module.action) needed.add(`${id}:action`);
    }
    const hono = createApp({ services: app.services, build });
    const auth = app.services.auth;
    for (const r of hono.routes) {
      // Middleware takes (c, next); the React Router catch-all is covered by the build's routes.
      if (r.handler.length >= 2 || r.path === "/*") continue;
      // Better Auth's router: each endpoint it serves by this method, as the configuration has it.
      if (r.path === `${authBasePath(auth)}/*`) for (const route of enabledAuthRoutes(auth).filter((e) => e.startsWith(`${r.method} `))) needed.add(route);
      else needed.add(`${r.method} ${r.path}`);
    }
    const rows = new Set(TABLE.map((row) => row.route));
    expect([...needed].filter((route) => !rows.has(route)), "routes with no row in the matrix").toEqual([]);
    expect([...rows].filter((route) => !needed.has(route)), "rows for routes that no longer exist").toEqual([]);
  });

  // disabledPaths is matched against the exact path: spellings a router might read as the same must not slip by.
  it("answers 404 to every Better Auth path the configuration turns off, however it is spelled", async () => {
    const base = authBasePath(app.services.auth);
    const disabled = disabledAuthPaths(app.services.auth);
    expect(disabled.length, "endpoints the site does not use are turned off").toBeGreaterThan(0);
    const open: string[] = [];
    for (const path of disabled) {
      const spellings = [path, `${path}/`, `/${path}`, `/%${path.charCodeAt(1).toString(16)}${path.slice(2)}`, path.toUpperCase()];
      for (const spelling of spellings) {
        for (const method of ["GET", "POST"] as const) {
          const response = await send(world.clientCopy("owningClient"), world, method === "GET" ? { path: `${base}${spelling}` } : api(spelling));
          if (response.status !== 404) open.push(`${method} ${base}${spelling}: ${response.status}`);
        }
      }
    }
    expect(open).toEqual([]);
  });

  // One test per row, in the table's order (the last row changes the owning digger's profile).
  it.each(TABLE.map((row) => [`${row.route}: ${row.what}`, row] as const))("%s", async (_name, row) => {
    const mismatches: string[] = [];
    const changed: string[] = [];
    for (const [index, role] of ROLES.entries()) {
      const expected = (row.expect[index] ?? row.expect[2])!;
      const request = await row.request(world, role);
      const client = request.fresh ? await world.freshClient(role) : world.clientCopy(role);
      const before = await fingerprint(app);
      const response = await send(client, world, request);
      const after = await fingerprint(app);
      const body = await bodyOf(response);
      const actual = outcome(response);
      if (actual !== expected.replace("*", "")) {
        const said = body.match(/(?:error|message)[\\"]*[,:][\\"]*([^"\\]{0,120})/)?.[1] ?? "";
        mismatches.push(`as ${role}: expected ${expected}, got ${actual} ${said}`);
      }
      const problem = await row.check?.({ w: world, role, request, response, body, client });
      if (problem) mismatches.push(`as ${role}: ${problem}`);
      const allowed: readonly GuardedTable[] = expected.includes("*") ? (row.writes ?? GUARDED_TABLES) : [];
      const tables = GUARDED_TABLES.filter((t) => before[t] !== after[t] && !allowed.includes(t));
      if (tables.length > 0) changed.push(`as ${role} changed ${tables.join(", ")}`);
      if (row.endsAllSessions) await world.signInAgain(role);
    }
    expect(mismatches).toEqual([]);
    expect(changed).toEqual([]);
  });

  it(`has ${TABLE.length} rows x ${ROLES.length} roles`, () => {
    console.info(`authorization matrix: ${TABLE.length} rows x ${ROLES.length} roles = ${TABLE.length * ROLES.length} cells`);
    expect(TABLE.every((row) => row.expect.length === ROLES.length || row.expect.length === ROLES.length - 1)).toBe(true);
  });
});
