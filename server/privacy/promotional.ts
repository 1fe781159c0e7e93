/**
 * The smallest promotional sender: one message to one user at their own address. There is
 * no campaign feature; this is what one would call. The mailer decides whether it may go
 * (opted in, account not deleted) and adds the unsubscribe link and headers.
 */
import { eq } from "drizzle-orm";
import { users } from "../db/schema.ts";
import type { AppServices } from "../services.ts";

export async function sendPromotionalEmail(
  { db, mailer }: Pick<AppServices, "db" | "mailer">,
  userId: string,
  message: { subject: string; text: string; html?: string },
): Promise<string | null> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  return mailer.send({ ...message, to: user.email, userId, kind: "promotional" });
}
