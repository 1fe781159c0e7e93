/** The newest e-mails of any status, for the local mail viewer (/dev/mail). */
import { desc, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { emails } from "../db/schema.ts";

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
  status: "pending" | "sent" | "kept";
  createdAt: Date;
}

/** The newest `limit` e-mails, only those to `to` (any case) when it is given. */
export function listRecentEmails(db: Database, limit: number, to?: string): Promise<RecentEmail[]> {
  return db
    .select({
      id: emails.id,
      to: emails.toAddress,
      replyTo: emails.replyTo,
      subject: emails.subject,
      text: emails.textBody,
      html: emails.htmlBody,
      kind: emails.kind,
      status: emails.status,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .where(to ? sql`lower(${emails.toAddress}) = ${to.toLowerCase()}` : undefined)
    .orderBy(desc(emails.createdAt))
    .limit(limit);
}
