/** /notifications, 'Mark all as read': every unread notification of the signed-in user, and only theirs. */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import { defineOperation } from "../operation.ts";
import { NOTIFICATIONS } from "./access.ts";

/** 'Mark all as read': every unread notification of the user. */
async function markAllRead(db: Database, userId: string): Promise<{ success: string }> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { success: "All notifications marked as read" };
}

/** /notifications, 'Mark all as read'. */
export const markAllNotificationsRead = defineOperation({
  access: NOTIFICATIONS,
  async run({ services, user }) {
    return markAllRead(services.db, user.id);
  },
});
