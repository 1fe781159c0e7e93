/** The newest e-mails of any status, for the local mail viewer (/dev/mail). */
import { desc } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { emails } from "../db/schema.ts";

export interface RecentEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: "transactional" | "promotional";
  status: "pending" | "sent" | "kept";
  createdAt: Date;
}

export function listRecentEmails(db: Database, limit: number): Promise<RecentEmail[]> {
  return db
    .select({
      id: emails.id,
      to: emails.toAddress,
      subject: emails.subject,
      text: emails.textBody,
      kind: emails.kind,
      status: emails.status,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .orderBy(desc(emails.createdAt))
    .limit(limit);
}
