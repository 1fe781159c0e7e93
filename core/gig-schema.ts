/**
 * Posting a gig (spec section 5), with the spec's messages. The keys are in the order the
 * spec checks them, so the first message shown is the one the spec would show. The texts and
 * limits the pages show without checking anything are in gig-texts.ts, which does not load zod.
 */
import { z } from "zod";
import { isUuid } from "./ids.ts";
import { BUDGET_MAX_DOLLARS, DESCRIPTION_MAX, DESCRIPTION_MIN, GIG_STATUS_FAILED, MAX_DIGGERS_MESSAGE, TITLE_MAX, TITLE_MIN } from "./gig-texts.ts";
import { DEFAULT_MAX_DIGGERS, MAX_DIGGERS, MIN_DIGGERS } from "./lead-spots.ts";
import { PHONE_TEXTS } from "./phone-verification.ts";

/** Maximum diggers: a whole number from 1 to 5; not sent means the default, 3. */
const maxDiggers = z
  .string({ error: MAX_DIGGERS_MESSAGE })
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return DEFAULT_MAX_DIGGERS;
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (!(n >= MIN_DIGGERS && n <= MAX_DIGGERS)) {
      ctx.addIssue({ code: "custom", message: MAX_DIGGERS_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

/**
 * How the server reads a typed phone number (server/phones/parse-phone.ts: libphonenumber-js,
 * which pages do not load): its E.164 form, or null when it cannot receive text messages.
 */
export type PhoneReader = (typed: string) => string | null;

/**
 * The gig's optional phone (issue 49), stored in E.164. `stored`: the gig's number when editing;
 * sent back as it is, a free-text number of before is kept as it is (it counts as not verified).
 */
function phone(read: PhoneReader, stored: string | null) {
  return z
    .string()
    .trim()
    .optional()
    .transform((typed, ctx) => {
      if (!typed) return null;
      if (stored !== null && typed === stored) return stored;
      const e164 = read(typed);
      if (e164 === null) {
        ctx.addIssue({ code: "custom", message: PHONE_TEXTS.invalidNumber });
        return z.NEVER;
      }
      return e164;
    });
}

const text = (requiredMessage: string, max: number, maxMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(max, maxMessage);

/** Dollars typed into a form, as integer cents; empty means "not given". */
const budget = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return null;
    const dollars = Number(v);
    if (!Number.isFinite(dollars) || !/^-?\d+(\.\d{1,2})?$/.test(v)) {
      ctx.addIssue({ code: "custom", message: "Please enter the budget in dollars, like 1500 or 1500.50" });
      return z.NEVER;
    }
    if (dollars < 0) {
      ctx.addIssue({ code: "custom", message: "Budget must be positive" });
      return z.NEVER;
    }
    if (dollars > BUDGET_MAX_DOLLARS) {
      ctx.addIssue({ code: "custom", message: "Budget must be at most $100,000,000" });
      return z.NEVER;
    }
    return Math.round(dollars * 100);
  });

/** The gig's own fields, in the order the spec checks them. */
function gigFields(today: string, read: PhoneReader, storedPhone: string | null) {
  return {
    title: z
      .string({ error: "Title must be at least 10 characters" })
      .trim()
      .min(TITLE_MIN, "Title must be at least 10 characters")
      .max(TITLE_MAX, "Title must be less than 100 characters"),
    description: z
      .string({ error: "Description must be at least 50 characters" })
      .trim()
      .min(DESCRIPTION_MIN, "Description must be at least 50 characters")
      .max(DESCRIPTION_MAX, "Description must be less than 2000 characters"),
    location: text("Location is required", 200, "Location must be at most 200 characters"),
    timeline: text("Timeline is required", 200, "Timeline must be at most 200 characters"),
    budgetMin: budget,
    budgetMax: budget,
    categoryId: z.uuid({ error: "Please select a category" }),
    maxDiggers,
    deadline: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(v), "Please enter a valid date")
      .refine((v) => v === null || v >= today, "The deadline cannot be in the past"),
    contactPreferences: z
      .string()
      .trim()
      .max(500, "Contact preferences must be at most 500 characters")
      .optional()
      .transform((v) => (v ? v : null)),
    contactPhone: phone(read, storedPhone),
  };
}

const BUDGET_ORDER_MESSAGE = "Minimum budget cannot be greater than maximum budget";
const budgetsInOrder = (g: { budgetMin: number | null; budgetMax: number | null }) =>
  g.budgetMin === null || g.budgetMax === null || g.budgetMin <= g.budgetMax;

export function postGigSchema(today: string, read: PhoneReader) {
  return z
    .object({ acceptTerms: z.literal("on", { error: "Please accept the Terms of Service to continue" }), ...gigFields(today, read, null) })
    .refine(budgetsInOrder, { message: BUDGET_ORDER_MESSAGE, path: ["budgetMin"] });
}

/**
 * Editing a gig nobody has bought: every field, as when posting. `today` is the earliest
 * deadline accepted: the gig's own deadline when that is earlier, so an old deadline left as
 * it was does not block saving the rest; `storedPhone`, the gig's number, kept when sent back as it is.
 */
export function editGigSchema(today: string, read: PhoneReader, storedPhone: string | null) {
  return z.object(gigFields(today, read, storedPhone)).refine(budgetsInOrder, { message: BUDGET_ORDER_MESSAGE, path: ["budgetMin"] });
}

/** The fields a client may still change once someone bought the lead (issue 23). */
export const FIELDS_AFTER_PURCHASE = ["timeline", "deadline", "contactPreferences", "contactPhone"] as const;

/** Editing a bought gig: only FIELDS_AFTER_PURCHASE. */
export function editBoughtGigSchema(today: string, read: PhoneReader, storedPhone: string | null) {
  const { timeline, deadline, contactPreferences, contactPhone } = gigFields(today, read, storedPhone);
  return z.object({ timeline, deadline, contactPreferences, contactPhone });
}

/**
 * My Gigs' switch: open or close one gig. An id that is not a uuid, or none, names no gig (null).
 * `filled` ('yes' from 'Yes, I hired someone') matters only when closing; anything else is "no".
 */
export const gigStatusSchema = z.object({
  intent: z.literal("set-status", { error: GIG_STATUS_FAILED }),
  status: z.enum(["open", "closed"], { error: GIG_STATUS_FAILED }),
  gigId: z.unknown().optional().transform((id) => (isUuid(id) ? id : null)),
  filled: z.unknown().optional().transform((value) => value === "yes"),
});

/** 'Verify this number' (My Gigs, Edit Gig): the gig's id; one that is not a uuid, or none, names no gig (null). */
export const gigPhoneSchema = z.object({
  gigId: z.unknown().optional().transform((id) => (isUuid(id) ? id : null)),
});
