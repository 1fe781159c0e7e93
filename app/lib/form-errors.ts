/**
 * The messages to show beside fields: every field's own message except the one the toast
 * is showing already. The spec shows the first message as a notice; showing it twice at once
 * would only repeat it (and make "the message" ambiguous to anyone looking for it).
 */
export function inlineErrors(result: { error?: string; fieldErrors?: Record<string, string> } | null | undefined): Record<string, string> {
  const inline: Record<string, string> = {};
  for (const [field, message] of Object.entries(result?.fieldErrors ?? {})) {
    if (message !== result?.error) inline[field] = message;
  }
  return inline;
}
