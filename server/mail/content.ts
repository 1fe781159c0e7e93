/**
 * What an e-mail says, as its template's own structure: paragraphs of the template's words
 * (with names, titles and other values interpolated), quoted text someone wrote, facts, a
 * note, and the actions the template links to. Both parts of every e-mail are drawn from it:
 * the HTML by one React Email component (templates/email-body.tsx), the plain text by
 * `emailText` here. Nothing is ever parsed out of text: an action exists because a template
 * wrote one, so text a user wrote ("Confirm now: https://evil.example") stays text in both
 * parts (docs/decisions/0032-email-bodies-from-structure.md).
 */

export type EmailPart =
  /** The template's words; "\n" keeps a line break. Shown as text, never linked. */
  | { type: "paragraph"; text: string }
  /** What someone wrote (an issue's description, a contact message), quoted apart, as text. */
  | { type: "quote"; text: string }
  /** Label and value pairs ("Issue: Already Found Digger"). */
  | { type: "facts"; facts: ReadonlyArray<readonly [label: string, value: string]> }
  /** A highlighted sentence (a deadline). */
  | { type: "note"; text: string }
  /**
   * A link the template wrote, to a page of ours: the first action of an e-mail is its
   * button, later ones plain links. `say` is what the text part writes before the address
   * (the label when unset; "" for the address alone) and, when it differs from the label,
   * a sentence before the button.
   */
  | { type: "action"; label: string; url: string; say?: string }
  /** A rule before the footer ("--" in the text). */
  | { type: "divider" };

export type EmailContent = readonly EmailPart[];

/** An e-mail as a template writes it: the mailer adds the recipient and sends it. */
export interface EmailMessage {
  subject: string;
  /** The HTML part's heading; the subject when unset. */
  heading?: string;
  content: EmailContent;
}

export const paragraph = (...lines: string[]): EmailPart => ({ type: "paragraph", text: lines.join("\n") });
export const quote = (text: string): EmailPart => ({ type: "quote", text });
export const facts = (...pairs: Array<readonly [string, string]>): EmailPart => ({ type: "facts", facts: pairs });
export const note = (text: string): EmailPart => ({ type: "note", text });
export const action = (label: string, url: string, say?: string): EmailPart => ({ type: "action", label, url, say });
export const divider = (): EmailPart => ({ type: "divider" });

/**
 * Whether a line could be read as a link: an address with a scheme, "www.", or a domain
 * ("evil.example/verify"). An e-mail address's domain does not count.
 */
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|(?<![@\w.-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=[/:?#]|[.,;:!?)\]'"]*(?:\s|$))/i;

/** Lines of text that are not an action start with two spaces when they hold a link, so that only the template's actions begin a line with one. */
const INDENT = "  ";

function textLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => (LINK_LIKE.test(line) ? `${INDENT}${line}` : line));
}

/** The text of an action: "Label: https://…", or the address alone. */
export function actionLine({ label, url, say }: { label: string; url: string; say?: string }): string {
  const words = say ?? label;
  return words === "" ? url : `${words}: ${url}`;
}

function partLines(part: EmailPart): string[] {
  switch (part.type) {
    case "paragraph":
    case "quote":
    case "note":
      return textLines(part.text);
    case "facts":
      return part.facts.flatMap(([label, value]) => textLines(`${label}: ${value}`));
    case "action":
      return [actionLine(part)];
    case "divider":
      return ["--"];
  }
}

/**
 * The plain-text part: parts apart by a blank line (actions in a row, and what follows a
 * rule, on the next line). Only the template's own actions start a line with a link: any other
 * line that holds one (a user's name, title or words) is indented.
 */
export function emailText(content: EmailContent): string {
  let text = "";
  content.forEach((part, i) => {
    const previous = content[i - 1];
    const tight = previous && ((previous.type === "action" && part.type === "action") || previous.type === "divider");
    if (i > 0) text += tight ? "\n" : "\n\n";
    text += partLines(part).join("\n");
  });
  return text;
}

/** What a mail app shows beside the subject: the first line of text that is not a greeting. */
export function emailPreview(content: EmailContent): string {
  const lines = content.flatMap((part) => (part.type === "paragraph" || part.type === "note" ? part.text.split("\n") : []));
  const first = lines.find((line) => line.trim() !== "" && !/^hello\b/i.test(line.trim())) ?? "";
  return first.length > 140 ? `${first.slice(0, 139)}…` : first;
}
