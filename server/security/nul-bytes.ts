/**
 * PostgreSQL cannot store or compare text with a NUL character in it: a query with one as a
 * parameter fails ("invalid byte sequence for encoding UTF8: 0x00"), which surfaced as a 500
 * (the bad-input test found it in the password-reset token and the checkout's session id).
 * No form field, route parameter or query value of this site has a use for it, so a request
 * that carries one anywhere in its address or its text fields is refused here with 400,
 * before any handler runs. Uploaded files in a multipart form may hold any bytes.
 */
import type { MiddlewareHandler } from "hono";

export const NUL_REFUSED = "Invalid character in the request";

const hasNul = (value: string) => value.includes("\u0000");

function decodes(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return value;
  }
}

/** True when the request's address or text body carries a NUL character. */
async function carriesNul(request: Request): Promise<boolean> {
  if (/%00/i.test(request.url)) return true;
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return false;
  const type = request.headers.get("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const text = await request.clone().text();
    return hasNul(text) || /%00/i.test(text) || hasNul(decodes(text));
  }
  if (type.startsWith("application/json") || type.startsWith("text/")) {
    const text = await request.clone().text();
    return hasNul(text) || /\\u0000/i.test(text);
  }
  if (type.startsWith("multipart/form-data")) {
    try {
      const form = await request.clone().formData();
      for (const [key, value] of form) if (hasNul(key) || (typeof value === "string" && hasNul(value))) return true;
    } catch {
      return false; // A malformed body is the handler's to refuse.
    }
  }
  return false;
}

/**
 * `streamedMultipart`: paths whose multipart bodies are parsed as a stream by their handler
 * (a thread's attachments, conversations/attachments.ts), which refuses a NUL in a field itself;
 * reading such a body here would hold it whole in memory. Their address is still checked here.
 */
export function refuseNulBytes(options: { exemptPaths: string[]; streamedMultipart?: (path: string) => boolean }): MiddlewareHandler {
  return async (c, next) => {
    const streamed = (c.req.header("content-type") ?? "").startsWith("multipart/form-data") && options.streamedMultipart?.(c.req.path) === true;
    if (!options.exemptPaths.includes(c.req.path) && (streamed ? /%00/i.test(c.req.url) : await carriesNul(c.req.raw))) {
      return c.text(NUL_REFUSED, 400);
    }
    await next();
  };
}
