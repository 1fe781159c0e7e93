/**
 * Outgoing e-mail. Every message is first recorded in the `emails` table, then delivered:
 * over SMTP (nodemailer) at once, and when that fails by the retry worker, with exponential
 * backoff, until it is delivered. The outbox transport (local mode) only stores the message
 * ('kept'), for /dev/mail.
 *
 * Claiming is crash-safe and concurrent-safe: an attempt first pushes `next_attempt_at` past
 * the longest an attempt can take (a lease), in a short transaction that skips rows another
 * process holds, so no other pass picks the row up meanwhile; the SMTP exchange itself runs
 * outside any transaction. A process that dies mid-attempt leaves the row to be retried when
 * the lease runs out.
 *
 * Promotional e-mail goes only to a user who has not opted out (nor deleted the account), to
 * that user's own address, and carries a signed one-click unsubscribe link in its text and in
 * the List-Unsubscribe / List-Unsubscribe-Post headers (RFC 8058). Consent is checked again
 * before each delivery attempt, so opting out also stops a promotional e-mail still queued.
 */
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { createTransport } from "nodemailer";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { emails, users } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { signUnsubscribeToken, unsubscribeUrl } from "../privacy/unsubscribe-token.ts";

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  kind: "transactional" | "promotional";
  userId?: string | null;
}

export interface Mailer {
  /**
   * Records the e-mail, then tries to deliver it at once, waiting at most 2 s for that try (a
   * slower one finishes in the background); a failed delivery is retried later, never thrown
   * to the caller. Returns the email row id, or null for a deleted account's
   * address (nothing is recorded).
   */
  send(email: OutgoingEmail & { kind: "transactional" }): Promise<string | null>;
  /** The same; a promotional e-mail is refused (null, nothing recorded) unless `userId` names a user who accepts it at the address `to`. */
  send(email: OutgoingEmail): Promise<string | null>;
  /** Delivers every pending e-mail that is due; returns how many were delivered. Safe to run concurrently (PostgreSQL: FOR UPDATE SKIP LOCKED). */
  deliverDue(): Promise<number>;
  /** Starts a timer that calls deliverDue every intervalMs; returns a stop function that waits for a running pass. */
  startRetryWorker(intervalMs?: number): () => Promise<void>;
}

/** Each SMTP phase may take this long: a server that stalls fails the attempt, which is retried. */
const SMTP_TIMEOUT_MS = 10_000;
/**
 * How long the request that sends an e-mail waits for the first attempt. A healthy server
 * answers in milliseconds; a stalled one may take up to SMTP_TIMEOUT_MS per phase, and the
 * person should not wait for that: the attempt goes on in the background, its lease keeps
 * the retry worker away meanwhile, and its outcome is recorded as usual.
 */
const FIRST_ATTEMPT_WAIT_MS = 2_000;
/** How long a claimed row is left alone: well beyond the longest SMTP attempt. */
const LEASE_SECONDS = 300;
const BATCH_SIZE = 10;
const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 3600;

/** 30 s after the first failed attempt, then doubling (1 min, 2 min, ...), at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_SECONDS);
}

type EmailRow = typeof emails.$inferSelect;

export function createMailer({ config, db, logger }: { config: Config; db: Database; logger: Logger }): Mailer {
  const log = logger.child({ component: "mailer" });
  const smtp =
    config.mail.transport === "smtp"
      ? createTransport({
          url: config.mail.smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
          dnsTimeout: SMTP_TIMEOUT_MS,
        })
      : undefined;
  const messageIdDomain = /@([^>\s]+)/.exec(config.mailFrom)?.[1] ?? "digsandgigs.local";

  /** The user a promotional e-mail may go to: opted in, not deleted, and owning the address. */
  async function promotionalRecipient(userId: string | null | undefined, to: string) {
    if (!userId) return null;
    const [user] = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.promotionalEmail, true), isNull(users.deletedAt)));
    return user && user.email.toLowerCase() === to.trim().toLowerCase() ? user : null;
  }

  /** Sends one claimed row and records the outcome; true when it was delivered. */
  async function attempt(row: EmailRow): Promise<boolean> {
    if (row.kind === "promotional" && !(await promotionalRecipient(row.userId, row.toAddress))) {
      // The user opted out (or left) while the e-mail waited: it is dropped, never sent.
      await db.delete(emails).where(and(eq(emails.id, row.id), eq(emails.status, "pending")));
      log.info({ emailId: row.id }, "promotional e-mail dropped: the user no longer accepts it");
      return false;
    }
    try {
      await smtp!.sendMail({
        from: config.mailFrom,
        to: row.toAddress,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody ?? undefined,
        headers: row.listUnsubscribeUrl
          ? { "List-Unsubscribe": `<${row.listUnsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
          : undefined,
        // Stable across retries, so a receiver can recognise a duplicate after a lost reply.
        messageId: `<${row.id}@${messageIdDomain}>`,
      });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const delay = retryDelaySeconds(row.attempts);
      await db
        .update(emails)
        .set({ lastError: message, nextAttemptAt: sql`now() + make_interval(secs => ${delay})` })
        .where(and(eq(emails.id, row.id), eq(emails.status, "pending")));
      log.warn({ emailId: row.id, attempts: row.attempts, retryInSeconds: delay, err: message }, "e-mail delivery failed");
      return false;
    }
    await db
      .update(emails)
      .set({ status: "sent", sentAt: sql`now()` })
      .where(and(eq(emails.id, row.id), eq(emails.status, "pending")));
    log.info({ emailId: row.id, attempts: row.attempts }, "e-mail sent");
    return true;
  }

  /** Takes up to BATCH_SIZE due rows that no other pass holds, counting the attempt. */
  function claimDue(): Promise<EmailRow[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: emails.id })
        .from(emails)
        .where(and(eq(emails.status, "pending"), lte(emails.nextAttemptAt, sql`now()`)))
        .orderBy(asc(emails.nextAttemptAt))
        .limit(BATCH_SIZE)
        .for("update", { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(emails)
        .set({
          attempts: sql`${emails.attempts} + 1`,
          nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
        })
        .where(
          inArray(
            emails.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async function send(email: OutgoingEmail): Promise<string | null> {
    // Purged accounts keep an address in the reserved .invalid domain: nothing can reach it.
    if (/[@.]invalid$/i.test(email.to.trim())) {
      log.info({ userId: email.userId ?? null, subject: email.subject }, "e-mail not sent: the address is a deleted account's");
      return null;
    }
    let unsubscribe: string | null = null;
    if (email.kind === "promotional") {
      const recipient = await promotionalRecipient(email.userId, email.to);
      if (!recipient) {
        log.info({ userId: email.userId ?? null, subject: email.subject }, "promotional e-mail not sent: the recipient does not accept it");
        return null;
      }
      unsubscribe = unsubscribeUrl(config.publicUrl, signUnsubscribeToken(config.authSecret, recipient.id, recipient.email));
    }
    const values = {
      userId: email.userId ?? null,
      toAddress: email.to,
      replyTo: email.replyTo ?? null,
      subject: email.subject,
      textBody: unsubscribe ? `${email.text}\n\n${unsubscribeFooterText(unsubscribe)}` : email.text,
      htmlBody: email.html && unsubscribe ? `${email.html}\n${unsubscribeFooterHtml(unsubscribe)}` : (email.html ?? null),
      kind: email.kind,
      listUnsubscribeUrl: unsubscribe,
    };
    if (!smtp) {
      const [row] = await db.insert(emails).values({ ...values, status: "kept" }).returning({ id: emails.id });
      log.info({ emailId: row!.id, to: email.to, subject: email.subject }, "e-mail kept in the outbox (see /dev/mail)");
      return row!.id;
    }
    // Recorded as already claimed by this first attempt, so the retry worker leaves it alone.
    const [row] = await db
      .insert(emails)
      .values({ ...values, attempts: 1, nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .returning();
    const first = attempt(row!).catch((error: unknown) => {
      // Recording the outcome failed (database trouble): the lease expires and the worker retries.
      log.error({ emailId: row!.id, err: error }, "could not record the e-mail delivery attempt");
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_ATTEMPT_WAIT_MS)));
    await Promise.race([first, waited]);
    clearTimeout(timer);
    return row!.id;
  }

  async function deliverDue(): Promise<number> {
    if (!smtp) return 0;
    let delivered = 0;
    for (;;) {
      const rows = await claimDue();
      if (rows.length === 0) return delivered;
      const results = await Promise.allSettled(rows.map((row) => attempt(row)));
      for (const [i, result] of results.entries()) {
        if (result.status === "fulfilled") delivered += result.value ? 1 : 0;
        // Left claimed: the lease runs out and a later pass tries again.
        else log.error({ emailId: rows[i]?.id, err: result.reason }, "could not record the e-mail delivery attempt");
      }
    }
  }

  function startRetryWorker(intervalMs = 30_000): () => Promise<void> {
    if (!smtp) return () => Promise.resolve();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running: Promise<void> = Promise.resolve();
    const pass = () => {
      running = deliverDue()
        .then((count) => {
          if (count > 0) log.info({ delivered: count }, "retry worker delivered e-mail");
        })
        .catch((error: unknown) => log.error({ err: error }, "retry worker pass failed"))
        .finally(() => {
          if (!stopped) schedule();
        });
    };
    const schedule = () => {
      timer = setTimeout(pass, intervalMs);
      timer.unref();
    };
    schedule();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    };
  }

  return { send: send as Mailer["send"], deliverDue, startRetryWorker };
}

const UNSUBSCRIBE_TEXT = "You receive this because promotional e-mail is on for your Digs & Gigs account. Unsubscribe with one click:";

function unsubscribeFooterText(url: string): string {
  return `--\n${UNSUBSCRIBE_TEXT}\n${url}`;
}

function unsubscribeFooterHtml(url: string): string {
  const href = url.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  return `<hr><p style="font-size:12px;color:#666">${UNSUBSCRIBE_TEXT} <a href="${href}">Unsubscribe</a></p>`;
}
