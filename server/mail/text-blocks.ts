/**
 * The structure of a plain-text e-mail, for its HTML part: every e-mail the product sends has
 * its text written once (what tests and plain-text readers see), and its HTML is drawn from
 * that text by the one layout (templates/text-email.tsx) unless the sender gives a richer body.
 *
 * Paragraphs are separated by blank lines; a line of a paragraph stays a line. A line "--"
 * starts the signature (a rule). A line that is a link, or a label then a link ("Your leads:
 * https://…/my-leads"), becomes an action: the first one a button, later ones links (a long
 * label stays a sentence before a button or link named after the page). Links inside sentences stay inline anchors.
 */

export type Inline = { type: "text"; text: string } | { type: "link"; url: string };

export type Block =
  | { type: "paragraph"; lines: Inline[][] }
  | { type: "action"; label: string; url: string; lead: string | null }
  | { type: "divider" };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** Longer labels read as a sentence, not as a button. */
const MAX_BUTTON_LABEL = 32;
/** A whole line that is one link, optionally after a label: "Label: https://…". */
const ACTION_LINE = /^(?:(.+?):\s+)?(https?:\/\/[^\s<>"']+?)[.,;]?$/;

/** A line's text with its http(s) links apart (trailing punctuation stays text). */
export function inlineParts(line: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, "");
    if (match.index > last) parts.push({ type: "text", text: line.slice(last, match.index) });
    parts.push({ type: "link", url });
    last = match.index + url.length;
  }
  if (last < line.length) parts.push({ type: "text", text: line.slice(last) });
  return parts;
}

/** A button's label for a bare link: the page it opens, in words. */
function labelOf(url: string): string {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, "").split("/")[0] ?? "";
  const words = path.replace(/-/g, " ").trim();
  return words ? `Open ${words}` : "Open Digs & Gigs";
}

export function textBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let lines: Inline[][] = [];
  const flush = () => {
    if (lines.length > 0) blocks.push({ type: "paragraph", lines });
    lines = [];
  };
  for (const raw of text.replace(/\r\n/g, "\n").split("\n")) {
    const line = raw.trimEnd();
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (line === "--") {
      flush();
      blocks.push({ type: "divider" });
      continue;
    }
    const action = ACTION_LINE.exec(line.trim());
    if (action) {
      flush();
      const url = action[2]!;
      const label = action[1]?.trim() ?? "";
      const short = label !== "" && label.length <= MAX_BUTTON_LABEL;
      blocks.push({ type: "action", label: short ? label : labelOf(url), url, lead: short || label === "" ? null : `${label}:` });
      continue;
    }
    lines.push(inlineParts(line));
  }
  flush();
  return blocks;
}
