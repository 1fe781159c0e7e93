/**
 * The digger registration form's rules (spec section 5, design.md section 1) with their
 * messages, the photo limits, and the two small forms of reference contact requests. Shared
 * by the browser, for quick feedback, and the server, which always validates again.
 */
import { z } from "zod";
import { isUuid } from "./ids.ts";

export const HANDLE_MAX_LENGTH = 30;
const MAX_REFERENCES = 10;
export const MAX_CATEGORIES = 50;
export const MAX_WORK_PHOTOS = 12;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
const LICENSE_VALUES = ["yes", "no", "not_required"] as const;
export type LicenseValue = (typeof LICENSE_VALUES)[number];

export const PHOTO_MESSAGES = {
  type: "Photos must be JPEG, PNG or WebP images",
  size: "Each photo must be 5 MB or smaller",
  count: `You can add up to ${MAX_WORK_PHOTOS} work photos`,
} as const;

export const HANDLE_TAKEN = "This handle is already taken";

/** The spec's handle rule: lowercased, every character other than a-z, 0-9 and _ dropped. */
export function normalizeHandle(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9_]/g, "");
}

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));

/** Dollars with at most two decimals ("45", "45.5", "45.50") as integer cents; blank is null. */
const hourlyRate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!/^\d{1,6}(\.\d{1,2})?$/.test(v)) {
        ctx.addIssue({ code: "custom", message: `${label} must be an amount in dollars, 0 or more (for example 45.50)` });
        return z.NEVER;
      }
      return Math.round(Number(v) * 100);
    });

const email = (message: string) => z.string().trim().max(255, "Email must be at most 255 characters").pipe(z.email(message));

const referenceSchema = z.object({
  id: z.string().trim().optional().transform((v) => (v ? v : null)),
  name: z.string().trim().max(100, "Reference name must be at most 100 characters").default(""),
  email: z.string().trim().default(""),
  phone: optionalText("Reference phone", 30),
  projectDescription: optionalText("Project description", 500),
});

const diggerProfileFields = z
  .object({
    handle: z
      .string({ error: "Handle is required" })
      .transform(normalizeHandle)
      .pipe(
        z
          .string()
          .min(1, "Handle is required")
          .max(HANDLE_MAX_LENGTH, `Handle must be at most ${HANDLE_MAX_LENGTH} characters`),
      ),
    businessName: requiredText("Business name", 100),
    phone: requiredText("Phone", 30),
    location: requiredText("Location", 100),
    profession: requiredText("Profession", 100),
    bio: requiredText("Bio", 2000),
    hourlyRateMin: hourlyRate("Minimum hourly rate"),
    hourlyRateMax: hourlyRate("Maximum hourly rate"),
    yearsExperience: z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (!v) return null;
        if (!/^\d{1,3}$/.test(v) || Number(v) > 100) {
          ctx.addIssue({ code: "custom", message: "Years of experience must be a whole number from 0 to 100" });
          return z.NEVER;
        }
        return Number(v);
      }),
    availability: optionalText("Availability", 200),
    portfolioUrl: z
      .string()
      .trim()
      .max(500, "Portfolio URL must be at most 500 characters")
      .optional()
      .transform((v) => (v ? v : null))
      .pipe(z.url({ protocol: /^https?$/, message: "Please enter a valid URL (starting with http:// or https://)" }).nullable()),
    isInsured: z.enum(["yes", "no"], { error: "Please choose whether you are insured" }).transform((v) => v === "yes"),
    isBonded: z.enum(["yes", "no"], { error: "Please choose whether you are bonded" }).transform((v) => v === "yes"),
    isLicensed: z.enum(LICENSE_VALUES, { error: "Please choose whether you are licensed" }),
    categoryIds: z
      .array(z.uuid("Please select at least one category"))
      .min(1, "Please select at least one category")
      .max(MAX_CATEGORIES, `Please select at most ${MAX_CATEGORIES} categories`)
      .transform((ids) => [...new Set(ids)]),
    references: z.array(referenceSchema).max(MAX_REFERENCES, `You can add up to ${MAX_REFERENCES} references`),
    acceptTerms: z.literal("on", { error: "Please accept the Terms of Service to continue" }),
  })
  // Runs even when other fields failed, so every message shows at once; hence the defensive reads.
  .superRefine(
    (form, ctx) => {
      const { hourlyRateMin: min, hourlyRateMax: max } = form;
      if (typeof min === "number" && typeof max === "number" && min > max) {
        ctx.addIssue({
          code: "custom",
          path: ["hourlyRateMin"],
          message: "Minimum hourly rate cannot be greater than maximum hourly rate",
        });
      }
      const references = Array.isArray(form.references) ? form.references : [];
      const first = references[0];
      if (!first?.name) ctx.addIssue({ code: "custom", path: ["references", 0, "name"], message: "Reference name is required" });
      if (!first?.email) ctx.addIssue({ code: "custom", path: ["references", 0, "email"], message: "Reference email is required" });
      for (const [i, ref] of references.entries()) {
        if (typeof ref?.email === "string" && ref.email && !email("x").safeParse(ref.email).success) {
          ctx.addIssue({ code: "custom", path: ["references", i, "email"], message: "Please enter a valid reference email address" });
        }
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .transform(({ hourlyRateMin, hourlyRateMax, references, acceptTerms: _accepted, ...rest }) => ({
    ...rest,
    hourlyRateMinCents: hourlyRateMin,
    hourlyRateMaxCents: hourlyRateMax,
    // The spec: a reference is saved only when it has both a name and an e-mail.
    references: references.filter((r) => r.name && r.email),
  }));

/**
 * The registration form: its messages are named by the form's own fields ("handle",
 * "references.0.email"), so that core/forms.ts shows each beside its field.
 */
export const diggerProfileSchema = z.unknown().transform((input, ctx) => {
  const parsed = diggerProfileFields.safeParse(input);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path.length > 0 ? [issue.path.join(".")] : [] });
  }
  return z.NEVER;
});

export type DiggerProfileInput = z.output<typeof diggerProfileSchema>;

const REFERENCE_FIELD = /^references\.(\d+)\.(id|name|email|phone|projectDescription)$/;

/**
 * The registration form's fields as the schema expects them: categories repeated as
 * `categoryIds`, references as `references.<n>.<field>` (in the order of n).
 */
export function diggerFormValues(form: FormData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const references = new Map<number, Record<string, string>>();
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const ref = REFERENCE_FIELD.exec(key);
    if (ref) {
      const index = Number(ref[1]);
      if (index >= 100) continue;
      const entry = references.get(index) ?? {};
      entry[ref[2]!] = value;
      references.set(index, entry);
    } else if (key !== "categoryIds") {
      values[key] ??= value;
    }
  }
  values.categoryIds = form.getAll("categoryIds").filter((v): v is string => typeof v === "string");
  values.references = [...references.entries()].sort(([a], [b]) => a - b).map(([, r]) => r);
  return values;
}

/** The photo rules the browser can check before uploading (the server checks the real content). */
export function photoProblem(file: { size: number; type: string }): string | null {
  if (!(PHOTO_CONTENT_TYPES as readonly string[]).includes(file.type)) return PHOTO_MESSAGES.type;
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_MESSAGES.size;
  return null;
}

/** An id from a form: a uuid, or the form's one message. */
const formId = (message: string) => z.string({ error: message }).refine(isUuid, message);

export const REFERENCE_CONTACT_FAILED = "Failed to send request";

/** A client asks for one reference's contact details (the button on /digger/{id}). */
export const referenceContactSchema = z.object({ referenceId: formId(REFERENCE_CONTACT_FAILED) });

const DECISION_FAILED = "Failed to update request";

/** The digger approves or declines one request (/reference-requests). */
export const referenceDecisionSchema = z.object({
  requestId: formId(DECISION_FAILED),
  decision: z.enum(["approve", "decline"], { error: DECISION_FAILED }),
});
