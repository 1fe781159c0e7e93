/**
 * Every e-mail's HTML part, rendered on the server with React Email: the e-mail's parts
 * (templates/email-body.tsx) inside the one layout (templates/layout.tsx).
 *
 * Rendered once per shape (issue 35; bench/results/history.md, "The alerts: where their CPU went"): an e-mail is
 * rendered with a mark in place of each action's address and of the unsubscribe address, and
 * the marks are then replaced by the addresses, escaped as React escapes them. The 10,000 alerts
 * of one gig differ only in their unsubscribe address, so they cost one render, not 10,000.
 */
import { randomUUID } from "node:crypto";
import { render } from "@react-email/components";
import { LRUCache } from "lru-cache";
import { escapeHtml } from "#core/html-escape.ts";
import { emailPreview, type EmailMessage } from "./content.ts";
import { EmailBody } from "./templates/email-body.tsx";
import { EmailLayout } from "./templates/layout.tsx";

/** Unguessable, so that no text a user wrote can hold a mark. */
const MARK_ID = randomUUID();
const MARK = new RegExp(`\\u0001${MARK_ID}:(\\d+)\\u0001`, "g");
const mark = (i: number) => `\u0001${MARK_ID}:${i}\u0001`;

/** Rendered shapes, the most recently used kept. */
const shapes = new LRUCache<string, Promise<string>>({ max: 200 });

export async function renderEmailHtml(email: EmailMessage, { publicUrl, unsubscribeUrl = null }: { publicUrl: string; unsubscribeUrl?: string | null }): Promise<string> {
  const urls: string[] = [];
  // Only web addresses are marked: anything else stays for React to render (and to refuse a
  // `javascript:` address) as it would without the shapes.
  const marked = (url: string) => (/^https?:\/\//i.test(url) ? mark(urls.push(url) - 1) : url);
  const content = email.content.map((part) => (part.type === "action" ? { ...part, url: marked(part.url) } : part));
  const unsubscribe = unsubscribeUrl === null ? null : marked(unsubscribeUrl);
  const heading = email.heading ?? email.subject;
  const key = JSON.stringify([heading, publicUrl, unsubscribe !== null, content]);
  let shape = shapes.get(key);
  if (!shape) {
    shape = render(
      <EmailLayout heading={heading} preview={emailPreview(content)} publicUrl={publicUrl} unsubscribeUrl={unsubscribe}>
        <EmailBody content={content} />
      </EmailLayout>,
    );
    shapes.set(key, shape);
    shape.catch(() => shapes.delete(key));
  }
  return (await shape).replace(MARK, (_, i: string) => escapeHtml(urls[Number(i)]!));
}
