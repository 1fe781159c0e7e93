/**
 * The one error type of server operations (docs/decisions/0013-app-error.md). An operation
 * returns plain data, or throws an `AppError` saying what went wrong in words for the person
 * (the toast's message), with per-field messages for a form and, for a page that cannot be
 * shown, where to send the browser instead. `server/web/respond.ts` turns it into the
 * response the route needs; operations never build responses themselves.
 */
import type { z } from "zod";
import { formProblem } from "#core/forms.ts";

export type AppErrorCode =
  | "invalid_input"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_many_requests"
  | "unavailable"
  | "failed";

const STATUS: Record<AppErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  failed: 500,
};

export interface AppErrorOptions {
  /** The HTTP status, when it is not the code's usual one (an upstream's 502, say). */
  status?: number;
  /** Each field's own message, shown beside the field. */
  fieldErrors?: Record<string, string>;
  /** For a page the person cannot see or use: go there, with the message as a flash toast. */
  redirectTo?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly status: number;
  readonly fieldErrors?: Record<string, string>;
  readonly redirectTo?: string;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? STATUS[code];
    this.fieldErrors = options.fieldErrors;
    this.redirectTo = options.redirectTo;
  }
}

/** The input, parsed by a core schema; or an `invalid_input` error with the form's messages. */
export function parsedInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { message, fieldErrors } = formProblem(result.error);
  throw new AppError("invalid_input", message, { fieldErrors });
}
