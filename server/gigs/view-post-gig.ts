/** /post-gig, the page: the form's categories, least deadline and phone. Sending it is post-gig.ts. */
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { phoneVerifications, users } from "../db/schema.ts";
import { defineOperation } from "../operation.ts";
import { displayPhone } from "../phones/parse-phone.ts";
import { readerTime } from "../reader-time.ts";
import { listTopLevelCategories } from "../categories.ts";
import { POST_GIG_PAGE } from "./access.ts";

/** The account's number (/account) when the account verified it: a new gig's phone, as its reader writes it (issue 49). */
async function verifiedAccountPhone(db: Database, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ phone: users.phone })
    .from(users)
    .innerJoin(phoneVerifications, and(eq(phoneVerifications.userId, users.id), eq(phoneVerifications.phone, users.phone)))
    .where(eq(users.id, userId));
  return row?.phone ? displayPhone(row.phone) : null;
}

/** /post-gig, the page: the categories to choose from, the reader's today (the deadline's least, issue 47) and the account's verified number. */
export const postGigPage = defineOperation({
  access: POST_GIG_PAGE,
  async run({ services, user }) {
    const [categories, phone] = await Promise.all([listTopLevelCategories(services.db), verifiedAccountPhone(services.db, user.id)]);
    return { categories, today: readerTime(user.timeZone, services.config).today, phone };
  },
});
