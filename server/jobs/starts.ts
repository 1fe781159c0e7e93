/**
 * The jobs that an event (server/events/registry.ts) and an operation both start, made in one
 * place below both, so the registry names no area's code to start them.
 */
import { and, eq } from "drizzle-orm";
import { ISSUE_REMINDER_HOURS_BEFORE } from "#core/lead-issues.ts";
import type { Transaction } from "../db/client.ts";
import { gigs } from "../db/schema.ts";
import type { JobStart } from "./queue.ts";

/** The `alerts.gig` job of a gig that became visible (server/alerts/fan-out.ts runs it). */
export const leadAlertsJob = (gig: { id: string }): JobStart & { name: "alerts.gig" } => ({ name: "alerts.gig", data: { gigId: gig.id } });

/**
 * The `alerts.gig` jobs of a client's open, published gigs: after they confirmed their e-mail
 * (which published them), the event "account.email-confirmed" starts them.
 */
export async function clientGigAlertJobs(tx: Transaction, clientId: string): Promise<JobStart[]> {
  const visible = await tx
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.clientId, clientId), eq(gigs.status, "open"), eq(gigs.published, true)));
  return visible.map(leadAlertsJob);
}

/** The `refund.send` job of refund `refundId` (server/leads/refunds.ts; an operator's retry starts it at once). */
export function refundJob(refundId: string, startAfterSeconds?: number): JobStart & { name: "refund.send" } {
  return { name: "refund.send", data: { refundId }, startAfterSeconds };
}

/**
 * The `issues.remind` job of a new issue, a day before its deadline (the event
 * "issue.reported" starts it; server/leads/issue-deadlines.ts runs it); none with a window of a
 * day or less: the report's own e-mail is the reminder.
 */
export function issueReminderJob(issueId: string, responseHours: number): JobStart[] {
  if (responseHours <= ISSUE_REMINDER_HOURS_BEFORE) return [];
  return [{ name: "issues.remind", data: { issueId }, startAfterSeconds: (responseHours - ISSUE_REMINDER_HOURS_BEFORE) * 3600 }];
}
