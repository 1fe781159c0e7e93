/**
 * Which diggers a gig's lead alert goes to (docs/decisions/0023-lead-alerts.md), written once
 * as SQL for the instant fan-out (one gig, many diggers) and the daily digest (a batch of
 * diggers, the day's gigs). A digger matches a gig when:
 * - the gig's category is one of the digger's alert categories, or a sub-category of one
 *   (saved ones, else the categories of their profile);
 * - every keyword is in the gig's title or description, and the location text in its
 *   location (case-insensitive substrings, like the search);
 * - the lead price is at most their maximum;
 * - the gig's phone is verified, for a digger who asked for 'Only gigs with a verified phone'
 *   (issue 49; while phone verification is off the choice does not apply);
 * and never when they bought the lead, or their account is deleted or suspended.
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type AlertFrequency } from "#core/lead-alerts.ts";
import { LEAD_PRICE_RATE, MINIMUM_LEAD_PRICE_CENTS } from "#core/lead-price.ts";
import { queryRows, type Database } from "../db/client.ts";
import { categories, diggerCategories, diggerProfiles, leadAlertCategories, leadAlerts, leadAlertSettings, leadPurchases, users } from "../db/schema.ts";

/** The gig's side of a match: its columns (the digest) or its values (the fan-out). */
export interface GigTerms {
  id: AnyPgColumn | SQL | string;
  /** Lower-cased title and description (gigs.search_text). */
  searchText: AnyPgColumn | SQL | string;
  location: AnyPgColumn | SQL | string;
  leadPriceCents: SQL | number;
  /**
   * Whether a digger with 'Only gigs with a verified phone' may hear of it: its client verified
   * its phone, or phone verification is off (then nobody can, and the choice does not apply).
   */
  verifiedPhoneOk: SQL | boolean;
}

/** core/lead-price.ts in SQL, for the digest's many gigs. */
export const leadPriceSql = (budgetMinCents: AnyPgColumn): SQL =>
  sql`(case when ${budgetMinCents} is null or ${budgetMinCents} <= 0 then ${MINIMUM_LEAD_PRICE_CENTS}
       else greatest(${MINIMUM_LEAD_PRICE_CENTS}, round(${budgetMinCents} * ${LEAD_PRICE_RATE}::numeric)) end)`;

/**
 * Everything of a match but the category, for the digger `diggerId` (a column) whose saved
 * preferences, if any, are the row of lead_alert_settings joined as is: keywords, location,
 * maximum price, not bought, account neither deleted nor suspended.
 */
export function preferencesMatch(diggerId: AnyPgColumn | SQL, gig: GigTerms): SQL {
  const s = leadAlertSettings;
  return sql`
    (${s.location} is null or position(lower(${s.location}) in lower(${gig.location})) > 0)
    and (${s.maxLeadPriceCents} is null or ${gig.leadPriceCents} <= ${s.maxLeadPriceCents})
    and (${s.verifiedPhoneOnly} is not true or ${gig.verifiedPhoneOk})
    and not exists (select 1 from unnest(${s.keywords}) as k(word) where position(lower(k.word) in ${gig.searchText}) = 0)
    and not exists (
      select 1 from ${leadPurchases}
      where ${leadPurchases.gigId} = ${gig.id} and ${leadPurchases.diggerId} = ${diggerId} and ${leadPurchases.status} = 'completed'
    )
    and ${users.deletedAt} is null and ${users.suspendedAt} is null`;
}

export interface AlertRecipient {
  diggerId: string;
  userId: string;
  email: string;
}

/**
 * The diggers whose `frequency` alerts match the gig and who have not been alerted about it:
 * one query. The candidates come from the category indexes (the gig's category and its parent,
 * in the saved alert categories or, for diggers who never saved any, the profile's); every
 * other term is checked on those rows only. `onlyDiggerIds` checks a batch again before sending.
 */
export function matchingDiggers(
  db: Database,
  gig: GigTerms & { categoryId: string; parentCategoryId: string | null },
  frequency: AlertFrequency,
  onlyDiggerIds?: string[],
): Promise<AlertRecipient[]> {
  return queryRows<AlertRecipient>(db, matchingDiggersQuery(gig, frequency, onlyDiggerIds));
}

/** The query of `matchingDiggers` (the benchmark EXPLAINs it). */
export function matchingDiggersQuery(
  gig: GigTerms & { categoryId: string; parentCategoryId: string | null },
  frequency: AlertFrequency,
  onlyDiggerIds?: string[],
): SQL {
  const categoryIds = gig.parentCategoryId ? [gig.categoryId, gig.parentCategoryId] : [gig.categoryId];
  const inCategories = (column: AnyPgColumn) => sql`${column} in (${sql.join(categoryIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const only = (column: AnyPgColumn) => (onlyDiggerIds ? sql`and ${column} = any(${`{${onlyDiggerIds.join(",")}}`}::uuid[])` : sql``);
  return sql`select m.digger_id as "diggerId", ${users.id} as "userId", ${users.email} as email
        from (
          select ${leadAlertCategories.diggerId} as digger_id from ${leadAlertCategories}
          where ${inCategories(leadAlertCategories.categoryId)} ${only(leadAlertCategories.diggerId)}
          union
          select ${diggerCategories.diggerId} from ${diggerCategories}
          where ${inCategories(diggerCategories.categoryId)} ${only(diggerCategories.diggerId)}
            and not exists (select 1 from ${leadAlertSettings} saved where saved.digger_id = ${diggerCategories.diggerId})
        ) m
        join ${diggerProfiles} on ${diggerProfiles.id} = m.digger_id
        join ${users} on ${users.id} = ${diggerProfiles.userId}
        left join ${leadAlertSettings} on ${leadAlertSettings.diggerId} = m.digger_id
        where coalesce(${leadAlertSettings.frequency}, 'instant') = ${frequency}
          and ${preferencesMatch(sql`m.digger_id`, gig)}
          and not exists (select 1 from ${leadAlerts} where ${leadAlerts.gigId} = ${gig.id} and ${leadAlerts.diggerId} = m.digger_id)
        order by m.digger_id`;
}

/** The saved alert categories of `diggerId` (a column) include the gig's category or its parent. */
export function savedCategoryMatch(diggerId: AnyPgColumn, gigCategoryId: AnyPgColumn): SQL {
  return sql`exists (
    select 1 from ${leadAlertCategories}
    where ${leadAlertCategories.diggerId} = ${diggerId}
      and (${leadAlertCategories.categoryId} = ${gigCategoryId}
           or ${leadAlertCategories.categoryId} = (select ${categories.parentCategoryId} from ${categories} where ${categories.id} = ${gigCategoryId}))
  )`;
}
