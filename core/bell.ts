/** One entry of the bell, as the pages show it. */
export interface NotificationItem {
  id: string;
  kind: string;
  text: string;
  /** A path on this site: where the action is. */
  link: string;
  createdAt: string;
  read: boolean;
}

/** The bell's badge: the count, or "99+" past 99. */
export function unreadBadge(count: number): string {
  return count > 99 ? "99+" : String(count);
}
