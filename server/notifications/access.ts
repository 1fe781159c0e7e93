/** Who may see the bell's notifications: their signed-in owner (every query is bounded by the user's id). */
import { signedIn } from "../guards.ts";

/** /notifications, the page and 'Mark all as read': any signed-in user, their own only. */
export const NOTIFICATIONS = signedIn({
  signedOut: { message: "Please sign in to see your notifications" },
});
