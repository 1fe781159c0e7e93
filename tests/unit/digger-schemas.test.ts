import { describe, expect, it } from "vitest";
import {
  diggerFormValues,
  diggerProfileSchema,
  normalizeHandle,
  photoProblem,
  referenceContactSchema,
  referenceDecisionSchema,
} from "../../core/digger-schemas.ts";
import { fieldMessages, firstMessage } from "../../core/forms.ts";

const CATEGORY = "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab";
function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const value of Array.isArray(v) ? v : [v]) data.append(k, value);
  return diggerFormValues(data);
}
const valid = {
  handle: "pat",
  businessName: "Pat Co",
  phone: "555",
  location: "Here",
  profession: "Painter",
  bio: "Paints.",
  isInsured: "no",
  isBonded: "no",
  isLicensed: "not_required",
  categoryIds: [CATEGORY],
  "references.0.name": "Ref",
  "references.0.email": "ref@example.com",
  acceptTerms: "on",
};

describe("normalizeHandle", () => {
  it.each([
    ["Mr.Fix-It 42", "mrfixit42"],
    ["ÉCOLE_Pro", "cole_pro"],
    ["under_score", "under_score"],
    ["!!!", ""],
  ])("%s -> %s", (raw, handle) => expect(normalizeHandle(raw)).toBe(handle));
});

describe("diggerProfileSchema", () => {
  it("turns dollars into cents, blanks into nulls, yes/no into booleans", () => {
    const parsed = diggerProfileSchema.parse(form({ ...valid, hourlyRateMin: "45.5", hourlyRateMax: "", isInsured: "yes" }));
    expect(parsed).toMatchObject({ hourlyRateMinCents: 4550, hourlyRateMaxCents: null, yearsExperience: null, isInsured: true, portfolioUrl: null });
  });

  it("accepts equal rates and rejects a minimum above the maximum", () => {
    expect(diggerProfileSchema.safeParse(form({ ...valid, hourlyRateMin: "50", hourlyRateMax: "50" })).success).toBe(true);
    const bad = diggerProfileSchema.safeParse(form({ ...valid, hourlyRateMin: "50.01", hourlyRateMax: "50" }));
    expect(bad.error?.issues[0]?.message).toBe("Minimum hourly rate cannot be greater than maximum hourly rate");
  });

  it("keeps only references with both a name and an e-mail, in form order", () => {
    const parsed = diggerProfileSchema.parse(
      form({
        ...valid,
        "references.2.name": "Third",
        "references.2.email": "third@example.com",
        "references.1.name": "No Email",
      }),
    );
    expect(parsed.references.map((r) => r.name)).toEqual(["Ref", "Third"]);
  });

  it("lists the spec's first message first", () => {
    const result = diggerProfileSchema.safeParse(form({ ...valid, categoryIds: [], acceptTerms: "" }));
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      "Please select at least one category",
      "Please accept the Terms of Service to continue",
    ]);
  });
});

it("reports the rate and reference rules together with other fields' messages", () => {
  const result = diggerProfileSchema.safeParse(
    form({ ...valid, bio: "", hourlyRateMin: "9", hourlyRateMax: "8", "references.0.email": "" }),
  );
  expect(result.error?.issues.map((i) => i.message)).toEqual([
    "Bio is required",
    "Minimum hourly rate cannot be greater than maximum hourly rate",
    "Reference email is required",
  ]);
});

describe("photoProblem", () => {
  it("accepts JPEG, PNG and WebP up to 5 MB", () => {
    expect(photoProblem({ type: "image/webp", size: 5 * 1024 * 1024 })).toBeNull();
    expect(photoProblem({ type: "image/gif", size: 10 })).toBe("Photos must be JPEG, PNG or WebP images");
    expect(photoProblem({ type: "image/png", size: 5 * 1024 * 1024 + 1 })).toBe("Each photo must be 5 MB or smaller");
  });
});

it("names each message by the form's field, references by their numbered fields", () => {
  const result = diggerProfileSchema.safeParse(
    form({ ...valid, handle: "", "references.0.email": "", "references.1.name": "Second", "references.1.email": "nope", "references.1.phone": "5".repeat(31) }),
  );
  expect(result.success ? {} : fieldMessages(result.error)).toEqual({
    handle: "Handle is required",
    "references.1.phone": "Reference phone must be at most 30 characters",
    "references.0.email": "Reference email is required",
    "references.1.email": "Please enter a valid reference email address",
  });
});

describe("reference contact request forms", () => {
  const id = "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab";
  const messageOf = (result: { success: boolean; error?: Parameters<typeof firstMessage>[0] }) =>
    result.success ? undefined : firstMessage(result.error!);

  it("asks for a reference by its id", () => {
    expect(referenceContactSchema.parse({ referenceId: id })).toEqual({ referenceId: id });
    for (const referenceId of ["nope", null, ""]) {
      expect(messageOf(referenceContactSchema.safeParse({ referenceId }))).toBe("Failed to send request");
    }
  });

  it("approves or declines one request", () => {
    expect(referenceDecisionSchema.parse({ requestId: id, decision: "decline" })).toEqual({ requestId: id, decision: "decline" });
    for (const input of [{ requestId: "nope", decision: "approve" }, { requestId: id, decision: "maybe" }, { requestId: id, decision: null }]) {
      expect(messageOf(referenceDecisionSchema.safeParse(input))).toBe("Failed to update request");
    }
  });
});
