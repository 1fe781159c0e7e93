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
import { discardFiles, type UploadedFile } from "../storage/storage.ts";
import type { Operation, RouteRequest } from "../operation.ts";
import { runAction, runLoader } from "./respond.ts";

/** What a loader or an action receives from React Router (the parts an operation needs). */
export interface RouteArgs extends RouteRequest {
  context: AppLoadContext;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any caller, any input: the operation's own types check its run
type AnyOperation = Operation<any, any, unknown>;
type OutputOf<Op> = Op extends Operation<unknown, unknown, infer O> ? O : never;

/** A form as a page's reader read it: its fields, and the files it already checked and stored. */
export interface ReadForm {
  form: FormData;
  files?: UploadedFile[];
}

/**
 * How a page reads its form when `request.formData()` will not do: a body of files streamed to
 * storage as it arrives (the thread's `readMessageForm`). The adapter calls it only after the
 * page's access rule has let the caller in, so a visitor's or a stranger's upload is never read
 * into storage; an operation finds the stored files in its context's `files`.
 */
export type FormReader = (args: RouteArgs) => Promise<ReadForm>;

/** What `serveAction` and `serveIntents` take besides the operations. */
export interface ServeOptions {
  /** The page's own form reader, called after the access rule (`FormReader`). */
  readForm?: FormReader;
}

async function invoke<Op extends AnyOperation>(
  args: RouteArgs,
  operation: Op,
  read: ReadForm | null,
  /** The caller, when the page's rule was applied already (before its form was read). */
  resolved?: unknown,
): Promise<OutputOf<Op>> {
  const { request, url, params, context } = args;
  const caller = resolved ?? (await operation.access.resolve(context, args));
  const form = read?.form ?? null;
  const files = read?.files ?? [];
  let input: unknown;
  try {
    input = operation.parse(form, url, { ...(caller as object), services: context.services });
  } catch (error) {
    // A form its schema refuses: the files its reader stored will go with no message.
    await discardFiles(context.services.storage, files);
    throw error;
  }
  const authApi = authApiFor(context, request);
  return (await operation.run({ ...(caller as object), services: context.services, input, params, url, form, files, authApi })) as OutputOf<Op>;
}

/**
 * The request's form. A POST without a Content-Type sends none: it is read as an empty one (a
 * script's Sign Out still signs out, as before it was an operation); a body that is not a form
 * is refused as bad input, not answered with a 500.
 */
async function formDataOf({ request }: RouteArgs): Promise<ReadForm> {
  if (!request.headers.get("content-type")) return { form: new FormData() };
  try {
    return { form: await request.formData() };
  } catch {
    throw new AppError("invalid_input", "The form could not be read. Please reload the page and try again.");
  }
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

/**
 * A form sent to one operation; `respond` turns its answer into the route's (a redirect with a
 * toast, say). With `options.readForm` the access rule comes first, then the page's reader.
 */
export async function serveAction<Op extends AnyOperation, R = OutputOf<Op>>(
  args: RouteArgs,
  operation: Op,
  respond?: (output: OutputOf<Op>) => R | Promise<R>,
  options: ServeOptions = {},
) {
  return runAction(args.context, async () => {
    const { readForm } = options;
    let output: OutputOf<Op>;
    if (readForm) {
      const caller = await operation.access.resolve(args.context, args);
      output = await invoke(args, operation, await readForm(args), caller);
    } else {
      output = await invoke(args, operation, await formDataOf(args));
    }
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
 * (`answering`). A failure goes back with the intent (`{ intent }`, and what `echo` adds), so
 * that the page shows its messages beside that form.
 *
 * `readForm` (`ServeOptions`): the page reads its form itself (files streamed to storage). The
 * intent is in the body, so the page's operations share one access rule, applied before the
 * body is read; without it the form is read first and each intent's rule applies.
 */
export async function serveIntents<M extends Record<string, Entry>>(
  args: RouteArgs,
  operations: M,
  options: ServeOptions & {
    /** More for a failure to carry than its intent (the form's review, say). */
    echo?: (form: FormData, intent: string) => Record<string, unknown>;
  } = {},
) {
  const operationOf = (entry: Entry): AnyOperation => ("respond" in entry ? entry.operation : entry);
  const { readForm, echo } = options;
  const [first, ...others] = Object.values(operations).map(operationOf);
  if (readForm && others.some((operation) => operation.access !== first?.access)) {
    throw new Error("serveIntents: a page that reads its own form has one access rule for all its operations");
  }
  // Filled in once the form is read: what a failure carries back.
  const echoed: Record<string, unknown> = {};
  return runAction(
    args.context,
    async (): Promise<AnswerOf<M[keyof M]>> => {
      // The page's rule before its reader: nothing of a refused caller's body is stored.
      const caller = readForm && first ? await first.access.resolve(args.context, args) : undefined;
      const read = readForm ? await readForm(args) : await formDataOf(args);
      const intent = String(read.form.get("intent") ?? "");
      Object.assign(echoed, { intent, ...echo?.(read.form, intent) });
      const named = Object.hasOwn(operations, intent) ? operations[intent] : undefined;
      const entry = named ?? (Object.hasOwn(operations, "*") ? operations["*"] : undefined);
      if (!entry) {
        // Refused as the page's forms are: whoever may not use the page learns nothing more.
        if (first && !caller) await first.access.resolve(args.context, args);
        throw new AppError("invalid_input", "Unknown action");
      }
      const output = await invoke(args, operationOf(entry), read, caller);
      return ("respond" in entry ? await entry.respond(output) : output) as AnswerOf<M[keyof M]>;
    },
    echoed as { intent: string } & Record<string, unknown>,
  );
}
