/**
 * Server rendering: the page rendered whole (app/render-page.server.ts, decision 0065), with
 * the request's Content-Security-Policy nonce (made in server/app.ts) on every inline script
 * React and React Router write, and the handling of failed requests.
 */
import { isbot } from "isbot";
import { isRouteErrorResponse, ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "react-router";
import { isDatabaseUnavailable } from "#server/db/errors.ts";
import { NonceContext } from "#app/lib/nonce.ts";
import { renderPage, STREAM_TIMEOUT_MS } from "#app/render-page.server.ts";

/** React Router's: how long its data for hydration may wait for a deferred value. */
export const streamTimeout = STREAM_TIMEOUT_MS;

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

type HandoffCache = NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]>;

/**
 * React Router's data for hydration (the turbo-stream of the loaders' data), read whole, in the
 * shape of the cache that its `StreamTransfer` fills while it reads the stream during a
 * streamed render (entry n: the n-th read). With every entry there, nothing waits, and the
 * string renderer can write it. `EntryContext`'s types name this cache;
 * tests/integration/document-render.test.ts checks that pages carry the data this way.
 */
async function readHandoff(stream: ReadableStream<Uint8Array>): Promise<HandoffCache> {
  const decoder = new TextDecoder();
  let value = "";
  const reader = stream.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) value += decoder.decode(chunk.value, { stream: true });
  value += decoder.decode();
  // React Router takes its own reader of the stream, now at its end.
  reader.releaseLock();
  const read = (done: boolean, text: string) => Object.assign(Promise.resolve(), { result: { done, value: text } });
  return { 0: read(false, value), 1: read(true, "") };
}

export default async function handleRequest(
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
  if (routerContext.serverHandoffStream) (routerContext.renderMeta ??= {}).streamCache = await readHandoff(routerContext.serverHandoffStream);
  const userAgent = request.headers.get("user-agent");
  return renderPage(
    <NonceContext.Provider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
    {
      status: responseStatusCode,
      headers: responseHeaders,
      nonce,
      // Bots and SPA mode wait for all content before the response starts.
      waitForAll: Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode,
      onBoundaryError: (error) => loadContext.logger.error({ err: error }, "a part of the page failed to render"),
    },
  );
}
