/**
 * Posting a gig (spec section 5), with the spec's messages. The keys are in the order the
 * spec checks them, so the first message shown is the one the spec would show. The texts and
 * limits the pages show without checking anything are in gig-texts.ts, which does not load zod.
 */
import { z } from "zod";
import { isUuid } from "./ids.ts";
import { BUDGET_MAX_DOLLARS, DESCRIPTION_MAX, DESCRIPTION_MIN, GIG_STATUS_FAILED, MAX_DIGGERS_MESSAGE, PHONE_MESSAGE, TITLE_MAX, TITLE_MIN, todayIso } from "./gig-texts.ts";
import { DEFAULT_MAX_DIGGERS, MAX_DIGGERS, MIN_DIGGERS } from "./lead-spots.ts";

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

/** The optional phone of a gig: loosely a phone number (digits, spaces, +, -, parentheses). */
const phone = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || (/^[0-9 +()-]{7,20}$/.test(v) && /[0-9]/.test(v)), PHONE_MESSAGE);


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
function gigFields(today: string) {
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
    contactPhone: phone,
  };
}

const BUDGET_ORDER_MESSAGE = "Minimum budget cannot be greater than maximum budget";
const budgetsInOrder = (g: { budgetMin: number | null; budgetMax: number | null }) =>
  g.budgetMin === null || g.budgetMax === null || g.budgetMin <= g.budgetMax;

export function postGigSchema(today: string = todayIso()) {
  return z
    .object({ acceptTerms: z.literal("on", { error: "Please accept the Terms of Service to continue" }), ...gigFields(today) })
    .refine(budgetsInOrder, { message: BUDGET_ORDER_MESSAGE, path: ["budgetMin"] });
}

/**
 * Editing a gig nobody has bought: every field, as when posting. `today` is the earliest
 * deadline accepted: the gig's own deadline when that is earlier, so an old deadline left as
 * it was does not block saving the rest.
 */
export function editGigSchema(today: string) {
  return z.object(gigFields(today)).refine(budgetsInOrder, { message: BUDGET_ORDER_MESSAGE, path: ["budgetMin"] });
}

/** The fields a client may still change once someone bought the lead (issue 23). */
export const FIELDS_AFTER_PURCHASE = ["timeline", "deadline", "contactPreferences", "contactPhone"] as const;

/** Editing a bought gig: only FIELDS_AFTER_PURCHASE. */
export function editBoughtGigSchema(today: string) {
  const { timeline, deadline, contactPreferences, contactPhone } = gigFields(today);
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
