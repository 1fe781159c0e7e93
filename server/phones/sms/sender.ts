/**
 * The one interface to text messages (issue 49, docs/decisions/0075-verified-phones.md): Amazon
 * SNS in production (`sns-sender.ts`), local mode's outbox (`outbox-sender.ts`, read by /dev/sms).
 * Chosen by config.sms; none: phone verification is off.
 */
import type { SmsConfig } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { createOutboxSender } from "./outbox-sender.ts";
import { createSnsSender } from "./sns-sender.ts";

export interface SmsSender {
  /** Sends one text to an E.164 number; the provider's id of it. Throws when the provider refused it. */
  send(to: string, body: string): Promise<{ messageId: string }>;
  close(): void;
}

export function createSmsSender(config: SmsConfig | null, db: Database): SmsSender | null {
  if (!config) return null;
  return config.provider === "sns" ? createSnsSender(config) : createOutboxSender(db);
}
