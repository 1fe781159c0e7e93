import type { FormEvent } from "react";

/**
 * The browser's one `Intl` call (issue 47, decision 0071): on submit, a sign-in or sign-up form's
 * hidden `timeZone` field gets the browser's IANA zone, which the server checks and keeps as the
 * account's. Every time is then written by the server in that zone; the browser formats none.
 */
export function fillBrowserZone(event: FormEvent<HTMLFormElement>): void {
  const field = event.currentTarget.elements.namedItem("timeZone");
  if (field instanceof HTMLInputElement) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
}
