const BASE = "http://site.invalid";

/** A path on this site: one leading "/" (not "//" nor "/\"), no backslashes or control characters. */
// eslint-disable-next-line no-control-regex
const isSitePath = (value: string) => /^\/(?![/\\])/.test(value) && !/[\\\u0000-\u001f\u007f]/.test(value);

/**
 * A redirect target from the address bar or a form, kept on this site: only a path that
 * starts with a single "/" is accepted; anything else (other hosts, schemes, "//host",
 * backslashes, control characters) falls back to "/". The normalised result is checked
 * again, since dot segments can turn "/.//evil.com" into the scheme-relative "//evil.com".
 */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  const value = typeof target === "string" ? target.trim() : "";
  if (!isSitePath(value)) return fallback;
  const url = new URL(value, BASE);
  const path = `${url.pathname}${url.search}${url.hash}`;
  return isSitePath(path) && new URL(path, BASE).origin === BASE ? path : fallback;
}
