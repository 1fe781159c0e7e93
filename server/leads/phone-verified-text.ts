/**
 * 'The client verified this number on {date}' (issue 49): beside a Wrong Phone Number report whose
 * number was verified when the lead was bought (`lead_purchases.phone_verified_at`, snapshotted by
 * trigger), in the reader's zone; nothing for other types, for a number not verified then, or
 * while phone verification is off (no tick is shown anywhere then). The client reads it as
 * 'You verified this number on {date}'.
 */
import { WRONG_PHONE } from "#core/lead-issues.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import type { ReaderTime } from "../reader-time.ts";

export function phoneVerifiedText(
  verificationOn: boolean,
  issueType: string,
  verifiedAt: Date | string | null,
  time: ReaderTime,
  reader: "client" | "other" = "other",
): string | null {
  if (!verificationOn || issueType !== WRONG_PHONE || !verifiedAt) return null;
  return (reader === "client" ? PHONE_TEXTS.youVerifiedOn : PHONE_TEXTS.verifiedOn)(time.date(verifiedAt));
}
