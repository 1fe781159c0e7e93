/**
 * Whether this process runs the inbound SMTP listener (decision 0048): one per deployment.
 * `npm start` (local mode) listens on 127.0.0.1:2525 and carries on without it when that port is
 * taken (another local server has it); elsewhere only with INBOUND_SMTP_PORT, where a port that
 * cannot be had stops the start. Under `npm run cluster` only the worker the primary names
 * (INBOUND_SMTP_WORKER=1, server/cluster.ts) listens: each worker sets the Reply-To alike.
 */
import cluster from "node:cluster";
import type { AppServices } from "../../context.ts";
import { startInboundSmtp, type InboundSmtp } from "./listener.ts";

export async function startReplyListener(services: AppServices): Promise<InboundSmtp | null> {
  const smtp = services.config.inbound?.smtp;
  if (!smtp) return null;
  if (cluster.isWorker && process.env.INBOUND_SMTP_WORKER !== "1") return null;
  try {
    return await startInboundSmtp(services, smtp);
  } catch (error) {
    if (!smtp.optional) throw error;
    services.logger.warn({ err: error, port: smtp.port }, "inbound SMTP not started (reply by e-mail): the port is taken");
    return null;
  }
}
