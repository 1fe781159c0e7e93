/** The newest text messages local mode's outbox kept (/dev/sms, like /dev/mail), for reading codes while developing. */
import { desc, eq } from "drizzle-orm";
import { smsOutbox } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";

/** How many texts /dev/sms shows, newest first. */
const SHOWN = 50;

/**
 * /dev/sms, local mode only (anywhere else the 404 page, as /dev/mail); `?to=<E.164 number>`
 * shows only that number's, so that a test beside busy others reads its own code.
 */
export const devSmsPage = defineOperation({
  access: anyone,
  async run({ services: { config, db }, url }) {
    if (config.mode !== "local") throw new AppError("not_found", "Not found");
    const to = url.searchParams.get("to")?.trim() || null;
    const texts = await db
      .select({ id: smsOutbox.id, to: smsOutbox.toPhone, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
      .from(smsOutbox)
      .where(to ? eq(smsOutbox.toPhone, to) : undefined)
      .orderBy(desc(smsOutbox.createdAt))
      .limit(SHOWN);
    return { to, shown: SHOWN, texts };
  },
});
