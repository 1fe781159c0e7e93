/**
 * The account page (/account) as an operation (decision 0044): its cards' data, each read by
 * the area that keeps it. Its forms are operations of those areas (see README.md).
 */
import { clientRecordLines } from "#core/reply-guarantee.ts";
import { clientRatingLine } from "#core/two-way-reviews.ts";
import { leadAlertsCard } from "../alerts/settings.ts";
import type { Database } from "../db/client.ts";
import { clientRecordFigures } from "../gigs/client-record.ts";
import { defineOperation } from "../operation.ts";
import { accountPhoneCard } from "../phones/account-phone.ts";
import { phoneVerificationOn } from "../phones/verification-on.ts";
import { promotionalEmailEnabled } from "../privacy/email-preferences.ts";
import { pushDevicesCard } from "../push/devices.ts";
import { reachCard } from "../reach/card.ts";
import { readerTime, type ReaderTime } from "../reader-time.ts";
import { clientReviewsSection } from "../reviews/client-reviews-list.ts";
import { ACCOUNT_PAGE } from "./access.ts";
import { timeZoneChoices } from "./save-time-zone.ts";

export const accountPage = defineOperation({
  access: ACCOUNT_PAGE,
  async run({ services, user, sessionId, url }) {
    const { db, config } = services;
    const time = readerTime(user.timeZone, config);
    const [promotionalEmail, leadAlerts, pushDevices, phone, clientRecord] = await Promise.all([
      promotionalEmailEnabled(db, user.id),
      leadAlertsCard(db, user, phoneVerificationOn(config)),
      pushDevicesCard(db, config, user.id, sessionId, time),
      accountPhoneCard(services, user.id),
      user.userType === "consumer" ? ownClientRecord(db, user.id, url, time) : null,
    ]);
    const reach = await reachCard(db, user, pushDevices);
    return { user, promotionalEmail, leadAlerts, pushDevices, reach, phone, clientRecord, timeZone: timeZoneChoices(config, user.timeZone) };
  },
});

/**
 * A client's own record (issue 51): the lines diggers read on their gig pages, and their
 * published reviews from diggers a page at a time (`?cursor=`), from their own client_records row;
 * `?report={id}`: that review's Report form open (the Report link, without JavaScript).
 */
async function ownClientRecord(db: Database, clientId: string, url: URL, time: ReaderTime) {
  const figures = (await clientRecordFigures(db, [clientId])).get(clientId);
  if (!figures) return null;
  const reviews = await clientReviewsSection(db, clientId, url.searchParams.get("cursor"), time, figures.reviewCount);
  return { lines: clientRecordLines(figures), rating: clientRatingLine(figures.reviewAverage, figures.reviewCount), reviews, reportOpen: url.searchParams.get("report") };
}
