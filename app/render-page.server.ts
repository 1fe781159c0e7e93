/**
 * A page's HTML as a Response (decision 0065): rendered whole, into one string, by React's
 * string renderer, and sent with its length; by React's stream renderer where the string
 * renderer left a Suspense boundary to the browser (a component that suspended, or failed,
 * inside one), which waits for the one and reports the other.
 *
 * Every loader has finished before a page renders and none of ours defers data, so streaming
 * would send nothing sooner. The stream renderer costs several times the string renderer on the
 * same page: it encodes each of its thousands of small pieces into bytes as it goes.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { ReactNode } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { wholeResponse } from "#server/web/compression.ts";

/** What React writes where it left a Suspense boundary to the browser. */
export const LEFT_TO_THE_BROWSER = "<!--$!-->";

const DOCTYPE = Buffer.from("<!DOCTYPE html>");

/** How long the stream renderer may wait for what suspended, before it gives it to the browser. */
export const STREAM_TIMEOUT_MS = 5_000;

export interface PageOptions {
  status: number;
  headers: Headers;
  /** The Content-Security-Policy nonce of the inline scripts React writes. */
  nonce: string | undefined;
  /** A streamed page starts once all of it is ready (bots), rather than with its shell. */
  waitForAll: boolean;
  /** An error React met after the page had started. */
  onLateError: (error: unknown) => void;
}

/** Where a page's UTF-8 is written first: at most three bytes a UTF-16 unit, grown when a page needs more, up to SCRATCH_MAX_BYTES. */
let scratch = Buffer.allocUnsafe(256 * 1024);
const SCRATCH_MAX_BYTES = 4 * 1024 * 1024;
const encoder = new TextEncoder();

/**
 * The doctype (the string renderer leaves out the one the stream renderer writes before <html>)
 * and the page, as bytes. The string comes in thousands of pieces; joining it to the doctype as a
 * string would copy it whole once more, and measuring its UTF-8 length before writing it walks
 * it twice: it is written once into a buffer big enough for any string of its length, and the
 * bytes copied out (120 of 490 µs less on My Leads' 111 KB, issue 52).
 */
function pageBytes(html: string): Buffer {
  const most = html.length * 3;
  if (scratch.length < most && most <= SCRATCH_MAX_BYTES) scratch = Buffer.allocUnsafe(most);
  // A page larger than the scratch may grow to gets a buffer of its own, not kept.
  const target = scratch.length >= most ? scratch : Buffer.allocUnsafe(most);
  const { written } = encoder.encodeInto(html, target);
  const body = Buffer.allocUnsafe(DOCTYPE.length + written);
  DOCTYPE.copy(body);
  target.copy(body, DOCTYPE.length, 0, written);
  return body;
}

export async function renderPage(page: ReactNode, options: PageOptions): Promise<Response> {
  // An error outside every boundary throws here, as the stream renderer's shell error rejects.
  const body = pageBytes(renderToString(page));
  if (body.includes(LEFT_TO_THE_BROWSER, DOCTYPE.length)) return streamPage(page, options);
  options.headers.set("Content-Type", "text/html");
  return wholeResponse(body, { headers: options.headers, status: options.status });
}

/** React Router's default Node rendering: the page streamed as React renders it. */
function streamPage(page: ReactNode, { status, headers, nonce, waitForAll, onLateError }: PageOptions): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Abort after the timeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), STREAM_TIMEOUT_MS + 1000);
    const ready = () => {
      shellRendered = true;
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
      ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        // Errors inside the shell reject and are logged by React Router; later ones only here.
        if (shellRendered) onLateError(error);
      },
    });
  });
}
