/** Local mode's text messages: a row each in sms_outbox, which /dev/sms lists (like the mail outbox and /dev/mail). */
import type { Database } from "../../db/client.ts";
import { smsOutbox } from "../../db/schema.ts";
import type { SmsSender } from "./sender.ts";

export function createOutboxSender(db: Database): SmsSender {
  return {
    async send(to, body) {
      const [row] = await db.insert(smsOutbox).values({ toPhone: to, body }).returning({ id: smsOutbox.id });
      return { messageId: row!.id };
    },
    close() {},
  };
}
