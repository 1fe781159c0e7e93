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

/** An entry as the bell shows it: with its time written by the server in the reader's zone (issue 47). */
export interface NotificationEntry extends NotificationItem {
  /** "5 min ago", "Yesterday, 3:40 PM", "Nov 28". */
  createdAtText: string;
  /** "Nov 28, 2026, 7:47 PM CST": the exact time, on hover. */
  createdAtTitle: string;
}

/** The bell's badge: the count, or "99+" past 99. */
export function unreadBadge(count: number): string {
  return count > 99 ? "99+" : String(count);
}
