import { describe, expect, it } from "vitest";
import { CONTACT_LIMITS, contactSchema, INVALID_EMAIL, MISSING_REQUIRED_FIELDS } from "../../core/contact-schema.ts";
import { formProblem } from "../../core/forms.ts";

/** The schema's answer as the form sees it: the data, or the notice and each field's message. */
function validateContactForm(input: unknown) {
  const parsed = contactSchema.safeParse(input);
  if (parsed.success) return { success: true as const, data: parsed.data };
  const { message, fieldErrors } = formProblem(parsed.error);
  return { success: false as const, error: message, fieldErrors };
}

const valid = { name: "Ada Lovelace", email: "ada@example.com", subject: "A question", message: "Hello there." };
const fill = (length: number) => "x".repeat(length);

describe("contact form rules (spec sections 5 and 9)", () => {
  it("accepts a complete form and trims it", () => {
    expect(validateContactForm({ ...valid, name: "  Ada  ", email: " ada@example.com " })).toEqual({
      success: true,
      data: { ...valid, name: "Ada", email: "ada@example.com" },
    });
  });

  it("takes the subject as optional", () => {
    for (const subject of [undefined, "", "   "]) {
      const result = validateContactForm({ ...valid, subject });
      expect(result.success && result.data.subject).toBe("");
    }
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ name: "   " }, "name", "Name is required"],
    [{ email: "" }, "email", "Email is required"],
    [{ message: "\n  \n" }, "message", "Message is required"],
    [{ name: undefined, message: undefined }, "name", "Name is required"],
  ])("asks for every required field: %j", (change, field, fieldMessage) => {
    const result = validateContactForm({ ...valid, ...change });
    expect(result).toMatchObject({ success: false, error: MISSING_REQUIRED_FIELDS });
    expect(!result.success && result.fieldErrors[field]).toBe(fieldMessage);
  });

  it("reports a missing field first, then an invalid e-mail, then anything else", () => {
    expect(validateContactForm({ ...valid, email: "nope", message: "" })).toMatchObject({ error: MISSING_REQUIRED_FIELDS });
    expect(validateContactForm({ ...valid, name: fill(101), email: "nope" })).toMatchObject({ error: INVALID_EMAIL });
    for (const email of ["nope", "a@b", "@example.com", "ada@@example.com"]) {
      expect(validateContactForm({ ...valid, email })).toMatchObject({
        success: false,
        error: INVALID_EMAIL,
        fieldErrors: { email: "Enter an e-mail address such as name@example.com" },
      });
    }
  });

  it.each([
    ["name", CONTACT_LIMITS.name, "Name must be at most 100 characters"],
    ["subject", CONTACT_LIMITS.subject, "Subject must be at most 200 characters"],
    ["message", CONTACT_LIMITS.message, "Message must be at most 1000 characters"],
  ])("limits %s to %i characters", (field, max, message) => {
    expect(validateContactForm({ ...valid, [field]: fill(max) }).success).toBe(true);
    expect(validateContactForm({ ...valid, [field]: fill(max + 1) })).toMatchObject({ success: false, error: message });
  });

  it("limits the e-mail to 255 characters", () => {
    const at255 = `${fill(64)}@${fill(60)}.${fill(60)}.${fill(60)}.${fill(7)}`;
    expect(at255).toHaveLength(255);
    expect(validateContactForm({ ...valid, email: at255 }).success).toBe(true);
    expect(validateContactForm({ ...valid, email: `x${at255}` })).toMatchObject({
      error: "Email must be at most 255 characters",
    });
  });

  it("counts a submitted line break (CRLF) as one character, as the counter in the browser does", () => {
    const lines = `${fill(499)}\r\n${fill(500)}`;
    const result = validateContactForm({ ...valid, message: lines });
    expect(result.success && result.data.message).toBe(`${fill(499)}\n${fill(500)}`);
  });

  it("keeps the name and subject on one line, so they cannot add e-mail headers", () => {
    const result = validateContactForm({ ...valid, name: "Ada\r\nBcc: x@example.com", subject: "Hi\n\tthere" });
    expect(result.success && [result.data.name, result.data.subject]).toEqual(["Ada Bcc: x@example.com", "Hi there"]);
  });

  it("rejects values that are not text", () => {
    expect(validateContactForm({ ...valid, name: 42 })).toMatchObject({ error: MISSING_REQUIRED_FIELDS });
    expect(validateContactForm(null)).toMatchObject({ success: false });
  });
});
