/**
 * An e-mail's HTML rendered once per shape (server/mail/render.tsx): the same bytes as rendering
 * it whole, whatever its addresses hold, and no text a user wrote can stand in for an address.
 */
import { render } from "@react-email/components";
import fc from "fast-check";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { action, emailPreview, paragraph, type EmailMessage } from "../../server/mail/content.ts";
import { renderEmailHtml } from "../../server/mail/render.tsx";
import { digestEmail, leadAlertEmail, type AlertEmailGig } from "../../server/mail/templates/alert-emails.ts";
import { EmailBody } from "../../server/mail/templates/email-body.tsx";
import { EmailLayout } from "../../server/mail/templates/layout.tsx";

const PUBLIC_URL = "https://digs.example";

/** The e-mail rendered whole, as before the shapes were kept. */
function renderedWhole(email: EmailMessage, unsubscribeUrl: string | null) {
  const body = createElement(EmailBody, { content: email.content });
  const props = { heading: email.heading ?? email.subject, preview: emailPreview(email.content), publicUrl: PUBLIC_URL, unsubscribeUrl, children: body };
  return render(createElement(EmailLayout, props));
}

const gig: AlertEmailGig = {
  id: "gig-1",
  title: "Fix the <garage> door & \"gate\"",
  categoryName: "Home",
  budgetMinCents: 10_000,
  budgetMaxCents: 20_000,
  location: "Leeds",
  leadPriceCents: 500,
  maxDiggers: 5,
  spotsTaken: 1,
};

describe("renderEmailHtml", () => {
  it("renders each of one gig's alerts as rendering it whole would, each with its own address", async () => {
    for (const token of ["a", "b&c=<d>", `q"'x`]) {
      const email = leadAlertEmail({ publicUrl: PUBLIC_URL, gig, unsubscribeUrl: `${PUBLIC_URL}/unsubscribe?token=${token}` });
      const html = await renderEmailHtml(email, { publicUrl: PUBLIC_URL });
      expect(html).toBe(await renderedWhole(email, null));
    }
  });

  it("puts the footer's unsubscribe address in, as rendering it whole would", async () => {
    const email: EmailMessage = { subject: "News", content: [paragraph("Hello"), action("Look", `${PUBLIC_URL}/x?a=1&b=2`)] };
    for (const url of [`${PUBLIC_URL}/unsubscribe?t=1`, `${PUBLIC_URL}/unsubscribe?t=2&x="'<>`]) {
      expect(await renderEmailHtml(email, { publicUrl: PUBLIC_URL, unsubscribeUrl: url })).toBe(await renderedWhole(email, url));
    }
  });

  it("is the whole render for any text and addresses", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.webUrl(), async (title, location, url) => {
        const email = digestEmail({ publicUrl: PUBLIC_URL, total: 3, gigs: [{ ...gig, title, location }], moreUrl: url, unsubscribeUrl: `${url}#u` });
        expect(await renderEmailHtml(email, { publicUrl: PUBLIC_URL })).toBe(await renderedWhole(email, null));
      }),
      { numRuns: 30 },
    );
    // 60 whole renders with React: a few seconds on a busy machine, past vitest's default 5 s.
  }, 30_000);

  it("leaves an address that is not a web address to React, as the whole render does", async () => {
    const email: EmailMessage = { subject: "Odd", content: [paragraph("Hello"), action("Run", "javascript:alert(1)"), action("Mail", "mailto:a@b.example")] };
    const html = await renderEmailHtml(email, { publicUrl: PUBLIC_URL });
    expect(html).toBe(await renderedWhole(email, null));
    expect(html).not.toContain("javascript:alert");
  });

  it("leaves a user's text that looks like a mark as the text it is", async () => {
    const lookalike = "\u0001x:0\u0001 and \u00010\u0001";
    const email = leadAlertEmail({ publicUrl: PUBLIC_URL, gig: { ...gig, title: lookalike }, unsubscribeUrl: `${PUBLIC_URL}/unsubscribe?token=z` });
    const html = await renderEmailHtml(email, { publicUrl: PUBLIC_URL });
    expect(html).toBe(await renderedWhole(email, null));
    expect(html).toContain(lookalike);
  });
});
