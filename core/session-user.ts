/** The signed-in user as every page may see it (never anything more private). */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  userType: "consumer" | "digger";
  twoFactorEnabled: boolean;
  /** May open the operator console (/ops); granted only by `npm run operator` (issue 22). */
  operator: boolean;
  /** The IANA zone the user reads times in; null: the site's default (server/reader-time.ts). */
  timeZone: string | null;
}
