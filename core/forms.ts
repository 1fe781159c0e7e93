/**
 * The one form contract: every form is a zod schema in core with the spec's messages. A
 * failed parse yields the first message (the spec shows it as a toast) and each field's own
 * message (shown beside the field). Browser and server use the same schema.
 */
import type { z } from "zod";

/** The first message of a failed parse: the spec shows it as a toast. */
export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Please check the form";
}

/** Field-by-field messages, for showing each beside its field: the first one per field, by its
 * path as the form names it ("references.0.email"). */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    out[key] ??= issue.message;
  }
  return out;
}

export interface FormProblem {
  message: string;
  fieldErrors: Record<string, string>;
}

export function formProblem(error: z.ZodError): FormProblem {
  return { message: firstMessage(error), fieldErrors: fieldMessages(error) };
}
