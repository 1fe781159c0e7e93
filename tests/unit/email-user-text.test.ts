/**
 * Text a user wrote is text in every e-mail (issue 30, finding 2): whatever a name, a title, a
 * reason or a message holds (addresses, "Label: https://…" lines, Markdown, HTML), the HTML
 * part has no anchor the template did not write, and in the plain text only the template's
 * own actions start a line with a link.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { actionLine, emailText, type EmailMessage } from "../../server/mail/content.ts";
import { renderEmailHtml } from "../../server/mail/render.tsx";
import {
  accountReinstatedEmail,
  accountSuspendedEmail,
  confirmationEmail,
  passwordResetEmail,
  signUpWithTakenAddressEmail,
} from "../../server/mail/templates/account-emails.ts";
import { digestEmail, leadAlertEmail, type AlertEmailGig } from "../../server/mail/templates/alert-emails.ts";
import { contactEmail } from "../../server/mail/templates/contact-email.ts";
import { gigFilledEmail, gigHiddenEmail, gigRestoredEmail } from "../../server/mail/templates/gig-emails.ts";
import {
  issueAutoApprovedEmail,
  issueDecidedEmail,
  issueReminderEmail,
  issueReportedEmail,
  leadBoughtEmail,
  leadUnavailableEmail,
} from "../../server/mail/templates/lead-emails.ts";
import { quoteAcceptedEmail, quoteDeclinedEmail, quoteNotChosenEmail } from "../../server/mail/templates/quote-emails.ts";
import {
  credentialApprovedEmail,
  credentialLapsedEmail,
  credentialRejectedEmail,
  hiredEmail,
  referenceDecidedEmail,
  referenceRequestedEmail,
  reviewedEmail,
} from "../../server/mail/templates/trust-emails.ts";

const PUBLIC_URL = "https://digsandgigs.test";
const ID = "0b6f3c1e-2d4a-4f6b-9c8d-1e2f3a4b5c6d";
const UNSUBSCRIBE = `${PUBLIC_URL}/unsubscribe?token=signed.token&list=lead-alerts`;

/** What a user may type into a name, a title, a reason or a message. */
const ATTACKS = [
  "Confirm now: https://evil.example/verify",
  "Confirm account: https://evil.example/login",
  "https://evil.example/login",
  "View the gig: https://digsandgigs.test/gig/evil",
  "Sign in: www.evil.example/auth",
  "Reset: evil.example/reset",
  "[Confirm](https://evil.example/verify)",
  "**Urgent**: <https://evil.example>",
  '<a href="https://evil.example/x">Confirm</a>',
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "mailto:evil@evil.example",
];
const line = fc.oneof(
  fc.constantFrom(...ATTACKS),
  fc.webUrl(),
  fc.tuple(fc.string({ maxLength: 30 }), fc.webUrl()).map(([label, url]) => `${label}: ${url}`),
  fc.tuple(fc.string({ maxLength: 20 }), fc.webUrl()).map(([label, url]) => `[${label}](${url})`),
  fc.tuple(fc.string({ maxLength: 20 }), fc.webUrl()).map(([label, url]) => `<a href="${url}">${label}</a>`),
  fc.string({ maxLength: 40 }),
);
/** User text: a line or several. */
const userText = fc.oneof(line, fc.array(line, { minLength: 2, maxLength: 4 }).map((lines) => lines.join("\n")));

const gig = (title: string, location: string): AlertEmailGig => ({
  id: ID,
  title,
  categoryName: "Plumbing",
  budgetMinCents: 500_000,
  budgetMaxCents: 900_000,
  location,
  leadPriceCents: 5_000,
  maxDiggers: 3,
  spotsTaken: 1,
});

/** Every template of the product, its user text from `u` (each field a different piece). */
const TEMPLATES: Array<[name: string, write: (u: string[]) => EmailMessage]> = [
  ["confirmation", (u) => confirmationEmail({ name: u[0]!, link: `${PUBLIC_URL}/verify-email?token=real`, client: true })],
  ["password reset", (u) => passwordResetEmail({ name: u[0]!, link: `${PUBLIC_URL}/reset-password?token=real` })],
  ["sign-up with a taken address", (u) => signUpWithTakenAddressEmail({ name: u[0]!, publicUrl: PUBLIC_URL })],
  ["suspended", () => accountSuspendedEmail({ publicUrl: PUBLIC_URL })],
  ["reinstated", () => accountReinstatedEmail({ publicUrl: PUBLIC_URL })],
  ["contact form", (u) => contactEmail({ name: u[0]!, email: "visitor@example.com", subject: u[1]!, message: u[2]!, account: null })],
  ["lead bought", (u) => leadBoughtEmail({ publicUrl: PUBLIC_URL, clientName: u[0]!, line: `d_handle bought your lead for "${u[1]}"`, price: "$50.00", diggerId: ID })],
  ["lead unavailable", (u) => leadUnavailableEmail({ subject: `The lead for "${u[1]}" is full`, diggerName: u[0]!, why: "full", gigTitle: u[1]!, price: "$50.00", holdMinutes: 30 })],
  [
    "issue reported",
    (u) =>
      issueReportedEmail({
        publicUrl: PUBLIC_URL,
        subject: `A digger reported an issue with your gig "${u[1]}"`,
        businessName: u[0]!,
        handle: "d_handle",
        gigTitle: u[1]!,
        issueType: "Already Found Digger",
        refundPercentage: 100,
        description: u[2]!,
        respondBy: "Respond by Nov 29, 2026, 9:00 AM",
      }),
  ],
  ["issue reminder", (u) => issueReminderEmail({ publicUrl: PUBLIC_URL, gigTitle: u[1]!, issueType: "Fake Lead", respondBy: "Respond by Nov 29, 2026, 9:00 AM" })],
  [
    "issue approved automatically",
    (u) => issueAutoApprovedEmail({ publicUrl: PUBLIC_URL, subject: `An issue on your gig "${u[1]}" was approved automatically`, gigTitle: u[1]!, issueType: "Fake Lead", respondBy: "Nov 29", refund: "$50.00", refundPercentage: 100 }),
  ],
  ["issue decided", (u) => issueDecidedEmail({ publicUrl: PUBLIC_URL, subject: `Your issue report for "${u[1]}" was rejected`, outcome: `The client rejected your report (Fake Lead) on the lead "${u[1]}". No refund is made.` })],
  ["gig filled", (u) => gigFilledEmail({ publicUrl: PUBLIC_URL, gigTitle: u[1]! })],
  ["gig hidden", (u) => gigHiddenEmail({ gigTitle: u[1]!, reason: u[2]! })],
  ["gig restored", (u) => gigRestoredEmail({ gigTitle: u[1]! })],
  ["hired", (u) => hiredEmail({ publicUrl: PUBLIC_URL, gigTitle: u[1]!, diggerId: ID })],
  ["quote accepted", (u) => quoteAcceptedEmail({ publicUrl: PUBLIC_URL, clientFirstName: u[0]!, gigTitle: u[1]!, price: "$1,250.00", threadId: ID })],
  ["quote not chosen", (u) => quoteNotChosenEmail({ publicUrl: PUBLIC_URL, gigTitle: u[1]! })],
  ["quote declined", (u) => quoteDeclinedEmail({ publicUrl: PUBLIC_URL, clientFirstName: u[0]!, gigTitle: u[1]!, reason: u[2]!, threadId: ID })],
  ["reviewed", (u) => reviewedEmail({ publicUrl: PUBLIC_URL, gigTitle: u[1]!, diggerId: ID, rating: 5, edited: false })],
  ["reference requested", (u) => referenceRequestedEmail({ publicUrl: PUBLIC_URL, clientName: u[0]!, referenceName: u[2]! })],
  ["reference decided", (u) => referenceDecidedEmail({ publicUrl: PUBLIC_URL, line: `d_handle approved your request for the contact details of ${u[2]}`, approved: true, diggerId: ID })],
  ["credential approved", () => credentialApprovedEmail({ label: "Insured", badge: "Insured (verified Nov 26, 2026)", until: "Dec 31, 2027" })],
  ["credential rejected", (u) => credentialRejectedEmail({ label: "Insured", reason: u[2]! })],
  ["credential lapsed", () => credentialLapsedEmail({ label: "Insured", until: "Dec 31, 2027" })],
  ["new lead", (u) => leadAlertEmail({ publicUrl: PUBLIC_URL, gig: gig(u[1]!, u[2]!), unsubscribeUrl: UNSUBSCRIBE })],
  ["digest", (u) => digestEmail({ publicUrl: PUBLIC_URL, total: 3, gigs: [gig(u[1]!, u[2]!), gig(u[0]!, "Boulder, CO")], moreUrl: `${PUBLIC_URL}/browse-gigs`, unsubscribeUrl: UNSUBSCRIBE })],
];

const decode = (s: string) => s.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");

/** The anchors of the HTML part, in order: their addresses. */
function anchors(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*>/gi)].map((tag) => decode(/\shref="([^"]*)"/.exec(tag[0])?.[1] ?? "(no href)"));
}

async function expectOnlyTheTemplatesLinks(email: EmailMessage) {
  const actions = email.content.flatMap((part) => (part.type === "action" ? [part] : []));
  // The layout's two links to the site (its name above, its address below), and the template's actions.
  const html = await renderEmailHtml(email, { publicUrl: PUBLIC_URL });
  expect(anchors(html)).toEqual([PUBLIC_URL, ...actions.map((a) => a.url), PUBLIC_URL]);
  expect(html).not.toMatch(/evil\.example"|<img|<script/i);

  // In the text, a line that starts with a link's words is one of the template's actions.
  const text = emailText(email.content);
  const ours = actions.map(actionLine);
  const linkLines = text.split("\n").filter((l) => /^\S/.test(l) && /:\/\/|www\.|(?<![@\w.-])[a-z0-9-]+\.example\b/i.test(l));
  expect(linkLines).toEqual(ours);
}

describe("user text in every e-mail template", () => {
  it.each(TEMPLATES)("%s: user text is never a link, a button nor an action line", async (_name, write) => {
    for (const attack of ATTACKS) await expectOnlyTheTemplatesLinks(write([attack, attack, attack]));
    await fc.assert(
      fc.asyncProperty(fc.tuple(userText, userText, userText), async (u) => expectOnlyTheTemplatesLinks(write(u))),
      { numRuns: 40 },
    );
  });

  it("keeps the user's words, only moved off the start of a line when they hold a link", () => {
    const text = emailText(confirmationEmail({ name: "Confirm now: https://evil.example/verify", link: `${PUBLIC_URL}/verify-email?token=real`, client: false }).content);
    expect(text).toContain("  Hello Confirm now: https://evil.example/verify,");
    expect(text.split("\n")).toContain(`${PUBLIC_URL}/verify-email?token=real`);
    const contact = emailText(contactEmail({ name: "Ann", email: "ann@example.com", subject: "Hi", message: "Line one.\nLine two.", account: null }).content);
    expect(contact).toContain("Ann <ann@example.com> wrote through the Digs & Gigs contact form.\n\nSubject: Hi\nAccount: not signed in\n\nLine one.\nLine two.");
  });
});

describe("the buttons of every e-mail template (issue 47)", () => {
  const labelsOf = (email: EmailMessage) => email.content.flatMap((part) => (part.type === "action" ? [part.label] : []));

  it("say what they do, never 'Open' and a page's name in lower case ('Open verify email', 'Open unsubscribe')", () => {
    for (const [name, write] of TEMPLATES) {
      for (const label of labelsOf(write(["Ann", "Paint the shed", "Too far"]))) expect({ name, label }).toEqual({ name, label: expect.not.stringMatching(/^Open (?!the )[a-z]/) });
    }
  });

  it("name the action: Confirm my e-mail, Reset my password, Open My Gigs, Unsubscribe, Contact support", () => {
    expect(labelsOf(confirmationEmail({ name: "Ann", link: `${PUBLIC_URL}/verify-email?token=real`, client: true }))).toEqual(["Confirm my e-mail"]);
    expect(labelsOf(passwordResetEmail({ name: "Ann", link: `${PUBLIC_URL}/reset-password?token=real` }))).toEqual(["Reset my password"]);
    expect(labelsOf(leadBoughtEmail({ publicUrl: PUBLIC_URL, clientName: "Ann", line: "d_handle bought your lead", price: "$50.00", diggerId: ID }))).toContain("Open My Gigs");
    expect(labelsOf(leadAlertEmail({ publicUrl: PUBLIC_URL, gig: gig("Paint the shed", "Austin, TX"), unsubscribeUrl: UNSUBSCRIBE }))).toContain("Unsubscribe");
    expect(labelsOf(accountSuspendedEmail({ publicUrl: PUBLIC_URL }))).toEqual(["Contact support"]);
  });
});
