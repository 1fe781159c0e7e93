/**
 * The route adapter of operations declared with `defineOperation` (server/operation.ts,
 * docs/decisions/0044-one-shape-per-operation.md): a loader or action hands its route's
 * arguments and its operation here, and this does the rest in one order for every page:
 * the session lookup and the access rule, the form's `intent` (a page with several forms
 * names one operation per intent), the input parsed by the operation's schema, the work; an
 * `AppError` on the way becomes what `runLoader`/`runAction` (respond.ts) make of it.
 */
import type { AppLoadContext } from "react-router";
import { authApiFor } from "../auth/api.ts";
import { AppError } from "../errors.ts";
import type { Operation, Params } from "../operation.ts";
import { runAction, runLoader } from "./respond.ts";

/** What a loader or an action receives from React Router (the parts an operation needs). */
export interface RouteArgs {
  request: Request;
  params: Params;
  context: AppLoadContext;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any caller, any input: the operation's own types check its run
type AnyOperation = Operation<any, any, unknown>;
type OutputOf<Op> = Op extends Operation<unknown, unknown, infer O> ? O : never;

async function invoke<Op extends AnyOperation>({ request, params, context }: RouteArgs, operation: Op, form: FormData | null): Promise<OutputOf<Op>> {
  const caller = await operation.access.resolve(context, request, params);
  const url = new URL(request.url);
  const input = operation.parse(form ? Object.fromEntries(form) : Object.fromEntries(url.searchParams));
  const authApi = authApiFor(context, request);
  return (await operation.run({ ...caller, services: context.services, input, params, url, form, authApi })) as OutputOf<Op>;
}

/** A loader: the operation's answer is the page's data. */
export async function serveLoader<Op extends AnyOperation>(args: RouteArgs, operation: Op): Promise<OutputOf<Op>> {
  return runLoader(args.context, () => invoke(args, operation, null));
}

/**
 * A resource loader read by a fetcher (a dialog's data): a failure is answered as data with its
 * status, as an action's is, and shown as a toast; thrown (serveLoader) it would put the page
 * behind the fetcher under its error page.
 */
export async function serveFetched<Op extends AnyOperation>(args: RouteArgs, operation: Op) {
  return runAction(args.context, () => invoke(args, operation, null) as Promise<OutputOf<Op>>);
}

/** A form sent to one operation; `respond` turns its answer into the route's (a redirect with a toast, say). */
export async function serveAction<Op extends AnyOperation, R = OutputOf<Op>>(
  args: RouteArgs,
  operation: Op,
  respond?: (output: OutputOf<Op>) => R | Promise<R>,
) {
  return runAction(args.context, async () => {
    const output = await invoke(args, operation, await args.request.formData());
    return respond ? respond(output) : (output as R);
  });
}

/** A form's operation and what its answer becomes (`answering`), for `serveIntents`. */
export interface Answering<R> {
  operation: AnyOperation;
  respond(output: unknown): R | Promise<R>;
}

/** `operation`, with `respond` turning its answer into the route's (a redirect with a toast, say). */
export function answering<Op extends AnyOperation, R>(operation: Op, respond: (output: OutputOf<Op>) => R | Promise<R>): Answering<R> {
  return { operation, respond: respond as (output: unknown) => R | Promise<R> };
}

type Entry = AnyOperation | Answering<unknown>;
type AnswerOf<E> = E extends Answering<infer R> ? R : OutputOf<E>;

/**
 * A page with several forms: the form's `intent` names its operation (`"*"`: any other intent,
 * none included, for a form that sends none), or its operation and what its answer becomes
 * (`answering`). A failure goes back with
 * the intent (`{ intent }`), so that the page shows its messages beside that form.
 */
export async function serveIntents<M extends Record<string, Entry>>(
  args: RouteArgs,
  operations: M,
  /** More for a failure to carry than its intent (the form's review, say). */
  echo?: (form: FormData, intent: string) => Record<string, unknown>,
) {
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  const operationOf = (entry: Entry): AnyOperation => ("respond" in entry ? entry.operation : entry);
  return runAction(
    args.context,
    async (): Promise<AnswerOf<M[keyof M]>> => {
      const named = Object.hasOwn(operations, intent) ? operations[intent] : undefined;
      const entry = named ?? (Object.hasOwn(operations, "*") ? operations["*"] : undefined);
      if (!entry) {
        // Refused as the page's forms are: whoever may not use the page learns nothing more.
        const [first] = Object.values(operations);
        if (first) await operationOf(first).access.resolve(args.context, args.request, args.params);
        throw new AppError("invalid_input", "Unknown action");
      }
      const output = await invoke(args, operationOf(entry), form);
      return ("respond" in entry ? await entry.respond(output) : output) as AnswerOf<M[keyof M]>;
    },
    { intent, ...echo?.(form, intent) },
  );
}
