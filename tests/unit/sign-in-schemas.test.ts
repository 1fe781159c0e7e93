import { describe, expect, it } from "vitest";
import { signInSchema, signUpSchema, forgotPasswordSchema } from "../../core/sign-in-schemas.ts";
import { firstMessage } from "../../core/forms.ts";

const messageOf = (result: { success: boolean; error?: Parameters<typeof firstMessage>[0] }) =>
  result.success ? undefined : firstMessage(result.error!);

const validSignUp = {
  fullName: "Ada Lovelace",
  email: "ada@example.com",
  password: "secret1",
  userType: "consumer",
  ageConfirmed: "on",
};

describe("sign-up rules (spec section 5)", () => {
  it("accepts a complete form", () => {
    expect(signUpSchema.safeParse(validSignUp).success).toBe(true);
  });
  it.each([
    [{ fullName: "  " }, "Full name is required"],
    [{ email: "" }, "Email is required"],
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ password: "" }, "Password is required"],
    [{ password: "12345" }, "Password must be at least 6 characters"],
    [{ userType: "admin" }, "Please choose Consumer or Digger"],
    [{ ageConfirmed: undefined }, "Please confirm you are 18 or older"],
  ])("rejects %j with %s", (change, message) => {
    expect(messageOf(signUpSchema.safeParse({ ...validSignUp, ...change }))).toBe(message);
  });
});

describe("sign-in and reset rules", () => {
  it("require e-mail and password", () => {
    expect(messageOf(signInSchema.safeParse({ email: "", password: "x" }))).toBe("Email is required");
    expect(messageOf(signInSchema.safeParse({ email: "a@b.co", password: "" }))).toBe("Password is required");
  });
  it("reset requires a valid e-mail", () => {
    expect(messageOf(forgotPasswordSchema.safeParse({ email: "" }))).toBe("Email is required");
    expect(messageOf(forgotPasswordSchema.safeParse({ email: "nope" }))).toBe("Please enter a valid email address");
    expect(forgotPasswordSchema.safeParse({ email: " a@b.co " }).success).toBe(true);
  });
});
