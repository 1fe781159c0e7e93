/**
 * A page's HTML as a Response (decision 0065): rendered whole, by React's string renderer, and
 * sent with its length; by React's stream renderer where the string renderer left a Suspense
 * boundary to the browser (a component that suspended, or failed, inside one), which waits for
 * the one and reports the other.
 *
 * Every loader has finished before a page renders and none of ours defers data, so streaming
 * would send nothing sooner. The stream renderer costs several times the string renderer on the
 * same page: it encodes each of its thousands of small pieces into bytes as it goes.
 *
 * The string renderer hands the page over in segments (`renderToStringSegments`, our patch of
 * react-dom, patches/react-dom+19.3.1.patch; decision 0089): one string of a whole page would be
 * flattened into V8's large-object space before it could be encoded when it is over 128 KB, as a
 * page of more than 64K characters is once one character of it is outside Latin-1 (an en dash, a
 * curly apostrophe, an emoji): a fresh memory mapping at every request, 0.6-1 ms on the bench's
 * machine, 16% of My Leads' CPU (bench/README, "Issue 52, seventh session").
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { ReactNode } from "react";
import { renderToPipeableStream, renderToStringSegments } from "react-dom/server";
import { wholeResponse } from "#server/web/compression.ts";

declare module "react-dom/server" {
  /**
   * renderToString's page as strings of at most `segmentLength` characters, or one piece of
   * React's longer than that, and whether it left a Suspense boundary to the browser (our patch).
   */
  export function renderToStringSegments(
    element: ReactNode,
    segmentLength: number,
    options?: ServerOptions,
  ): { segments: string[]; leftToTheBrowser: boolean };
}

/** What React writes where it left a Suspense boundary to the browser (`leftToTheBrowser`). */
export const LEFT_TO_THE_BROWSER = "<!--$!-->";

const DOCTYPE = Buffer.from("<!DOCTYPE html>");

/** How long the stream renderer may wait for what suspended, before it gives it to the browser. */
export const STREAM_TIMEOUT_MS = 5_000;

/**
 * A segment's most characters: 16K two-byte characters are 32 KB, well inside V8's 128 KB for an
 * ordinary heap object. One piece of React's longer than that (a long text, the data for
 * hydration) is a segment of its own.
 */
export const SEGMENT_LENGTH = 16_384;

export interface PageOptions {
  status: number;
  headers: Headers;
  /** The Content-Security-Policy nonce of the inline scripts React writes. */
  nonce: string | undefined;
  /** A streamed page starts once all of it is ready (bots), rather than with its shell. */
  waitForAll: boolean;
  /** An error React met inside a Suspense boundary, which it left to the browser (the page is a 500). */
  onBoundaryError: (error: unknown) => void;
}

/** Where a page's UTF-8 is written first: at most three bytes a UTF-16 unit, grown when a page needs more, up to SCRATCH_MAX_BYTES. */
let scratch = Buffer.allocUnsafe(256 * 1024);
const SCRATCH_MAX_BYTES = 4 * 1024 * 1024;
const encoder = new TextEncoder();

/**
 * The doctype (the string renderer leaves out the one the stream renderer writes before <html>)
 * and the page, as bytes. Each segment is written in turn into a buffer big enough for any
 * page of its length, and the bytes copied out: measuring the UTF-8 length first would walk the
 * page twice (120 of 490 µs more on My Leads' 111 KB, issue 52).
 */
export function pageBytes(segments: readonly string[]): Buffer {
  let most = DOCTYPE.length;
  for (const segment of segments) most += segment.length * 3;
  if (scratch.length < most && most <= SCRATCH_MAX_BYTES) scratch = Buffer.allocUnsafe(most);
  // A page larger than the scratch may grow to gets a buffer of its own, not kept.
  const target = scratch.length >= most ? scratch : Buffer.allocUnsafe(most);
  let length = DOCTYPE.copy(target);
  for (const segment of segments) length += encoder.encodeInto(segment, target.subarray(length)).written;
  const body = Buffer.allocUnsafe(length);
  target.copy(body, 0, 0, length);
  return body;
}

export async function renderPage(page: ReactNode, options: PageOptions): Promise<Response> {
  // An error outside every boundary throws here, as the stream renderer's shell error rejects.
  // React says so itself, rather than a search of the page's bytes for LEFT_TO_THE_BROWSER
  // (46 µs on My Leads' 96 KB, issue 52).
  const { segments, leftToTheBrowser } = renderToStringSegments(page, SEGMENT_LENGTH);
  if (leftToTheBrowser) return streamPage(page, options);
  const body = pageBytes(segments);
  options.headers.set("Content-Type", "text/html");
  return wholeResponse(body, { headers: options.headers, status: options.status });
}

/** React Router's default Node rendering: the page streamed as React renders it. */
function streamPage(page: ReactNode, { status, headers, nonce, waitForAll, onBoundaryError }: PageOptions): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // A boundary's error before the page starts is told when it starts: React reports the shell's
    // own error here too, and that one rejects instead (React Router logs it).
    const early: unknown[] = [];
    // Abort after the timeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), STREAM_TIMEOUT_MS + 1000);
    const ready = () => {
      shellRendered = true;
      for (const error of early.splice(0)) onBoundaryError(error);
      const body = new PassThrough({
        final(callback) {
          clearTimeout(timeoutId);
          timeoutId = undefined;
          callback();
        },
      });
      headers.set("Content-Type", "text/html");
      pipe(body);
      resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
    };
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      // Every finished boundary written in place, as the string renderer writes it, never moved
      // to a hidden element that a script puts back (long lists have a boundary a card).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
      onShellError(error: unknown) {
        early.length = 0;
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) onBoundaryError(error);
        else early.push(error);
      },
    });
  });
}
