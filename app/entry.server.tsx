/**
 * Server rendering: React Router's default Node entry, plus the request's Content-Security-
 * Policy nonce (made in server/app.ts) on every inline script React and React Router stream,
 * and the handling of failed requests.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "react-router";
import { isDatabaseUnavailable } from "#server/db/errors.ts";
import { NonceContext } from "#app/lib/nonce.ts";

export const streamTimeout = 5_000;

/**
 * A loader, action or render that failed (not a thrown redirect or response): logged with
 * the request's id, and noted when the database was away, which server/app.ts answers 503.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // The router's own refusals (a POST to a page without an action: 405; no such route: 404) are
  // the client's mistake, not a fault: noted, not logged as errors.
  if (isRouteErrorResponse(error) && error.status < 500) {
    context.logger.info({ status: error.status, method: request.method, path: new URL(request.url).pathname }, "request refused");
    return;
  }
  const cause = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;
  if (isDatabaseUnavailable(cause)) context.failure.databaseUnavailable = true;
  context.logger.error({ err: cause }, "request failed");
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Bots and SPA mode wait for all content before the response starts.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    // Abort after streamTimeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell reject and are logged by React Router; later ones only here.
          if (shellRendered) loadContext.logger.error({ err: error }, "streaming render failed");
        },
      },
    );
  });
}
