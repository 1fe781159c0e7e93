/**
 * What a measured request must answer before the bench times it: status 200 (a 202 is a
 * data request's redirect, a 3xx a page's) and the texts that prove it is the page it claims
 * to be (the 20 gigs a Browse Gigs page lists, a gig's title, the signed-in person's e-mail).
 * A bench once timed an empty list for days; a failed check now stops the run.
 */
import { BROWSER_ACCEPT_ENCODING } from "./load.ts";

export interface Expectation {
  /** What the texts stand for, for the message: "the 20 gigs of Browse Gigs". */
  what: string;
  texts: string[];
}

/** The forms a text takes in a page (HTML-escaped) or in a data request (JSON-escaped). */
function forms(text: string): string[] {
  const html = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  return [text, html, JSON.stringify(text).slice(1, -1)];
}

/** The texts of `expected` that `body` does not contain in any of their forms. */
export function missingTexts(body: string, expected: string[]): string[] {
  return expected.filter((text) => !forms(text).some((form) => body.includes(form)));
}

/** Why an answer is not the one expected, or null when it is. */
export function answerProblem(path: string, status: number, body: string, expectation: Expectation, location?: string | null): string | null {
  if (status !== 200) {
    return `${path} answered ${status}${location ? ` (to ${location})` : ""}, not 200${status === 202 ? " (a data request's redirect)" : ""}`;
  }
  const missing = missingTexts(body, expectation.texts);
  if (missing.length > 0) {
    return `${path} does not show ${expectation.what}: ${missing.length} of ${expectation.texts.length} missing (first: ${JSON.stringify(missing[0])})`;
  }
  return null;
}

/** Asks once as the load test will (no redirect followed) and throws when the answer is not the expected one. */
export async function assertAnswer(baseUrl: string, path: string, expectation: Expectation, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(baseUrl + path, {
    redirect: "manual",
    headers: { accept: path.includes(".data") ? "*/*" : "text/html", "accept-encoding": BROWSER_ACCEPT_ENCODING, ...headers },
  });
  const problem = answerProblem(path, response.status, await response.text(), expectation, response.headers.get("location"));
  if (problem) throw new Error(`bench: ${problem}; the measurement would not time what it names`);
}
