/**
 * List cards clamp a gig's description to two lines, so lists send an excerpt: the page and
 * its data stay the same size whether a description has 50 characters or the allowed 2,000.
 */
export const CARD_DESCRIPTION_LENGTH = 280;

/** The text cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function excerpt(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
