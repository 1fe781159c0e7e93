/**
 * Lead alerts (issue 21, docs/decisions/0023-lead-alerts.md): what a digger hears about and
 * how often, the Lead alerts card's form on /account with its messages. Browser and server
 * parse it with the same schema (core/forms.ts).
 */
import { z } from "zod";
import { MAX_CATEGORIES } from "./digger-schemas.ts";
import { isUuid } from "./ids.ts";

export const ALERT_FREQUENCIES = ["instant", "daily", "off"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const ALERT_FREQUENCY_LABELS: Record<AlertFrequency, string> = {
  instant: "Instant",
  daily: "Daily digest",
  off: "Off",
};

const MAX_KEYWORDS = 10;
const KEYWORD_MAX_LENGTH = 50;
const ALERT_LOCATION_MAX = 100;
/** The highest maximum one may set: the lead price of the largest budget a gig may have ($100,000,000 at 0.5%) and more. */
const MAX_LEAD_PRICE_DOLLARS = 1_000_000;
/** A digest lists at most this many gigs, then links to the rest on Browse Gigs. */
export const DIGEST_MAX_GIGS = 20;

export const LEAD_ALERT_MESSAGES = {
  saved: "Alert preferences saved",
  frequency: "Please choose how often to get lead alerts",
  categories: "Please select at least one category",
  tooManyCategories: `Please select at most ${MAX_CATEGORIES} categories`,
  tooManyKeywords: `Please enter at most ${MAX_KEYWORDS} keywords`,
  keywordLength: `Each keyword must be at most ${KEYWORD_MAX_LENGTH} characters`,
  location: `Location must be at most ${ALERT_LOCATION_MAX} characters`,
  maxPrice: "Please enter the maximum lead price in dollars, like 75 or 75.50",
  maxPriceRange: "Maximum lead price must be more than $0 and at most $1,000,000",
  noProfile: "Please complete your digger profile first",
  unknownCategory: "Please select categories from the list",
} as const;

/** What the card shows and saves. */
export interface LeadAlertPreferences {
  frequency: AlertFrequency;
  categoryIds: string[];
  keywords: string[];
  location: string | null;
  maxLeadPriceCents: number | null;
  /** 'Only gigs with a verified phone' (issue 49): offered only while phone verification is on. */
  verifiedPhoneOnly: boolean;
}

/** Keywords as typed: separated by commas, each matched as a whole (like one search). */
export function splitKeywords(typed: string): string[] {
  const seen = new Set<string>();
  for (const part of typed.split(",")) {
    const keyword = part.trim().replace(/\s+/g, " ");
    if (keyword) seen.add(keyword);
  }
  return [...seen];
}

const maxLeadPrice = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return null;
    if (!/^\d+(\.\d{1,2})?$/.test(v.replace(/^\$/, ""))) {
      ctx.addIssue({ code: "custom", message: LEAD_ALERT_MESSAGES.maxPrice });
      return z.NEVER;
    }
    const dollars = Number(v.replace(/^\$/, ""));
    if (!(dollars > 0 && dollars <= MAX_LEAD_PRICE_DOLLARS)) {
      ctx.addIssue({ code: "custom", message: LEAD_ALERT_MESSAGES.maxPriceRange });
      return z.NEVER;
    }
    return Math.round(dollars * 100);
  });

/** The card's form: categories repeated as `categoryIds`; categories are needed unless alerts are off. */
export const leadAlertsSchema = z
  .object({
    frequency: z.enum(ALERT_FREQUENCIES, { error: LEAD_ALERT_MESSAGES.frequency }),
    categoryIds: z
      .array(z.string())
      .max(MAX_CATEGORIES, LEAD_ALERT_MESSAGES.tooManyCategories)
      .refine((ids) => ids.every(isUuid), LEAD_ALERT_MESSAGES.unknownCategory),
    keywords: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const keywords = splitKeywords(v ?? "");
        if (keywords.length > MAX_KEYWORDS) ctx.addIssue({ code: "custom", message: LEAD_ALERT_MESSAGES.tooManyKeywords });
        else if (keywords.some((k) => k.length > KEYWORD_MAX_LENGTH)) ctx.addIssue({ code: "custom", message: LEAD_ALERT_MESSAGES.keywordLength });
        return keywords;
      }),
    location: z
      .string()
      .trim()
      .max(ALERT_LOCATION_MAX, LEAD_ALERT_MESSAGES.location)
      .optional()
      .transform((v) => v || null),
    maxLeadPrice,
    verifiedPhoneOnly: z.boolean().default(false),
  })
  .superRefine((value, ctx) => {
    if (value.frequency !== "off" && value.categoryIds.length === 0) {
      ctx.addIssue({ code: "custom", path: ["categoryIds"], message: LEAD_ALERT_MESSAGES.categories });
    }
  });

/** The form's fields as the schema expects them (categories repeated). */
export function leadAlertsInput(form: FormData): Record<string, unknown> {
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  return {
    frequency: value("frequency"),
    categoryIds: form.getAll("categoryIds").filter((v): v is string => typeof v === "string"),
    keywords: value("keywords"),
    location: value("location"),
    maxLeadPrice: value("maxLeadPrice"),
    verifiedPhoneOnly: form.get("verifiedPhoneOnly") === "on",
  };
}
