/** The newest e-mails of any status, for the local mail viewer (/dev/mail). */
import { desc, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { emails } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** How many e-mails /dev/mail shows, newest first. */
const SHOWN = 50;

export interface RecentEmail {
  id: string;
  to: string;
  /** Where an answer goes (a message notification's reply address, decision 0048); null: the sender. */
  replyTo: string | null;
  subject: string;
  text: string;
  /** The HTML part (React Email), shown sandboxed; null for an e-mail recorded before HTML parts. */
  html: string | null;
  kind: "transactional" | "promotional";
  /** The calendar part (a visit's invitation, issue 50) and its METHOD; null for an e-mail without one. */
  calendarMethod: "REQUEST" | "CANCEL" | null;
  calendar: string | null;
  status: "pending" | "sent" | "kept";
  createdAt: Date;
}

/** The newest `limit` e-mails, only those to `to` (any case) when it is given. */
function listRecentEmails(db: Database, limit: number, to?: string): Promise<RecentEmail[]> {
  return db
    .select({
      id: emails.id,
      to: emails.toAddress,
      replyTo: emails.replyTo,
      subject: emails.subject,
      text: emails.textBody,
      html: emails.htmlBody,
      kind: emails.kind,
      calendarMethod: emails.calendarMethod,
      calendar: emails.calendar,
      status: emails.status,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .where(to ? sql`lower(${emails.toAddress}) = ${to.toLowerCase()}` : undefined)
    .orderBy(desc(emails.createdAt))
    .limit(limit);
}

/**
 * /dev/mail, local mode only (anywhere else the 404 page): the e-mail the app recorded, newest
 * first, so links in it can be followed; `?to=<address>` shows only that address's, so a busy
 * outbox cannot push someone's out of view.
 */
export const devMailPage = defineOperation({
  access: anyone,
  async run({ services: { config, db }, url }) {
    if (config.mode !== "local") throw new AppError("not_found", "Not found");
    const to = url.searchParams.get("to")?.trim() || null;
    return { to, shown: SHOWN, emails: await listRecentEmails(db, SHOWN, to ?? undefined) };
  },
});
