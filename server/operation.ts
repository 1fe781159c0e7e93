/**
 * One shape per operation (docs/decisions/0044-one-shape-per-operation.md): an operation
 * declares who may run it (`access`, a rule from server/guards.ts), what it takes
 * (`input`, a core zod schema read from the form's fields) and its work (`run`, with one
 * context argument). The route adapter (server/web/operations.ts, `serveLoader`/`serveIntents`...) looks
 * up the session, applies the rule, parses the input and dispatches a page's forms on their
 * `intent`; a test or a job calls `perform` with the caller already known.
 */
import type { z } from "zod";
import { authApiFor, type AuthApi } from "./auth/api.ts";
import { parsedInput } from "./errors.ts";
import type { UploadedFile } from "./storage/storage.ts";
import type { AppServices, RequestContext } from "./context.ts";

/**
 * An access rule: a value that says who may run an operation and what the operation learns
 * of its caller (`{ user }`, `{ user, diggerId }`...). A refusal is an `AppError` (a flash
 * redirect, a 403, or the 404 page), thrown by `resolve`.
 */
export interface Access<A> {
  resolve(context: RequestContext, route: RouteRequest): Promise<A>;
}

/** What a loader or an action was called with, as an access rule and an operation read it. */
export interface RouteRequest {
  /**
   * The request as it came (future.v8_passThroughRequests): a client navigation's is
   * `/page.data?_routes=…`, a form sent to an index route carries `?index`. Its headers and
   * body, never its address: that is `url`.
   */
  request: Request;
  /** The page's address, as React Router normalized it: no `.data`, `index` or `_routes`. */
  url: URL;
  params: Params;
}

/** The route's parameters, as typed in the address (unchecked: the operation checks them). */
export type Params = Readonly<Record<string, string | undefined>>;

type InputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What `run` receives: the caller as the access rule resolved it, and the request's parts. */
export type OperationContext<A, I> = A & {
  services: AppServices;
  /** The form's fields parsed by `input` (an action), or undefined without a schema. */
  input: I;
  params: Params;
  /** The page's address (`RouteRequest`'s `url`): a loader's search parameters. */
  url: URL;
  /** The form sent, for what a schema does not carry (a file); null for a loader. */
  form: FormData | null;
  /** The files the page's form reader already checked and stored (the thread's attachments); none otherwise. */
  files: UploadedFile[];
  /** Better Auth's API on the caller's behalf (their cookie, their address): a confirmation e-mail sent again, say. */
  authApi: AuthApi;
};

/** What an input schema made at each call may depend on: the services (the config) and the caller. */
export type InputContext<A> = A & { services: AppServices };

export interface Operation<A, I, O> {
  readonly access: Access<A>;
  /**
   * The form's fields (a loader: the address's search parameters) parsed, or an `invalid_input`
   * error with the form's messages (decision 0013).
   */
  parse(form: FormData | null, url: URL, context: InputContext<A>): I;
  run(context: OperationContext<A, I>): Promise<O>;
}

export function defineOperation<A, O, S extends z.ZodType | undefined = undefined>(definition: {
  access: Access<A>;
  /**
   * The schema, or what makes it at each call from the services and the caller (a schema that
   * knows today's date, the config, or the caller's own e-mail address).
   */
  input?: S | ((context: InputContext<A>) => S);
  /**
   * How the form becomes the schema's fields, when one entry per name will not do (a field sent
   * several times, or one the address may carry instead: `url`).
   */
  fields?: (form: FormData, url: URL) => Record<string, unknown>;
  run(context: OperationContext<A, InputOf<S>>): Promise<O>;
}): Operation<A, InputOf<S>, O> {
  const { access, input, fields, run } = definition;
  return {
    access,
    parse: (form, url, context) => {
      if (!input) return undefined as InputOf<S>;
      const schema = (typeof input === "function" ? input(context) : input) as z.ZodType;
      const values = form ? (fields ? fields(form, url) : Object.fromEntries(form)) : Object.fromEntries(url.searchParams);
      return parsedInput(schema, values) as InputOf<S>;
    },
    run,
  };
}

/** The caller-independent parts of a call, for `perform`. */
export interface Call {
  services: AppServices;
  params?: Params;
  url?: URL | string;
  form?: FormData | null;
  /** Files already stored, as a page's form reader hands them on. */
  files?: UploadedFile[];
  /** Better Auth's API as the caller; by default as a cookie-less caller from 127.0.0.1. */
  authApi?: AuthApi;
}

/**
 * Runs `operation` for a caller already resolved (a test, a job): parses the form as the
 * route adapter would, then runs it. No session, no access check.
 */
export async function perform<A, I, O>(operation: Operation<A, I, O>, caller: A, call: Call): Promise<O> {
  const form = call.form ?? null;
  const url = new URL(call.url ?? "http://localhost/");
  const input = operation.parse(form, url, { ...caller, services: call.services });
  const authApi = call.authApi ?? authApiFor({ services: call.services, clientIp: "127.0.0.1" }, new Request(url));
  return operation.run({ ...caller, services: call.services, input, params: call.params ?? {}, url, form, files: call.files ?? [], authApi });
}
