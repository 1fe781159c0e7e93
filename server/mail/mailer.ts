/**
 * Outgoing e-mail. Every message is first recorded in the `emails` table; with SMTP, the same
 * transaction enqueues an `email.deliver` job (jobs/queue.ts), so the person's request never
 * waits for a mail server, and the job queue delivers it (nodemailer), retrying with backoff
 * until it is delivered, or keeps it as failed for an operator. The outbox transport (local
 * mode) only stores the message ('kept'), for /dev/mail. The job queue hands over up to 50
 * `email.deliver` jobs at once: `deliver` claims their rows in one statement and sends them side
 * by side over a small pool of SMTP connections, and each message succeeds or fails on its own,
 * so only a failed one is retried, with its own backoff (decision 0042).
 *
 * A delivery is safe to repeat: it sends only a row still pending, marks it sent only from
 * pending, and gives it a Message-ID that stays the same across tries, so a receiver can
 * recognise the rare duplicate (a server that died between SMTP's reply and the update).
 *
 * Promotional e-mail goes only to a user who has not opted out (nor deleted the account), to
 * that user's own address, and carries a signed one-click unsubscribe link in its text and in
 * the List-Unsubscribe / List-Unsubscribe-Post headers (RFC 8058). Consent is checked again
 * before each delivery attempt, so opting out also stops a promotional e-mail still queued.
 *
 * Every e-mail is given as its template's structure (`content`, content.ts), and both its
 * parts are drawn from it here: the plain text (`emailText`) and the HTML (React Email,
 * render.tsx). `send(email, { tx })` records it in the caller's transaction, so an event and
 * its e-mail commit together.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { createTransport } from "nodemailer";
import type { Config } from "../config.ts";
import type { Database, Transaction } from "../db/client.ts";
import { emails, users } from "../db/schema.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Logger } from "../logger.ts";
import { signUnsubscribeToken, unsubscribeUrl } from "./unsubscribe-token.ts";
import { emailText, type EmailMessage } from "./content.ts";
import { renderEmailHtml } from "./render.tsx";
import { UNSUBSCRIBE_TEXT } from "./templates/layout.tsx";

/** A template's e-mail (subject, heading, content) and where it goes. */
export interface OutgoingEmail extends EmailMessage {
  to: string;
  replyTo?: string;
  kind: "transactional" | "promotional";
  userId?: string | null;
  /**
   * A list's own signed one-click unsubscribe address (lead alerts): sent as List-Unsubscribe and
   * List-Unsubscribe-Post; the text carries its own link. Promotional e-mail gets one by itself.
   */
  listUnsubscribeUrl?: string;
  /**
   * A calendar invitation (issue 50: a visit's .ics, server/mail/visit-invitation.ts), sent as the
   * message's text/calendar part with its METHOD (nodemailer's `icalEvent`: an alternative that
   * calendar apps offer to add, and the same file attached as invite.ics), and kept with the row.
   */
  calendar?: EmailCalendar;
}

/** An iCalendar object and its METHOD: REQUEST for a booking or a change, CANCEL for a cancellation. */
export interface EmailCalendar {
  method: "REQUEST" | "CANCEL";
  content: string;
}

interface SendOptions {
  /** Record the e-mail (and its delivery job) in this transaction: it exists exactly when the transaction commits. */
  tx?: Transaction;
}

export interface Mailer {
  /**
   * Records the e-mail and, with SMTP, enqueues its delivery; never waits for the mail server.
   * Returns the email row id, or null for a deleted account's address (nothing is recorded).
   */
  send(email: OutgoingEmail & { kind: "transactional" }, options?: SendOptions): Promise<string | null>;
  /** The same; a promotional e-mail is refused (null, nothing recorded) unless `userId` names a user who accepts it at the address `to`. */
  send(email: OutgoingEmail, options?: SendOptions): Promise<string | null>;
  /**
   * One delivery try of each recorded e-mail (a batch of `email.deliver` jobs), side by side
   * over the pooled SMTP connections. Answers, in the same order, null for each e-mail done
   * (sent now, or already sent or dropped) and the error for each one the mail server did not
   * take, so that its own job is tried again later with its own backoff.
   */
  deliver(emailIds: readonly string[]): Promise<Array<Error | null>>;
  /** Closes the pooled SMTP connections (on shutdown, after the job queue stopped). */
  close(): void;
}

/** Each SMTP phase may take this long: a server that stalls fails the attempt, which is retried. */
const SMTP_TIMEOUT_MS = 10_000;
/**
 * The pool (decision 0042): at most this many connections to the mail server, each sending at
 * most this many messages before it is replaced; an idle one closes after a minute.
 */
const SMTP_POOL = { maxConnections: 5, maxMessages: 100, idleTimeout: 60_000 } as const;

export function createMailer({ config, db, logger, jobs }: { config: Config; db: Database; logger: Logger; jobs: JobQueue }): Mailer {
  const log = logger.child({ component: "mailer" });
  const smtp =
    config.mail.transport === "smtp"
      ? createTransport({
          url: config.mail.smtpUrl,
          pool: true,
          ...SMTP_POOL,
          // A message whose connection drops is failed, not re-sent by the pool: its job retries it.
          maxRequeues: 0,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
          dnsTimeout: SMTP_TIMEOUT_MS,
        })
      : undefined;
  const messageIdDomain = /@([^>\s]+)/.exec(config.mailFrom)?.[1] ?? "digsandgigs.local";

  /** The user a promotional e-mail may go to: opted in, not deleted, and owning the address. */
  async function promotionalRecipient(userId: string | null | undefined, to: string, reader: Database | Transaction = db) {
    if (!userId) return null;
    const [user] = await reader
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.promotionalEmail, true), isNull(users.deletedAt)));
    return user && user.email.toLowerCase() === to.trim().toLowerCase() ? user : null;
  }

  /** The users among these who accept promotional e-mail (opted in, not deleted), with their addresses. */
  async function promotionalAddresses(userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const found = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(inArray(users.id, userIds), eq(users.promotionalEmail, true), isNull(users.deletedAt)));
    return new Map(found.map((u) => [u.id, u.email.toLowerCase()]));
  }

  async function deliver(emailIds: readonly string[]): Promise<Array<Error | null>> {
    const outcome = new Map<string, Error | null>();
    // One claim for the whole batch: each row still pending counts a try.
    const rows =
      emailIds.length === 0
        ? []
        : await db
            .update(emails)
            .set({ attempts: sql`${emails.attempts} + 1` })
            .where(and(inArray(emails.id, [...emailIds]), eq(emails.status, "pending")))
            .returning();
    if (smtp && rows.length > 0) {
      const accepting = await promotionalAddresses([...new Set(rows.filter((r) => r.kind === "promotional" && r.userId).map((r) => r.userId!))]);
      const dropped = rows.filter((r) => r.kind === "promotional" && accepting.get(r.userId ?? "") !== r.toAddress.trim().toLowerCase());
      if (dropped.length > 0) {
        // The user opted out (or left) while the e-mail waited: it is dropped, never sent.
        await db.delete(emails).where(and(inArray(emails.id, dropped.map((r) => r.id)), eq(emails.status, "pending")));
        for (const r of dropped) log.info({ emailId: r.id }, "promotional e-mail dropped: the user no longer accepts it");
      }
      const sending = rows.filter((r) => !dropped.includes(r));
      // Side by side over the pool's few connections; each message settles on its own.
      await Promise.all(sending.map(async (row) => outcome.set(row.id, await deliverRow(smtp, row))));
    }
    return emailIds.map((id) => outcome.get(id) ?? null);
  }

  /** Sends one claimed row; null once it is sent and marked, else the error recorded on it. */
  async function deliverRow(transport: NonNullable<typeof smtp>, row: typeof emails.$inferSelect): Promise<Error | null> {
    try {
      await transport.sendMail({
        from: config.mailFrom,
        to: row.toAddress,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody ?? undefined,
        headers: row.listUnsubscribeUrl
          ? { "List-Unsubscribe": `<${row.listUnsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
          : undefined,
        // The invitation: a text/calendar; method=… alternative (and invite.ics), as calendar apps expect.
        icalEvent: row.calendar && row.calendarMethod ? { method: row.calendarMethod, content: row.calendar, filename: "invite.ics" } : undefined,
        // Stable across retries, so a receiver can recognise a duplicate after a lost reply.
        messageId: `<${row.id}@${messageIdDomain}>`,
      });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      await db.update(emails).set({ lastError: message }).where(eq(emails.id, row.id));
      log.warn({ emailId: row.id, attempts: row.attempts, err: message }, "e-mail delivery failed");
      return error instanceof Error ? error : new Error(message);
    }
    // Marked at once, each on its own: a crash later in the batch re-sends nothing already taken.
    await db
      .update(emails)
      .set({ status: "sent", sentAt: sql`now()` })
      .where(and(eq(emails.id, row.id), eq(emails.status, "pending")));
    log.info({ emailId: row.id, attempts: row.attempts }, "e-mail sent");
    return null;
  }

  async function send(email: OutgoingEmail, { tx }: SendOptions = {}): Promise<string | null> {
    // Purged accounts keep an address in the reserved .invalid domain: nothing can reach it.
    if (/[@.]invalid$/i.test(email.to.trim())) {
      log.info({ userId: email.userId ?? null, subject: email.subject }, "e-mail not sent: the address is a deleted account's");
      return null;
    }
    let unsubscribe: string | null = null;
    if (email.kind === "promotional") {
      const recipient = await promotionalRecipient(email.userId, email.to, tx);
      if (!recipient) {
        log.info({ userId: email.userId ?? null, subject: email.subject }, "promotional e-mail not sent: the recipient does not accept it");
        return null;
      }
      unsubscribe = unsubscribeUrl(config.publicUrl, signUnsubscribeToken(config.authSecret, recipient.id, recipient.email));
    }
    const text = emailText(email.content);
    const values = {
      userId: email.userId ?? null,
      toAddress: email.to,
      replyTo: email.replyTo ?? null,
      subject: email.subject,
      textBody: unsubscribe ? `${text}\n\n${unsubscribeFooterText(unsubscribe)}` : text,
      htmlBody: await renderEmailHtml(email, { publicUrl: config.publicUrl, unsubscribeUrl: unsubscribe }),
      kind: email.kind,
      listUnsubscribeUrl: unsubscribe ?? email.listUnsubscribeUrl ?? null,
      calendarMethod: email.calendar?.method ?? null,
      calendar: email.calendar?.content ?? null,
    };
    if (!smtp) {
      const [row] = await (tx ?? db).insert(emails).values({ ...values, status: "kept" }).returning({ id: emails.id });
      log.info({ emailId: row!.id, to: email.to, subject: email.subject }, "e-mail kept in the outbox (see /dev/mail)");
      return row!.id;
    }
    const record = async (t: Transaction) => {
      const [row] = await t.insert(emails).values(values).returning({ id: emails.id });
      await jobs.send("email.deliver", { emailId: row!.id }, { tx: t });
      return row!.id;
    };
    return tx ? record(tx) : db.transaction(record);
  }

  return { send: send as Mailer["send"], deliver, close: () => smtp?.close() };
}

function unsubscribeFooterText(url: string): string {
  return `--\n${UNSUBSCRIBE_TEXT}\n${url}`;
}
