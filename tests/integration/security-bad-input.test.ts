/**
 * Bad input, property-based (issue 10): every form action of the server build, every
 * state-changing Hono route and every endpoint of Better Auth's JSON API that the
 * configuration turns on (issue 16) gets generated hostile values, sent by a role that may use
 * the form: wrong types (repeated keys, bracket and dotted keys), 100k-character strings, unusual
 * unicode (right-to-left override, zero-width, astral, lone surrogates as raw invalid UTF-8),
 * SQL and HTML payloads, negative, huge and non-finite numbers, and malformed route ids.
 * Every answer must be below 500, no request may log an error, and no HTML answer may carry
 * the markup sent; an entry marked read-only must change no guarded table. A route with an
 * action, or an enabled Better Auth endpoint, with no entry here fails the test. Then stored
 * text is checked to render inert on every page that shows it.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { QUOTE_MAX_CENTS, QUOTE_MESSAGES } from "../../core/quotes.ts";
import { quotes, reviews } from "../../server/db/schema.ts";
import { signUpAs, TEST_PASSWORD } from "../support/accounts.ts";
import { loadServerBuild, type TestApp } from "../support/app.ts";
import { decodeHtml } from "../support/leads.ts";
import { location, SessionClient } from "../support/session-client.ts";
import { validGigForm } from "../support/forms.ts";
import { authBasePath, enabledAuthRoutes, sessionTokenOf } from "../security/auth-endpoints.ts";
import { browserSubscription, SSRF_PUSH_ENDPOINTS, subscriptionForm } from "../support/push-service.ts";
import { openSecurityWorld, type SecurityWorld, WORLD_SETUP_MS } from "../security/fixture.ts";
import { ageVisitProposals, freshVisit, freshVisitProposal, worldPastVisit } from "../security/visits.ts";
import { CLIENT_REVIEW_FORM, freshClientReview, sharedReviewWindow } from "../security/client-reviews.ts";
import { fingerprint, GUARDED_TABLES, type Role, type World } from "../security/world.ts";

/** A date a year from now: an expiry or "verified until" the forms accept. */
const NEXT_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 25);

// ---- Hostile values -------------------------------------------------------------------

/** A value that cannot be written as UTF-8: sent as raw bytes in the body. */
class RawBytes {
  constructor(readonly percentEncoded: string) {}
}
type Hostile = string | RawBytes;

const PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; SELECT pg_sleep(5) --",
  "%' OR 1=1 --",
  "\\",
  "${{7*7}}",
  "{{constructor.constructor('return 1')()}}",
  "__proto__",
  "constructor",
  "../../../../etc/passwd",
  "\u0000",
  "\u202Eevil.exe\u202C",
  "\u200B\u200C\u200D\uFEFF",
  "\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627",
  "\u{1F4A9}\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u{10FFFF}",
  "Z\u0351\u036B\u0343\u036A\u0302\u036B\u033D\u034F\u0334\u0319\u0324\u031E\u0349\u035A\u032F\u031E\u0320\u034D",
  "",
  " ",
  "\r\n\t",
  "-1",
  "0",
  "-0",
  "-999999999999",
  "99999999999999999999999",
  "1e308",
  "-1e308",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x7fffffff",
  "1.5",
  // Other spellings of a whole number, which a number conversion takes (issue 30: a rating of "1e0").
  "1e0",
  "0x5",
  " 5 ",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  '{"$gt":""}',
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "a@b",
  "@example.com",
];
const RAW = [
  new RawBytes("%ED%A0%80"), // a lone high surrogate as UTF-8
  new RawBytes("%ED%B0%80abc"), // a lone low surrogate
  new RawBytes("%FF%FE%FD"), // bytes that are never UTF-8
  new RawBytes("%C0%AF"), // an overlong slash
  new RawBytes("%"), // a broken escape
  new RawBytes("%zz"),
];

const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  { arbitrary: fc.constantFrom(...PAYLOADS), weight: 6 },
  { arbitrary: fc.constantFrom(...RAW), weight: 2 },
  { arbitrary: fc.constantFrom(...PAYLOADS).map((p) => (p || "x").repeat(Math.ceil(100_000 / (p.length || 1))).slice(0, 100_000)), weight: 1 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String), weight: 1 },
  { arbitrary: fc.uuid().map((u) => u), weight: 1 },
);

/** One change to a valid form: replace a field, repeat it (an array), or add a bracket key (an object). */
const mutation = (fields: string[]) =>
  fc.record({
    field: fc.constantFrom(...fields, "unexpectedField"),
    shape: fc.constantFrom("replace", "repeat", "object", "drop"),
    value: hostile,
  });
type Mutation = { field: string; shape: "replace" | "repeat" | "object" | "drop"; value: Hostile };

type Form = Array<[string, Hostile]>;

function mutate(base: Record<string, string | string[]>, mutations: Mutation[]): Form {
  let form: Form = Object.entries(base).flatMap(([k, v]) => [v].flat().map((x) => [k, x] as [string, Hostile]));
  for (const m of mutations) {
    if (m.shape === "drop") form = form.filter(([k]) => k !== m.field);
    else if (m.shape === "replace") form = [...form.filter(([k]) => k !== m.field), [m.field, m.value]];
    else if (m.shape === "repeat") form = [...form, [m.field, m.value], [m.field, m.value]];
    else form = [...form, [`${m.field}[a]`, m.value], [`${m.field}.b`, m.value]];
  }
  return form;
}

function encodePart(value: Hostile): string {
  if (value instanceof RawBytes) return value.percentEncoded;
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate: send it as the invalid UTF-8 a careless client would.
    return [...value].map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return "%ED%A0%80";
      }
    }).join("");
  }
}
const urlEncoded = (form: Form) => form.map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`).join("&");
function multipart(form: Form): FormData {
  const body = new FormData();
  for (const [k, v] of form) body.append(k, v instanceof RawBytes ? decodeURIComponentLoose(v.percentEncoded) : v);
  return body;
}
const decodeURIComponentLoose = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
/** A route parameter: encoded so it stays one path segment. */
const param = (value: Hostile) => (value instanceof RawBytes ? value.percentEncoded : encodePart(value)) || "%20";

// ---- Every action, with a valid form and who may use it -------------------------------

interface Target {
  /** The server build's route id with ":action", or a Hono route or Better Auth endpoint "METHOD /path". */
  route: string;
  role: Role;
  /** A newly signed-in (or a new visitor's) client per request. */
  fresh?: boolean;
  /** Default: the path of a route "METHOD /path". */
  path?: (w: World, id: Hostile | null) => string | Promise<string>;
  /** A valid form; the generated changes are made to it. */
  form: (w: World) => Record<string, string | string[]> | Promise<Record<string, string | string[]>>;
  /** A JSON body instead of a form (Better Auth). */
  json?: boolean;
  /** The form goes in the query string of a GET instead. */
  query?: boolean;
  /** No generated request may change a guarded table. */
  readOnly?: boolean;
  /** Route parameters are fuzzed as well. */
  hasParam?: boolean;
  /** Messages a refusal may show: a 4xx page must contain one of them. */
  messages?: RegExp;
}

const gigForm = (w: World) => validGigForm(w.gig.categoryId);
const nobody = () => `nobody-${randomUUID()}@example.com`;
/** A session of the owning client, made once: others send its token. */
let ownersSession: Promise<string> | undefined;
const ownersSessionToken = (w: World) => (ownersSession ??= w.freshClient("owningClient").then(sessionTokenOf));
const profileForm = (w: World, handle: string) => ({
  handle,
  businessName: "Fuzzed Business LLC",
  phone: "(555) 010-2222",
  location: "Austin, TX",
  profession: "Electrician",
  bio: "Wiring.",
  availability: "Weekdays",
  hourlyRateMin: "60",
  hourlyRateMax: "95",
  yearsExperience: "5",
  isInsured: "no",
  isBonded: "no",
  isLicensed: "no",
  portfolioUrl: "https://example.com",
  categoryIds: w.gig.categoryId,
  "references.0.name": "Rita Reference",
  "references.0.email": "rita@example.org",
  "references.0.phone": "(555) 010-3333",
  acceptTerms: "on",
});

/** One new digger for the Verified badge's requests (the world's own diggers must stay unverified). */
let badgeDigger: ReturnType<World["freshDigger"]> | undefined;
/** One proof each for the Approve and Reject requests: once decided, the rest are refused as decided. */
let approvedProof: ReturnType<World["freshProof"]> | undefined;
let rejectedProof: ReturnType<World["freshProof"]> | undefined;
/** The quote actions' refusals (issue 33), and the message box's when a fuzzed intent falls through to Send. */
const QUOTE_REFUSALS = /Please|amount|Amounts|Hours|low end|include|at most|line item|Line items|add up|date|Valid until|open quote|no longer open|already accepted|Only the|refunded|not found|Quote not found|reason|too fast|could not be sent|Invalid|expected|too large|Invalid character/i;
/** The visit actions' refusals (issue 50, core/visits.ts), and the message box's when a fuzzed intent falls through to Send. */
const VISIT_REFUSALS =
  /Please|at most|clocks change|hours from now|within 60 days|different|reason|no longer open|not found|Only the|refunded|cancelled|has opened|has closed|within 7 days|already said|other party|suspended|cannot book|Reload|too fast|could not be sent|Invalid|expected|too large|Invalid character|Unknown action/i;
const VISIT_DAY = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const threadPath = (w: World, id: Hostile | null) => `/messages/${id === null ? w.thread.id : param(id)}`;
const PROOF_MESSAGES = /Choose|Enter|expiry|number|document|PDF|10 MB|Unknown action|too large|Invalid character/i;

const TARGETS: Target[] = [
  { route: "routes/auth:action", role: "signedOut", fresh: true, path: () => "/auth", form: () => ({ intent: "sign-in", email: "nobody@example.com", password: "not-the-password" }), messages: /Invalid|required|valid|Too many|Unknown|must|password|email/i },
  { route: "routes/auth:action", role: "signedOut", fresh: true, path: () => "/auth?redirect=%2Fmy-gigs", form: () => ({ intent: "sign-up", fullName: "Fuzz Person", email: `fuzz-${randomUUID()}@example.com`, password: "correct-horse", userType: "consumer", ageConfirmed: "on" }) },
  { route: "routes/auth:action", role: "signedOut", fresh: true, path: () => "/auth", form: () => ({ intent: "forgot-password", email: "nobody@example.com" }) },
  { route: "routes/auth:action", role: "signedOut", fresh: true, path: () => "/auth", form: () => ({ intent: "verify-totp", code: "123456" }) },
  { route: "routes/post-gig:action", role: "otherClient", path: () => "/post-gig", form: gigForm },
  { route: "routes/digger-registration:action", role: "otherDigger", path: () => "/digger-registration", form: (w) => profileForm(w, w.users.otherDigger.handle) },
  { route: "routes/digger:action", role: "otherClient", hasParam: true, path: (w, id) => `/digger/${id === null ? w.users.owningDigger.diggerId : param(id)}`, form: (w) => ({ referenceId: w.reference.id }) },
  { route: "routes/gig:action", role: "otherDigger", hasParam: true, path: (w, id) => `/gig/${id === null ? w.gig.id : param(id)}`, form: () => ({ intent: "purchase" }) },
  { route: "routes/my-leads:action", role: "owningDigger", path: () => "/my-leads", form: async (w) => ({ purchaseId: (await w.freshPurchase()).purchase.id, issueType: "mistake", description: "The client posted this by mistake." }) },
  // The digger's review of a lead's client (issue 51): one lead with a window; a saved review is edited by the next request.
  { route: "routes/my-leads.$purchaseId.review:action", role: "owningDigger", hasParam: true, path: async (w, id) => `/my-leads/${id === null ? (await sharedReviewWindow(w)).id : param(id)}/review`, form: () => CLIENT_REVIEW_FORM, messages: /rating|Please|review|at most|yes or no|not found|own leads|14 days|refunded|too large|Invalid character/i },
  { route: "routes/my-gigs:action", role: "owningClient", path: () => "/my-gigs", form: async (w) => ({ intent: "set-status", status: "closed", gigId: (await w.freshGig()).id }) },
  { route: "routes/my-gigs.$gigId.issues:action", role: "owningClient", hasParam: true, path: (w, id) => `/my-gigs/${id === null ? w.gig.id : param(id)}/issues`, form: (w) => ({ decision: "approve", issueId: w.issue.id }) },
  { route: "routes/my-gigs.$gigId.edit:action", role: "owningClient", hasParam: true, path: async (w, id) => `/my-gigs/${id === null ? (await w.freshGig()).id : param(id)}/edit`, form: (w) => { const { acceptTerms: _, ...form } = gigForm(w); return form; }, messages: /must|Please|cannot|Title|Description|Location|Timeline|Budget|budget|phone|Gig not found|Someone bought|too large|Invalid character/ },
  { route: "routes/my-gigs.$gigId.edit:action", role: "owningClient", hasParam: true, path: (w, id) => `/my-gigs/${id === null ? w.gig.id : param(id)}/edit`, form: () => ({ timeline: "Next month", contactPhone: "303 555 0100" }), messages: /must|Please|cannot|Timeline|phone|Gig not found|Someone bought|too large|Invalid character/ },
  { route: "routes/my-gigs.$gigId.diggers:action", role: "owningClient", hasParam: true, path: (w, id) => `/my-gigs/${id === null ? w.gig.id : param(id)}/diggers`, form: (w) => ({ intent: "hire", diggerId: w.users.owningDigger.diggerId }) },
  { route: "routes/my-gigs.$gigId.diggers:action", role: "owningClient", hasParam: true, path: (w, id) => `/my-gigs/${id === null ? w.gig.id : param(id)}/diggers`, form: (w) => ({ intent: "edit-review", diggerId: w.users.owningDigger.diggerId, rating: "4", body: "Solid work on the deck, finished on time." }), messages: /rating|Review|review|digger|gig|not found|Unknown|too large|Invalid character/ },
  { route: "routes/digger:action", role: "owningDigger", hasParam: true, path: (w, id) => `/digger/${id === null ? w.users.owningDigger.diggerId : param(id)}`, form: (w) => ({ intent: "reply", reviewId: w.review.id, reply: "Thank you for the kind words!" }), messages: /Reply|reply|review|sign in|too large|Invalid character/ },
  { route: "routes/contact:action", role: "signedOut", fresh: true, path: () => "/contact", form: () => ({ name: "Grace Hopper", email: "grace@example.com", subject: "Question", message: "How do refunds work for a lead that was posted by mistake?" }) },
  // Local mode only (issue 48): an id no purchase or thread has, so that nothing moves.
  { route: "routes/dev-clock:action", role: "signedOut", path: () => "/dev/clock", form: () => ({ id: randomUUID() }), readOnly: true },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: () => ({ intent: "change-password", currentPassword: "not-the-password", newPassword: "another-password-123" }) },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: () => ({ intent: "delete-account", confirmEmail: "someone-else@example.com" }) },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: () => ({ intent: "reach", push: "shown", "email.messages": "on", "email.quotes": "on", "push.messages": "on" }), messages: /Choose on or off|Unknown|too large|Invalid character/i },
  // Off: a fuzzed save never sets alerts going in the background.
  { route: "routes/account:action", role: "otherDigger", path: () => "/account", form: (w) => ({ intent: "lead-alerts", frequency: "off", categoryIds: w.gig.categoryId, keywords: "deck, cedar", location: "Austin", maxLeadPrice: "80" }), messages: /lead|categor|keyword|Location|price|Unknown|choose|must|too large|Invalid character/i },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: () => subscriptionForm(browserSubscription(`https://push.example.test/send/${randomUUID()}`)), messages: /subscription|at most 10 devices|Unknown|too large|Invalid character/i },
  // Issue 45, finding 1: an endpoint at anything but a vendor's push service, however the rest is fuzzed, keeps nothing.
  { route: "routes/account:action", role: "otherClient", readOnly: true, path: () => "/account", form: () => subscriptionForm(browserSubscription(`${SSRF_PUSH_ENDPOINTS[Math.floor(Math.random() * SSRF_PUSH_ENDPOINTS.length)]}${randomUUID()}`)), messages: /subscription|push service is not supported|Unknown|too large|Invalid character/i },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: async (w) => ({ intent: "push-remove", deviceId: (await w.freshPushDevice("otherClient")).id }), messages: /not on your list|Unknown|too large|Invalid character/i },
  { route: "routes/unsubscribe:action", role: "signedOut", path: () => "/unsubscribe", form: () => ({ token: "forged.token" }) },
  { route: "routes/unsubscribe:action", role: "signedOut", path: () => "/unsubscribe?list=messages", form: () => ({ token: "forged.token", list: "messages" }) },
  { route: "routes/unsubscribe:action", role: "signedOut", path: () => "/unsubscribe?list=lead-alerts", form: () => ({ token: "forged.token", list: "lead-alerts" }) },
  // A visit's signed link (issue 50): a forged token shaped like a real one, and a truncated one; nothing changes.
  { route: "routes/visit-reply:action", role: "signedOut", path: () => "/visit-reply", form: () => ({ token: `${randomUUID()}.0.${"A".repeat(43)}`, answer: "confirm" }), readOnly: true, messages: /not valid|too large|Invalid character/i },
  { route: "routes/visit-reply:action", role: "otherClient", path: () => "/visit-reply?answer=change", form: () => ({ token: `${randomUUID()}.0.abc`, answer: "change" }), readOnly: true, messages: /not valid|too large|Invalid character/i },
  { route: "routes/reference-requests:action", role: "owningDigger", path: () => "/reference-requests", form: async (w) => ({ requestId: (await w.freshReferenceRequest()).id, decision: "approve" }) },
  { route: "routes/ops.users.$userId:action", role: "operator", hasParam: true, path: async (w, id) => `/ops/users/${id === null ? (await w.freshClientUser()).id : param(id)}`, form: () => ({ intent: "suspend", reason: "Fraudulent gigs" }), messages: /reason|Unknown action|Page not found|suspended|Operators|own account|deleted|too large|Invalid character/i },
  { route: "routes/ops.verification:action", role: "operator", path: () => "/ops/verification", form: async (w) => ({ intent: "grant", diggerId: (await (badgeDigger ??= w.freshDigger())).diggerId, reason: "Identity checked on a call" }), messages: /reason|Profile not found|already has|does not have|Unknown action|too large|Invalid character/i },
  { route: "routes/ops.verification:action", role: "operator", path: () => "/ops/verification", form: async (w) => ({ intent: "approve-credential", documentId: (await (approvedProof ??= w.freshProof())).id, verifiedUntil: NEXT_YEAR }), messages: /verified-until|date|Proof not found|already been reviewed|Invalid input|too large|Invalid character/i },
  { route: "routes/ops.verification:action", role: "operator", path: () => "/ops/verification", form: async (w) => ({ intent: "reject-credential", documentId: (await (rejectedProof ??= w.freshProof())).id, reason: "The policy number is unreadable" }), messages: /reason|Proof not found|already been reviewed|Invalid input|too large|Invalid character/i },
  // The proof's text fields (the file, sent as multipart, has its own tests: credential-proofs.test.ts).
  { route: "routes/digger-registration:action", role: "otherDigger", path: () => "/digger-registration?proof", form: () => ({ credential: "licensed", credentialNumber: "LIC-42", credentialExpiry: NEXT_YEAR }), messages: PROOF_MESSAGES },
  { route: "routes/ops.gigs:action", role: "operator", path: () => "/ops/gigs", form: async (w) => ({ intent: "hide", gigId: (await w.freshGig()).id, reason: "Spam listing" }), messages: /reason|Gig not found|already hidden|not hidden|Invalid|too large|Invalid character/i },
  { route: "routes/ops.reviews:action", role: "operator", path: () => "/ops/reviews", form: async (w) => ({ intent: "keep", reviewId: (await w.freshReportedReview()).id }), messages: /Review not found|no open reports|Unknown action|too large|Invalid character/i },
  { route: "routes/ops.payments:action", role: "operator", path: () => "/ops/payments", form: async (w) => ({ refundId: (await w.freshPendingRefund()).id }), messages: /Refund not found|already done|too large|Invalid character/i },
  { route: "routes/ops.payments:action", role: "operator", path: () => "/ops/payments", form: async (w) => ({ intent: "decide-issue", issueId: (await w.freshEscalatedIssue()).id, decision: "reject" }), messages: /Issue not found|Failed to update issue|already been resolved|deadline has passed|Refund not found|too large|Invalid character/i },
  { route: "routes/ops.payments:action", role: "operator", path: () => "/ops/payments", form: async (w) => ({ intent: "decide-fake-request", issueId: (await w.freshFakeRequest()).id, decision: "reject" }), messages: /Issue not found|Failed to update issue|already been resolved|Refund not found|too large|Invalid character/i },
  { route: "routes/ops.payments:action", role: "operator", path: () => "/ops/payments", form: async (w) => ({ intent: "decide-guarantee", purchaseId: (await w.freshEscalatedGuarantee()).id, decision: "reject" }), messages: /Reply guarantee refund not found|already been decided|Failed to update issue|Refund not found|Issue not found|too large|Invalid character/i },
  { route: "routes/digger:action", role: "otherClient", hasParam: true, path: (w, id) => `/digger/${id === null ? w.users.owningDigger.diggerId : param(id)}`, form: async (w) => ({ intent: "report-review", reviewId: (await w.freshReview()).id, reason: "This review is about another business." }), messages: /Please tell us|reason|Review not found|already reported|reference|sign in|too large|Invalid character/i },
  // Issue 51: reports of a digger's review of a client (the gig page, the client's /account) and their decision in the Reviews queue.
  { route: "routes/gig:action", role: "otherDigger", hasParam: true, path: (w, id) => `/gig/${id === null ? w.gig.id : param(id)}`, form: async (w) => ({ intent: "report-review", reviewId: (await freshClientReview(w)).id, reason: "This review is about another client." }), messages: /Please tell us|reason|Review not found|already reported|Gig not found|Unknown|sign in|confirm|too large|Invalid character/i },
  { route: "routes/account:action", role: "owningClient", path: () => "/account", form: async (w) => ({ intent: "report-review", reviewId: (await freshClientReview(w)).id, reason: "This digger never came to the house." }), messages: /Please tell us|reason|Review not found|already reported|Unknown|too large|Invalid character/i },
  { route: "routes/ops.reviews:action", role: "operator", path: () => "/ops/reviews", form: async (w) => ({ intent: "keep", reviewId: (await freshClientReview(w, { reported: true })).id, side: "client" }), messages: /Review not found|no open reports|Unknown action|too large|Invalid character/i },
  // Conversations (issue 32): a party sends to and reports in the world's thread (the sending limit's refusal is an answer too); an operator keeps a report.
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: () => ({ intent: "send", body: "Hello, is the job still open?", js: "1" }), messages: /Please write a message|at most|too fast|not found|could not be sent|too large|Invalid character/i },
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: async (w) => ({ intent: "report", messageId: (await w.freshMessage()).id, reason: "Asks for payment outside the site" }), messages: /Please write a message|Please tell us|reason|at most|too fast|already reported|not found|could not be sent|too large|Invalid character/i },
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: async (w) => (await w.clearQuotes(), { intent: "send-quote", type: "fixed", amount: "1,200.50", included: "Labour and materials", "lineItems.0.description": "Boards", "lineItems.0.amount": "1200.50", validUntil: NEXT_YEAR }), messages: QUOTE_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: async (w) => ({ intent: "revise-quote", quoteId: (await w.freshQuote()).id, type: "hourly", rate: "80", hours: "12.5", included: "Labour only" }), messages: QUOTE_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: async (w) => ({ intent: "decline-quote", quoteId: (await w.freshQuote()).id, reason: "Too dear for us" }), messages: QUOTE_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: (w, id) => `/messages/${id === null ? w.thread.id : param(id)}`, form: async (w) => ({ intent: "accept-quote", quoteId: (await w.freshQuote()).id }), messages: QUOTE_REFUSALS },
  { route: "routes/ops.messages:action", role: "operator", path: () => "/ops/messages", form: async (w) => ({ intent: "keep", messageId: (await w.freshReportedMessage()).id }), messages: /Message not found|no open reports|Unknown action|too large|Invalid character/i },
  { route: "routes/notifications:action", role: "owningClient", path: () => "/notifications", form: () => ({ intent: "mark-all-read" }) },
  { route: "routes/reset-password:action", role: "signedOut", path: () => "/reset-password", form: () => ({ token: "forged-token", password: "another-password-123" }) },
  { route: "routes/verify-phone:action", role: "owningClient", path: () => "/verify-phone?next=/account", form: () => ({ intent: "verify", code: "123456" }), messages: /code|tries|Unknown|too large|Invalid character/i },
  { route: "routes/verify-phone:action", role: "otherClient", path: () => "/verify-phone?next=/account", form: () => ({ intent: "send-new-code" }), messages: /code|Unknown|too large|Invalid character/i },
  { route: "routes/account:action", role: "otherClient", path: () => "/account", form: () => ({ intent: "phone-save", accountPhone: "(201) 555-0188" }), messages: /phone number|Too many codes|new code|could not send|Unknown|too large|Invalid character/i },
  { route: "routes/verify-email:action", role: "owningClient", path: () => "/verify-email", form: () => ({ token: "forged.token" }) },
  { route: "routes/sign-out:action", role: "signedOut", fresh: true, path: () => "/sign-out", form: () => ({}) },
  { route: "routes/checkout:action", role: "owningDigger", hasParam: true, path: async (w, id) => `/checkout/${id === null ? (await w.freshCheckout()).providerSessionId : param(id)}`, form: () => ({ intent: "pay" }) },
  // Better Auth's JSON API (issue 16): every endpoint the configuration turns on, "true" sent as a boolean.
  { route: "POST /api/auth/sign-in/email", role: "signedOut", fresh: true, json: true, form: () => ({ email: "nobody@example.com", password: "not-the-password" }), readOnly: true },
  { route: "POST /api/auth/sign-up/email", role: "signedOut", fresh: true, json: true, form: () => ({ name: "Fuzz", email: `fuzz-${randomUUID()}@example.com`, password: "correct-horse", userType: "consumer", ageConfirmed: "true" }) },
  { route: "POST /api/auth/sign-in/social", role: "signedOut", json: true, form: () => ({ provider: "google", callbackURL: "/my-gigs" }) },
  { route: "POST /api/auth/callback/:id", role: "signedOut", json: true, hasParam: true, path: (_w, id) => `/api/auth/callback/${id === null ? "google" : param(id)}`, form: () => ({ code: "forged", state: "forged" }), readOnly: true },
  { route: "GET /api/auth/callback/:id", role: "signedOut", query: true, hasParam: true, path: (_w, id) => `/api/auth/callback/${id === null ? "google" : param(id)}`, form: () => ({ code: "forged", state: "forged" }), readOnly: true },
  { route: "GET /api/auth/get-session", role: "otherClient", query: true, form: () => ({ disableCookieCache: "true" }), readOnly: true },
  { route: "POST /api/auth/get-session", role: "otherClient", json: true, form: () => ({}), readOnly: true },
  { route: "POST /api/auth/sign-out", role: "signedOut", json: true, form: () => ({ callbackURL: "/" }), readOnly: true },
  { route: "POST /api/auth/request-password-reset", role: "signedOut", json: true, form: () => ({ email: nobody(), redirectTo: "/reset-password" }), readOnly: true },
  { route: "POST /api/auth/reset-password", role: "signedOut", json: true, form: () => ({ token: "forged-token", newPassword: "another-password-123" }), readOnly: true },
  { route: "GET /api/auth/reset-password/:token", role: "signedOut", query: true, hasParam: true, path: (_w, id) => `/api/auth/reset-password/${id === null ? "forged-token" : param(id)}`, form: () => ({ callbackURL: "/reset-password" }), readOnly: true },
  { route: "GET /api/auth/verify-email", role: "signedOut", query: true, form: () => ({ token: "forged.token.here", callbackURL: "/my-gigs" }), readOnly: true },
  // Signed in: a visitor's answer waits 500 ms by design.
  { route: "POST /api/auth/send-verification-email", role: "otherClient", json: true, form: (w) => ({ email: w.users.otherClient.email, callbackURL: "/my-gigs" }), readOnly: true },
  { route: "POST /api/auth/change-password", role: "otherClient", json: true, form: () => ({ currentPassword: "not-the-password", newPassword: "another-password-123", revokeOtherSessions: "true" }), readOnly: true },
  { route: "POST /api/auth/update-user", role: "otherClient", json: true, form: () => ({ name: "Fuzzed Name" }) },
  { route: "POST /api/auth/update-user", role: "otherDigger", json: true, form: () => ({ userType: "consumer" }), readOnly: true },
  { route: "GET /api/auth/list-sessions", role: "otherClient", query: true, form: () => ({}), readOnly: true },
  { route: "POST /api/auth/revoke-session", role: "otherClient", json: true, form: async (w) => ({ token: await ownersSessionToken(w) }), readOnly: true },
  { route: "POST /api/auth/revoke-sessions", role: "signedOut", json: true, form: () => ({}), readOnly: true },
  { route: "POST /api/auth/revoke-other-sessions", role: "signedOut", json: true, form: () => ({}), readOnly: true },
  { route: "POST /api/auth/two-factor/enable", role: "otherClient", json: true, form: () => ({ password: "not-the-password" }), readOnly: true },
  { route: "POST /api/auth/two-factor/get-totp-uri", role: "otherClient", json: true, form: () => ({ password: TEST_PASSWORD }), readOnly: true },
  { route: "POST /api/auth/two-factor/verify-totp", role: "otherClient", json: true, form: () => ({ code: "123456", trustDevice: "true" }), readOnly: true },
  { route: "POST /api/auth/two-factor/verify-backup-code", role: "otherClient", json: true, form: () => ({ code: "abcde-fghij", trustDevice: "true" }), readOnly: true },
  { route: "POST /api/auth/two-factor/generate-backup-codes", role: "otherClient", json: true, form: () => ({ password: TEST_PASSWORD }), readOnly: true },
  { route: "POST /api/auth/two-factor/disable", role: "otherClient", json: true, form: () => ({ password: "not-the-password" }), readOnly: true },
  { route: "GET /api/auth/ok", role: "signedOut", query: true, form: () => ({}), readOnly: true },
  { route: "GET /api/auth/error", role: "signedOut", query: true, form: () => ({ error: "state_mismatch", error_description: "Please try again" }), readOnly: true },
  { route: "POST /api/webhooks/stripe", role: "signedOut", path: () => "/api/webhooks/stripe", form: () => ({ type: "checkout.session.completed", id: "cs_test_x" }) },
  // Site visits (issue 50): the thread's visit intents, each by the party who may use it.
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: threadPath, form: () => ({ intent: "propose-visit", "options.0.date": VISIT_DAY, "options.0.time": "10:00", "options.0.window": "60", "options.1.date": VISIT_DAY, "options.1.time": "15:30", "options.1.window": "240", note: "I'll bring a ladder" }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: threadPath, form: async (w) => ({ intent: "book-visit", proposalId: (await freshVisitProposal(w)).id, position: "1" }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: threadPath, form: async (w) => ({ intent: "ask-other-times", proposalId: (await freshVisitProposal(w)).id }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: threadPath, form: async (w) => ({ intent: "cancel-visit", visitId: (await freshVisit(w)).id, reason: "My van broke down" }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningDigger", hasParam: true, path: threadPath, form: async (w) => ({ intent: "mark-visit", visitId: (await freshVisit(w, -3)).id, outcome: "client_absent" }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: threadPath, form: async (w) => ({ intent: "confirm-visit", visitId: (await freshVisit(w)).id }), messages: VISIT_REFUSALS },
  { route: "routes/messages.$threadId:action", role: "owningClient", hasParam: true, path: threadPath, form: async (w) => ({ intent: "change-visit", visitId: (await freshVisit(w)).id }), messages: VISIT_REFUSALS },
];

// ---- Sending ---------------------------------------------------------------------------

function jsonBody(form: Form, base: Record<string, string | string[]>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of form) {
    const value = v instanceof RawBytes ? decodeURIComponentLoose(v.percentEncoded) : v;
    // Wrong types: numbers, booleans, arrays and objects where strings belong (the valid
    // form's own values stay strings, but for its booleans).
    const mine = [base[k]].flat().includes(value);
    const typed =
      value === "true" ? true : mine ? value : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value === "[]" ? [] : value === "{}" ? {} : value;
    out[k] = k in out ? [out[k], typed].flat() : typed;
  }
  return JSON.stringify(out);
}

async function send(app: TestApp, client: SessionClient, path: string, form: Form, target: Target, asMultipart: boolean, base: Record<string, string | string[]>) {
  const origin = app.config.publicUrl;
  if (target.query) return client.get(form.length > 0 ? `${path}?${urlEncoded(form)}` : path);
  if (target.json) {
    return client.send(path, { method: "POST", headers: { "content-type": "application/json", origin }, body: jsonBody(form, base) });
  }
  if (target.route === "POST /api/webhooks/stripe") {
    const signature = form.find(([k]) => k === "unexpectedField")?.[1];
    return client.send(path, {
      method: "POST",
      // A header can only carry Latin-1: anything else is sent percent-encoded, as a client must.
      headers: { "content-type": "application/json", "stripe-signature": typeof signature === "string" && /^[\x20-\x7e]*$/.test(signature) ? signature : `t=1,v1=${encodePart(signature ?? "00")}` },
      body: jsonBody(form, base),
    });
  }
  if (asMultipart) return client.send(path, { method: "POST", headers: { origin }, body: multipart(form) });
  return client.send(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: urlEncoded(form),
  });
}

let security: SecurityWorld<true>;
let app: TestApp;
let world: World;
// A sign-in provider, as in production: its endpoints answer as they would there.
beforeAll(async () => ({ app, world } = security = await openSecurityWorld({ signInProvider: true })), WORLD_SETUP_MS);
afterAll(() => security.close());

const errorLogs = () => app.logs.filter((line) => Number(line.level) >= 50);
const tried = new Map<string, number>();

describe("bad input", () => {
  it("has an entry for every action of the server build, every state-changing Hono route and every Better Auth endpoint", async () => {
    const build = await loadServerBuild();
    const needed = new Set<string>();
    for (const [id, route] of Object.entries(build.routes)) if (route?.module.action) needed.add(`${id}:action`);
    const auth = app.services.auth;
    for (const r of createApp({ services: app.services, build }).routes) {
      if (r.handler.length >= 2 || r.path === "/*") continue;
      // Better Auth's router: each endpoint it serves by this method, GET ones too (they take queries).
      if (r.path === `${authBasePath(auth)}/*`) for (const route of enabledAuthRoutes(auth).filter((e) => e.startsWith(`${r.method} `))) needed.add(route);
      else if (r.method !== "GET") needed.add(`${r.method} ${r.path}`);
    }
    const listed = new Set(TARGETS.map((t) => t.route));
    expect([...needed].filter((r) => !listed.has(r)), "actions with no bad-input entry").toEqual([]);
    expect([...listed].filter((r) => !needed.has(r)), "entries for routes that no longer exist").toEqual([]);
  });

  it.each(TARGETS.map((t, i) => [`${t.route} (entry ${i + 1})`, t] as const))(
    "%s answers generated hostile input below 500",
    async (_name, target) => {
      const failures: string[] = [];
      const base = await target.form(world);
      const fields = Object.keys(base).length > 0 ? Object.keys(base) : ["intent"];
      const before = target.readOnly ? await fingerprint(app) : undefined;
      await fc.assert(
        fc.asyncProperty(
          fc.array(mutation(fields), { minLength: 1, maxLength: 3 }),
          fc.option(hostile, { nil: null, freq: target.hasParam ? 2 : 1_000_000 }),
          fc.boolean(),
          async (mutations, id, asMultipart) => {
            const valid = await target.form(world);
            const form = mutate(valid, mutations);
            const client = target.fresh || target.role === "signedOut" ? new SessionClient(app) : world.clientCopy(target.role);
            const path = target.path ? await target.path(world, target.hasParam ? id : null) : target.route.replace(/^[A-Z]+ /, "");
            const errorsBefore = errorLogs().length;
            const response = await send(app, client, path, form, target, asMultipart, valid);
            tried.set(target.route, (tried.get(target.route) ?? 0) + 1);
            const body = await response.text();
            const where = `${path.slice(0, 80)} ${JSON.stringify(form).slice(0, 300)}`;
            if (response.status >= 500) failures.push(`${response.status} for ${where}: ${body.slice(0, 200)}`);
            if (errorLogs().length > errorsBefore) failures.push(`logged an error for ${where}: ${JSON.stringify(errorLogs().at(-1)).slice(0, 300)}`);
            if (body.includes("Unexpected Server Error")) failures.push(`error boundary for ${where}`);
            if (/html/.test(response.headers.get("content-type") ?? "") && (body.includes("<script>alert(1)</script>") || body.includes("<img src=x onerror=alert(1)>"))) {
              failures.push(`the markup sent is in the page for ${where}`);
            }
            if (target.messages && response.status >= 400 && response.status < 500 && !target.messages.test(decodeHtml(body))) {
              failures.push(`${response.status} without a message for ${where}`);
            }
            return failures.length === 0;
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      ).catch((error: unknown) => {
        failures.push(String(error).slice(0, 600));
      });
      if (before) {
        const after = await fingerprint(app);
        const changed = GUARDED_TABLES.filter((t) => before[t] !== after[t]);
        if (changed.length > 0) failures.push(`changed ${changed.join(", ")}`);
      }
      expect(failures).toEqual([]);
    },
  );

  // Issue 45, finding 1: every spelling of this machine and its network, and hosts that only
  // look like a vendor's, on any port: refused with a message, nothing kept.
  it("refuses a push endpoint at any host but a browser vendor's push service, however it is spelled", async () => {
    const hosts = [
      ...SSRF_PUSH_ENDPOINTS.map((endpoint) => new URL(endpoint).host),
      "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]", "[::ffff:a9fe:a9fe]", "[fd00::1]", "[fe80::1]", "0.0.0.0",
      "metadata.google.internal", "fcm.googleapis.com.", "fcm.googleapis.com%2e", "evilfcm.googleapis.com", "fcm.googleapis.com.attacker.example",
      "push.apple.com", "evilpush.apple.com", "web.push.apple.com.attacker.example", "notify.windows.com.", "xn--fcm-googleapis-com",
      "10.0.0.1#@fcm.googleapis.com", "10.0.0.1\\@fcm.googleapis.com", "fcm.googleapis.com:8443", "updates.push.services.mozilla.com:80",
    ];
    const before = await fingerprint(app);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...hosts), fc.constantFrom("", ":443", ":9444", ":0", ":65535"), fc.constantFrom("/", "/push", "/fcm/send/x?y=1", ""), async (host, port, path) => {
        const endpoint = `https://${host}${/:\d+$/.test(host) ? "" : port}${path}`;
        const response = await world.clientCopy("otherClient").post("/account", subscriptionForm(browserSubscription(endpoint)));
        const body = decodeHtml(await response.text());
        expect(response.status, endpoint).toBe(400);
        expect(body, endpoint).toMatch(/This browser's push service is not supported\.|This browser gave an unusable subscription/);
      }),
      { numRuns: RUNS * 4 },
    );
    const after = await fingerprint(app);
    expect(GUARDED_TABLES.filter((t) => before[t] !== after[t])).toEqual([]);
  });

  // Found by this test: Better Auth's JSON sign-up passed any name to the database, where
  // the length check refused it with an error logged (the whole name in the log).
  it("refuses a sign-up through Better Auth's API whose name the form would refuse, with the form's message", async () => {
    for (const [name, message] of [
      ["x".repeat(100_000), "Full name must be at most 100 characters"],
      ["x".repeat(101), "Full name must be at most 100 characters"],
      ["\u0001\u0007 ", "Full name is required"],
    ] as const) {
      const errorsBefore = errorLogs().length;
      const email = `api-${randomUUID()}@example.com`;
      const response = await new SessionClient(app).send("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.config.publicUrl },
        body: JSON.stringify({ name, email, password: "correct-horse", ageConfirmed: true }),
      });
      expect(response.status, name.slice(0, 10)).toBe(400);
      expect((await response.json()) as unknown).toMatchObject({ message });
      expect(await app.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) })).toBeUndefined();
      expect(errorLogs().length).toBe(errorsBefore);
    }
    const email = `api-${randomUUID()}@example.com`;
    const ok = await new SessionClient(app).send("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.config.publicUrl },
      body: JSON.stringify({ name: "Ada\u0007 Lovelace", email, password: "correct-horse", ageConfirmed: true }),
    });
    expect(ok.status).toBe(200);
    expect((await app.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) }))?.name).toBe("Ada Lovelace");
  });

  // Found by this test: a NUL reached PostgreSQL (which refuses it) from the password-reset
  // token and the checkout's session id, and answered 500.
  it("refuses a NUL anywhere in the address or a text field with 400, before any handler", async () => {
    const client = world.client("owningDigger");
    const origin = app.config.publicUrl;
    const errorsBefore = errorLogs().length;
    const before = await fingerprint(app);
    const responses = [
      await client.get("/checkout/%00"),
      await client.get("/gig/%00.data"),
      await client.get("/browse-gigs?search=%00"),
      await client.post("/reset-password", { token: "\u0000", password: "another-password-123" }),
      await client.post("/post-gig", { ...gigForm(world), description: "A long enough description\u0000 with a NUL in the middle of it." }),
      await client.send("/post-gig", { method: "POST", headers: { origin }, body: multipart([["title", "Nul\u0000title"]]) }),
      await client.send("/api/auth/sign-in/email", { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify({ email: "a\u0000@example.com", password: "x" }) }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Invalid character in the request");
    }
    expect(await fingerprint(app)).toEqual(before);
    expect(errorLogs().length).toBe(errorsBefore);
    // A photo (multipart file) may hold any bytes; only text fields are checked.
    const photo = new FormData();
    photo.append("intent", "nothing");
    photo.append("photo", new Blob([new Uint8Array([0, 1, 0, 2])], { type: "image/jpeg" }), "p.jpg");
    const withPhoto = await client.send("/digger-registration", { method: "POST", headers: { origin }, body: photo });
    expect(await withPhoto.text()).not.toContain("Invalid character in the request");
  });

  it("answers malformed ids in every page's route parameters below 500", async () => {
    const client = world.client("owningClient");
    // Each page whose address carries an id, with the hostile id in its place.
    const routeWithParam: Record<string, (id: string) => string> = {
      gig: (id) => `/gig/${id}`,
      digger: (id) => `/digger/${id}`,
      issues: (id) => `/my-gigs/${id}/issues`,
      quotes: (id) => `/my-gigs/${id}/quotes`,
      checkout: (id) => `/checkout/${id}`,
      upload: (id) => `/uploads/diggers/${id}`,
      credential: (id) => `/credentials/${id}/document`,
      attachment: (id) => `/messages/${world.thread.id}/attachments/${id}`,
      "attachment-thread": (id) => `/messages/${id}/attachments/${world.attachment.id}`,
    };
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...Object.keys(routeWithParam)), async (id, kind) => {
        const path = routeWithParam[kind]!(param(id));
        const page = await client.get(path);
        const data = await client.get(`${path}.data`);
        tried.set("GET route params", (tried.get("GET route params") ?? 0) + 2);
        return page.status < 500 && data.status < 500;
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it("reads a malformed pagination cursor on every paginated list as the first page (200), never a fault", async () => {
    const lists: Array<[Role, string]> = [
      ["signedOut", "/browse-gigs"],
      ["signedOut", "/browse-diggers?sort=rating"],
      ["signedOut", "/browse-diggers?sort=rating&q=a"],
      ["signedOut", "/browse-diggers?sort=experience"],
      ["signedOut", "/browse-diggers?sort=rate"],
      ["signedOut", `/digger/${world.users.owningDigger.diggerId}`],
      ["owningClient", "/my-gigs"],
      ["owningDigger", "/my-leads"],
      ["owningDigger", "/notifications"],
      ["owningDigger", "/messages"],
      ["owningDigger", `/messages/${world.thread.id}`],
      ["owningDigger", "/visits"],
      ["owningClient", "/visits"],
      ["operator", "/ops/messages"],
      ["owningDigger", "/reference-requests"],
      ["operator", "/ops/audit"],
      ["operator", `/ops/users/${world.users.owningDigger.id}`],
      ["operator", "/ops/users"],
      ["operator", "/ops/gigs"],
      ["operator", "/ops/reviews"],
      ["operator", "/ops/verification"],
    ];
    const json = (values: unknown) => Buffer.from(JSON.stringify(values)).toString("base64url");
    const base64 = (text: string) => Buffer.from(text).toString("base64url");
    const at = "2026-11-21T10:00:00.123456Z";
    const id = randomUUID();
    /** Cursors shaped like one of ours (none fits any list) with a value of the wrong kind (the attack's `["x", uuid]` first), and hostile ones. */
    const cursor: fc.Arbitrary<string> = fc.oneof(
      fc.constantFrom(
        json(["x", id]),
        json([at, "not a uuid"]),
        json([5.5, id]),
        json(["5", id]),
        json([null, "x"]),
        json([1e308, id]),
        json([-1, id]),
        json([2 ** 31, id]),
        json([4.5, "x"]),
        json([at, id, at]),
        // The Visits list's shape, `[part, starts_at, id]`, with a part or a value it does not have.
        json([2, at, id]),
        json([-1, at, id]),
        json(["0", at, id]),
        json([0, "x", id]),
        json([1, at, "x"]),
        json([at]),
        json({ a: at }),
        json(["2026-02-30T10:00:00.000000Z", id]),
        json(["0000-01-01T00:00:00.000000Z", id]),
        json([at, "a\u0000b"]),
        json(["'; select pg_sleep(5) --", id]),
        base64("1e400"),
        base64("[1e400, 1]"),
        "%ED%A0%80",
      ),
      hostile.map((value) => (value instanceof RawBytes ? value.percentEncoded : encodePart(value))),
      hostile.filter((value) => typeof value === "string").map((value) => json([value, id])),
      // Not an id of any kind (a uuid, or a user id: /ops/users), which would be a real cursor.
      hostile.filter((value) => typeof value === "string" && !/^[\w-]{1,100}$/.test(value)).map((value) => json([at, value])),
    );
    /** The page's links but those to the list itself (its pages, 'Back to the first page'): the first page's items are its links. */
    const links = (html: string, path: string) =>
      new Set([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!).filter((href) => href.split(/[?#]/)[0] !== path.split("?")[0]));
    /** By role and list: two roles may read the same list (/visits), each their own. */
    const firstPages = new Map<string, Set<string>>();
    for (const [role, path] of lists) {
      const first = await world.client(role).get(path);
      expect(first.status, path).toBe(200);
      firstPages.set(`${role} ${path}`, links(await first.text(), path));
    }
    const errorsBefore = errorLogs().length;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), cursor, fc.constantFrom("cursor", "proofs"), async ([role, path], value, name) => {
        const key = path === "/ops/verification" ? name : "cursor";
        const response = await world.client(role).get(`${path}${path.includes("?") ? "&" : "?"}${key}=${value}`);
        tried.set("GET list cursors", (tried.get("GET list cursors") ?? 0) + 1);
        // A NUL in the address is refused with 400 before any handler (tested on its own below).
        if (/%00/i.test(value)) return void expect(response.status, `${path} ${key}=${value}`).toBe(400);
        expect(response.status, `${path} ${key}=${value}`).toBe(200);
        expect(links(await response.text(), path), `${path} ${key}=${value}`).toEqual(firstPages.get(`${role} ${path}`));
      }),
      { numRuns: RUNS * 8 },
    );
    expect(errorLogs().slice(errorsBefore)).toEqual([]);
    // About 220 full pages, 19 of them operator pages with their queues: on PGlite on a loaded
    // 2-core machine it took more than the suite's 120 s, so it gets the hard tests' 300 s.
  }, 300_000);

  it("reads a forged /visits cursor as a place in one's own list only: another person's visit named in it shows nothing of theirs", async () => {
    // The world's visit is the owning parties'; the other client's and digger's lists are empty.
    const theirs = await worldPastVisit(world);
    const json = (values: unknown) => Buffer.from(JSON.stringify(values)).toString("base64url");
    const startsAt = theirs.startsAt.toISOString().replace("Z", "000Z");
    for (const role of ["otherClient", "otherDigger"] as const) {
      for (const cursor of [json([0, startsAt, theirs.id]), json([1, startsAt, theirs.id]), json([1, "2999-01-01T00:00:00.000000Z", theirs.id])]) {
        for (const path of [`/visits?cursor=${cursor}`, `/visits.data?cursor=${cursor}`]) {
          const response = await world.client(role).get(path);
          expect(response.status, `${role} ${path}`).toBe(200);
          const body = decodeHtml(await response.text());
          expect(body, `${role} ${path}`).not.toContain(world.gig.title);
          expect(body, `${role} ${path}`).not.toContain(`/messages/${world.thread.id}`);
        }
      }
    }
    // The same cursor in its parties' own list is a place in it: from the top of the past part, their visit is there.
    const own = decodeHtml(await (await world.client("owningClient").get(`/visits?cursor=${json([1, "2999-01-01T00:00:00.000000Z", theirs.id])}`)).text());
    expect(own).toContain(world.gig.title);
  });

  it("takes only a plain whole number 1 to 5 as a rating: other spellings of one are refused and change nothing", async () => {
    const client = world.client("owningClient");
    const ratingNow = async () => (await app.database.db.select({ rating: reviews.rating }).from(reviews).where(eq(reviews.id, world.review.id)))[0]!.rating;
    const edit = (rating: string) =>
      client.post(`/my-gigs/${world.gig.id}/diggers`, { intent: "edit-review", diggerId: world.users.owningDigger.diggerId, rating, body: "Solid work on the deck, finished on time." });
    expect((await edit("3")).status).toBe(200);
    for (const rating of ["1e0", "0x5", " 5 ", "5.0", "+1", "05", "2e0", "0b11"]) {
      const refused = await edit(rating);
      expect(refused.status, rating).toBe(400);
      expect(await refused.text()).toContain("Please choose a rating");
      expect(await ratingNow(), rating).toBe(3);
    }
  });

  it("caps an hourly quote's total at $1,000,000 as a fixed price's: a rate and hours each within their limits are refused past it, and nothing is stored", async () => {
    const client = world.client("owningDigger");
    const openQuotes = () => app.database.db.select().from(quotes).where(and(eq(quotes.threadId, world.thread.id), eq(quotes.status, "open")));
    const sendHourly = async (rate: string, hours: string) => {
      await world.clearQuotes();
      return client.post(`/messages/${world.thread.id}`, { intent: "send-quote", type: "hourly", rate, hours, included: "Labour only", validUntil: NEXT_YEAR });
    };
    // The attack: $1,000,000 an hour for 1,000 hours.
    const attack = await sendHourly("1000000", "1000");
    expect(attack.status).toBe(400);
    expect(decodeHtml(await attack.text())).toContain(QUOTE_MESSAGES.totalTooHigh);
    expect(await openQuotes()).toEqual([]);
    // Any rate from $1 to $1,000,000 for any 0.5 to 1,000 hours: stored only when the total is within the cap.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 100, max: QUOTE_MAX_CENTS }), fc.integer({ min: 1, max: 2000 }), async (rateCents, halfHours) => {
        const response = await sendHourly((rateCents / 100).toFixed(2), String(halfHours / 2));
        const stored = await openQuotes();
        if (Math.round((rateCents * halfHours) / 2) > QUOTE_MAX_CENTS) {
          expect(response.status).toBe(400);
          expect(decodeHtml(await response.text())).toContain(QUOTE_MESSAGES.totalTooHigh);
          expect(stored).toEqual([]);
        } else {
          expect(response.status).toBeLessThan(400);
          expect(stored.map((quote) => [quote.rateCents, Number(quote.hours)])).toEqual([[rateCents, halfHours / 2]]);
        }
      }),
      { numRuns: RUNS, examples: [[100_000, 2000], [66_666_667, 3], [66_666_666, 3]] },
    );
    await world.clearQuotes();
  });

  it("reports how many inputs each route was sent", () => {
    const total = [...tried.values()].reduce((a, b) => a + b, 0);
    console.info(`bad input: ${total} requests; ${[...tried].map(([r, n]) => `${r}: ${n}`).join(", ")}`);
    expect(total).toBeGreaterThan(0);
  });
});

// ---- Stored text renders inert ----------------------------------------------------------

const SCRIPT = `<script>alert("xss-${randomUUID().slice(0, 6)}")</script>`;
const IMG = `"><img src=x onerror=alert(1)>`;
const PAYLOAD = `${SCRIPT} and ${IMG}`;

/** The raw payload must not be in the page; its escaped form must be. */
function expectInert(html: string, where: string) {
  expect(html, `${where}: raw <script>`).not.toContain(SCRIPT);
  expect(html, `${where}: raw <img onerror>`).not.toContain("<img src=x onerror");
  expect(html.includes("&lt;script&gt;") || html.includes("\\u003cscript"), `${where}: the payload shown escaped`).toBe(true);
}

describe("figures and badges no form can set", () => {
  it("a saved digger profile ignores verified, rating, review count, hire rate and response time sent with it", async () => {
    const { diggerProfiles } = await import("../../server/db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const read = async () =>
      (await app.database.db
        .select({ verified: diggerProfiles.verified, averageRating: diggerProfiles.averageRating, totalRatings: diggerProfiles.totalRatings, completionRate: diggerProfiles.completionRate, responseTimeHours: diggerProfiles.responseTimeHours })
        .from(diggerProfiles)
        .where(eq(diggerProfiles.id, world.users.otherDigger.diggerId)))[0]!;
    const before = await read();
    const forged = { verified: "true", averageRating: "5", average_rating: "5", totalRatings: "999", total_ratings: "999", completionRate: "100", completion_rate: "100", responseTimeHours: "1", response_time_hours: "1" };
    const saved = await world.client("otherDigger").post("/digger-registration", { ...profileForm(world, world.users.otherDigger.handle), ...forged });
    expect([200, 302]).toContain(saved.status);
    expect(await read()).toEqual(before);
    expect(before.verified).toBe(false);
  });
});

describe("stored text renders inert", () => {
  it("a review and its reply with script payloads", async () => {
    const { insertGig, insertPurchase } = await import("../support/leads.ts");
    const gig = await insertGig(app, world.users.otherClient.id);
    await insertPurchase(app, gig, world.users.owningDigger.diggerId);
    const reviewer = world.client("otherClient");
    const posted = await reviewer.post(`/my-gigs/${gig.id}/diggers`, { intent: "review", diggerId: world.users.owningDigger.diggerId, rating: "3", body: `Review ${PAYLOAD}` });
    expect(posted.status).toBe(200);
    const { reviews } = await import("../../server/db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const [review] = await app.database.db.select().from(reviews).where(eq(reviews.gigId, gig.id));
    const path = `/digger/${world.users.owningDigger.diggerId}`;
    const replied = await world.client("owningDigger").post(path, { intent: "reply", reviewId: review!.id, reply: `Reply ${PAYLOAD}` });
    expect(replied.status).toBe(200);
    for (const client of [new SessionClient(app), world.client("owningDigger")]) expectInert(await (await client.get(path)).text(), path);
    const buyers = await reviewer.get(`/my-gigs/${gig.id}/diggers`);
    expect(buyers.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await buyers.text()).toContain("<script>alert(");
  });


  it("a gig, a digger profile, a reported issue and a contact message with script payloads", async () => {
    // A client of its own: the world's clients may have used up their hour of gig posts (10) above.
    const { client: clientUser } = await signUpAs(app, "consumer", "Pat Poster");
    const posted = await clientUser.post("/post-gig", {
      ...gigForm(world),
      title: `Deck ${SCRIPT}`.slice(0, 100),
      description: `Please build a deck. ${PAYLOAD} It is about 12 by 16 feet with two steps down to the lawn.`,
      location: `Boulder ${IMG}`.slice(0, 100),
      timeline: "Within a month",
      contactPreferences: `Call ${PAYLOAD}`,
    });
    expect(posted.status).toBe(302);
    const [gig] = await app.database.db.query.gigs.findMany({ where: (g, { like }) => like(g.title, `Deck <script>%`) });
    expect(gig, "the gig with the payload was stored as typed").toBeDefined();
    expect(gig!.description).toContain(SCRIPT);

    const digger = world.client("otherDigger");
    const saved = await digger.post("/digger-registration", {
      ...profileForm(world, world.users.otherDigger.handle),
      businessName: `Biz ${IMG}`.slice(0, 100),
      bio: `Hello ${PAYLOAD}`,
      profession: `Roofer ${SCRIPT}`.slice(0, 100),
      "references.0.name": `Ref ${SCRIPT}`.slice(0, 100),
    });
    expect([302, 200]).toContain(saved.status);

    // The owning digger buys the new gig and reports an issue with the payload.
    const [purchase] = await app.database.db
      .insert((await import("../../server/db/schema.ts")).leadPurchases)
      .values({ gigId: gig!.id, diggerId: world.users.owningDigger.diggerId, amountPaidCents: 10_000, status: "completed", provider: "test", providerSessionId: `test_cs_${randomUUID()}`, purchasedAt: new Date() })
      .returning();
    const reported = await world.client("owningDigger").post("/my-leads", { purchaseId: purchase!.id, issueType: "already_filled", description: `Not real ${PAYLOAD}` });
    expect(reported.status).toBe(200);
    const contact = await new SessionClient(app).post("/contact", { name: `Eve ${IMG}`.slice(0, 100), email: "eve@example.com", subject: `Hi ${SCRIPT}`.slice(0, 200), message: `Message ${PAYLOAD}` });
    expect(contact.status).toBe(200);

    const pages: Array<[SessionClient, string]> = [
      [clientUser, `/gig/${gig!.id}`],
      [new SessionClient(app), `/gig/${gig!.id}`],
      [new SessionClient(app), "/browse-gigs"],
      [clientUser, "/my-gigs"],
      [clientUser, `/my-gigs/${gig!.id}/issues`],
      [world.client("owningDigger"), "/my-leads"],
      [world.client("owningDigger"), `/gig/${gig!.id}`],
      [new SessionClient(app), `/digger/${world.users.otherDigger.diggerId}`],
      [digger, "/digger-registration"],
      [new SessionClient(app), "/browse-diggers"],
      [new SessionClient(app), "/dev/mail"],
    ];
    for (const [client, path] of pages) {
      const response = await client.get(path);
      expect(response.status, path).toBe(200);
      if (/json/.test(response.headers.get("content-type") ?? "")) {
        // A JSON answer (the issues of a gig, fetched by the page) is never read as HTML.
        expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(JSON.stringify(await response.json()), path).toContain("<script>alert(");
        continue;
      }
      expectInert(await response.text(), path);
      // The data response is JSON-ish (turbo-stream), never HTML: it may hold the text as typed.
      const data = await client.get(`${path.replace(/\?.*/, "")}.data`);
      expect(data.headers.get("content-type") ?? "", `${path}.data`).not.toMatch(/html/);
    }
    expect(location(posted)).toMatch(/^\//);
  });
});

describe("a visit's words render inert (issue 50)", () => {
  it("a proposal's note and a cancellation's reason with script payloads, on both parties' thread", async () => {
    const path = `/messages/${world.thread.id}`;
    // The world's thread has had its day's proposals from the other tests: this one a day later.
    await ageVisitProposals(world);
    const proposed = await world.client("owningDigger").post(path, { intent: "propose-visit", "options.0.date": VISIT_DAY, "options.0.time": "11:00", "options.0.window": "0", note: `Note ${PAYLOAD}` });
    expect(proposed.status).toBe(200);
    const visit = await freshVisit(world);
    const cancelled = await world.client("owningClient").post(path, { intent: "cancel-visit", visitId: visit.id, reason: `Reason ${PAYLOAD}`.slice(0, 200) });
    expect(cancelled.status).toBe(200);
    for (const role of ["owningDigger", "owningClient"] as const) {
      const html = await (await world.client(role).get(path)).text();
      expectInert(html, `${path} as ${role}`);
      expect(html, role).toContain("Note &lt;script&gt;");
      expect(html, role).toContain(": Reason &lt;script&gt;");
    }
  });
});
