/** The newest text messages local mode's outbox kept (/dev/sms, like /dev/mail), for reading codes while developing. */
import { desc } from "drizzle-orm";
import { smsOutbox } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** How many texts /dev/sms shows, newest first. */
const SHOWN = 50;

/** /dev/sms, local mode only (anywhere else the 404 page, as /dev/mail). */
export const devSmsPage = defineOperation({
  access: anyone,
  async run({ services: { config, db } }) {
    if (config.mode !== "local") throw new AppError("not_found", "Not found");
    const texts = await db
      .select({ id: smsOutbox.id, to: smsOutbox.toPhone, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
      .from(smsOutbox)
      .orderBy(desc(smsOutbox.createdAt))
      .limit(SHOWN);
    return { shown: SHOWN, texts };
  },
});
