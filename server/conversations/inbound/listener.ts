/**
 * The inbound SMTP listener of reply by e-mail (decision 0048; smtp-server): takes mail only
 * for valid reply addresses (anything else: 550 at RCPT), at most 10 recipients and 10 MB a
 * message (announced by SIZE, and counted on the stream, which is never kept beyond that),
 * parses it (postal-mime) and posts each recipient's reply (post-reply.ts). A header From other
 * than the recipient's address is refused with 550, as is what the web form would refuse for
 * good (suspended, blocked, too long: 550 with the form's words); too fast is 451, so the
 * sending server tries again later. Never AUTH: it is a mail exchanger (or sits behind a relay),
 * taking mail for its own addresses only. STARTTLS is offered when a key and certificate are
 * configured (INBOUND_TLS_KEY / INBOUND_TLS_CERT, decision 0055), not required: an MX takes
 * plain SMTP from a server that cannot encrypt, as MX servers do (RFC 3207).
 *
 * Against a stranger with an address (issue 45): a connection is closed after 5 refused
 * recipients (each one a database look-up), and a client address (an IPv6 client's /64) may
 * hold 5 connections at once, the trusted relays (INBOUND_TRUSTED_RELAYS) aside. The header
 * From's domain is checked (DMARC, sender-domain.ts) before anything is posted, except for a
 * loopback client in local mode: the developer's own machine, whose seed accounts are at
 * example.com, a domain that publishes p=reject (NETWORK_LIMITS_ON_LOOPBACK checks it too).
 */
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import proxyaddr from "proxy-addr";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { InboundTls } from "../../config.ts";
import type { AppServices } from "../../context.ts";
import { replyRecipient, type ReplyRecipient } from "../../mail/reply-address.ts";
import { limitedAddress } from "../../security/client-address.ts";
import { networkCapsApply } from "../../security/network.ts";
import { headerFrom, postReply } from "./post-reply.ts";
import { senderDomainVerdict, type DNSResolver } from "./sender-domain.ts";

/** The largest message taken, in bytes. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const MAX_RECIPIENTS = 10;
/** Refused recipients after which a connection is closed. */
const MAX_REFUSED_RECIPIENTS = 5;
/** Connections one client address (an IPv6 client's /64) may hold at once; trusted relays aside. */
const MAX_CONNECTIONS_PER_ADDRESS = 5;

export interface InboundSmtp {
  port: number;
  /** Stops taking connections; ends those still open after a few seconds. */
  close(): Promise<void>;
}

const smtpError = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

export interface InboundListen {
  host: string;
  port: number;
  tls?: InboundTls | null;
  /** INBOUND_TRUSTED_RELAYS. */
  trustedRelays?: string[];
  /** The DNS look-ups of the sender checks (DMARC, SPF, DKIM); default: the system's resolver. Tests answer from a table. */
  resolver?: DNSResolver;
}

export async function startInboundSmtp(services: AppServices, at: InboundListen): Promise<InboundSmtp> {
  const { config, db, logger } = services;
  const inbound = config.inbound;
  if (!inbound) throw new Error("reply by e-mail is off: no INBOUND_DOMAIN");
  const { domain } = inbound;
  const log = logger.child({ component: "inbound-smtp" });
  const recipientOf = (address: string) => replyRecipient(db, config.authSecret, domain, address);
  const trustedRelay = proxyaddr.compile(at.trustedRelays ?? []);
  const isRelay = (address: string) => trustedRelay(address, 0);
  /** Open connections per client address (limitedAddress), by session id. */
  const open = new Map<string, Set<string>>();
  /** Recipients refused on each connection. */
  const refused = new WeakMap<SMTPServerSession, number>();

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const raw = await readCapped(stream);
    if (!raw) throw smtpError(552, "5.3.4 Message too big: at most 10 MB");
    const email = await PostalMime.parse(raw);
    const recipients: ReplyRecipient[] = [];
    for (const to of session.envelope.rcptTo) {
      const recipient = await recipientOf(to.address);
      // Taken at RCPT a moment ago; gone now (the thread deleted with an account).
      if (!recipient) throw smtpError(550, "5.1.1 No such reply address");
      recipients.push(recipient);
    }
    const from = headerFrom(email);
    if (recipients.some((r) => r.email.trim().toLowerCase() !== from)) {
      throw smtpError(550, "5.7.1 Reply from the address the notification went to");
    }
    if (networkCapsApply(config, session.remoteAddress)) {
      const client = { address: session.remoteAddress, helo: session.hostNameAppearsAs ?? "", envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", relay: isRelay(session.remoteAddress) };
      const verdict = await senderDomainVerdict(raw, client, { mta: domain, resolver: at.resolver });
      if (verdict) {
        log.info({ code: verdict.code, relay: client.relay }, "reply by e-mail refused by the sender's domain");
        throw smtpError(verdict.code, verdict.text);
      }
    }
    for (const recipient of recipients) {
      const outcome = await postReply(services, recipient, email);
      log.info({ threadId: recipient.threadId, userId: recipient.userId, tls: session.secure, outcome: outcome.kind, ...("reason" in outcome ? { reason: outcome.reason } : {}) }, "reply by e-mail");
      if (outcome.kind === "refused") throw smtpError(outcome.permanent ? 550 : 451, `${outcome.permanent ? "5.7.1" : "4.7.1"} ${outcome.text}`);
    }
  }

  // Read at the start: a path that cannot be read stops it, as a port that cannot be had does.
  const tls = at.tls ? { key: await readFile(at.tls.keyPath), cert: await readFile(at.tls.certPath) } : null;
  const server = new SMTPServer({
    name: inbound.domain,
    banner: "Digs & Gigs replies",
    size: MAX_MESSAGE_BYTES,
    // Without a key and certificate smtp-server would offer STARTTLS with its own built-in test certificate.
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(tls ?? {}),
    authOptional: true,
    maxClients: 100,
    closeTimeout: 5_000,
    logger: false,
    onConnect(session, callback) {
      const key = limitedAddress(session.remoteAddress);
      const sessions = open.get(key) ?? new Set<string>();
      open.set(key, sessions.add(session.id));
      // 421 closes the connection (smtp-server); its onClose below forgets it again.
      if (sessions.size > MAX_CONNECTIONS_PER_ADDRESS && !isRelay(session.remoteAddress)) {
        callback(smtpError(421, "4.7.0 Too many connections from your address, try again later"));
        return;
      }
      callback();
    },
    onClose(session) {
      const key = limitedAddress(session.remoteAddress);
      const sessions = open.get(key);
      sessions?.delete(session.id);
      if (sessions?.size === 0) open.delete(key);
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
        callback(smtpError(452, "4.5.3 Too many recipients"));
        return;
      }
      recipientOf(address.address).then(
        (recipient) => {
          if (recipient) return callback();
          const count = (refused.get(session) ?? 0) + 1;
          refused.set(session, count);
          // The last one is answered 421, which closes the connection: no more look-ups on it.
          callback(count >= MAX_REFUSED_RECIPIENTS ? smtpError(421, "4.7.0 Too many unknown recipients, closing") : smtpError(550, "5.1.1 No such reply address"));
        },
        (error: unknown) => {
          log.error({ err: error }, "reply address not checked");
          callback(smtpError(451, "4.3.0 Try again later"));
        },
      );
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        () => callback(),
        (error: Error & { responseCode?: number }) => {
          if (error.responseCode) return callback(error);
          log.error({ err: error }, "reply by e-mail not posted");
          callback(smtpError(451, "4.3.0 Try again later"));
        },
      );
    },
  });
  server.on("error", (error) => log.warn({ err: error }, "inbound SMTP connection error"));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(at.port, at.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info({ pid: process.pid, host: at.host, port, domain: inbound.domain, starttls: Boolean(tls) }, "inbound SMTP listening");
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The whole message, or null once it passes the limit (the rest is read and thrown away). */
function readCapped(stream: SMTPServerDataStream): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    stream.once("error", reject);
    stream.once("end", () => resolve(size > MAX_MESSAGE_BYTES || stream.sizeExceeded ? null : Buffer.concat(chunks)));
  });
}
