/**
 * The one place that turns an operation's outcome into what React Router needs
 * (docs/decisions/0013-app-error.md). The route adapter (operations.ts, decision 0044) runs every
 * operation through `runLoader` or `runAction`; routes never call them (ESLint). An `AppError` becomes:
 * - with `redirectTo`: a redirect carrying the message as a flash toast (pages the person may
 *   not see or use: "Please sign in to post a gig", "Gig not found");
 * - from a loader: an error response with the status (404 shows the not-found page);
 * - from an action: `{ error, fieldErrors }` with the status, which the form shows as a toast
 *   and beside its fields.
 * Anything else is a fault: React Router logs it (entry.server) and shows the error page.
 */
import { data, type AppLoadContext, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { AppError } from "../errors.ts";
import { redirectWithFlash } from "./flash.ts";

/** What a failed action returns to its form. */
export interface ActionFailure {
  error: string;
  fieldErrors?: Record<string, string>;
}

/** The data an action answers with when it succeeds (a redirect carries none). */
type Payload<T> = T extends DataWithResponseInit<infer D> ? D : T extends Response ? never : T;
type KeysOf<T> = T extends unknown ? keyof T : never;
/** A failure, typed so that a component can read the success's fields from either. */
type FailureOf<T> = ActionFailure & { [K in Exclude<KeysOf<Payload<T>>, keyof ActionFailure>]?: undefined };

async function redirectOf(context: AppLoadContext, error: AppError, redirectTo: string): Promise<Response> {
  return redirectWithFlash(context.services.config, redirectTo, "error", error.message);
}

function logFault(context: AppLoadContext, error: AppError) {
  if (error.status >= 500) context.logger.error({ err: error.cause ?? error, code: error.code }, error.message);
}

export async function runLoader<T>(context: AppLoadContext, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.redirectTo) throw await redirectOf(context, error, error.redirectTo);
    logFault(context, error);
    throw data<ActionFailure>({ error: error.message }, { status: error.status });
  }
}

/**
 * `echo` goes back with a failure as it came: which of a page's forms it was (`{ intent }`), so
 * that the page shows the messages beside that form even before JavaScript runs.
 */
export async function runAction<T, E extends Record<string, unknown> = Record<never, never>>(
  context: AppLoadContext,
  operation: () => Promise<T>,
  echo?: E,
): Promise<T | Response | DataWithResponseInit<FailureOf<T> & E>> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.redirectTo) return redirectOf(context, error, error.redirectTo);
    logFault(context, error);
    const failure = { ...echo, error: error.message, fieldErrors: error.fieldErrors } as FailureOf<T> & E;
    return data(failure, { status: error.status });
  }
}
