/**
 * The messages to show beside fields: every invalid field's own message, the one the toast
 * shows included (decision 0027): the toast is gone after a few seconds and never shows
 * without JavaScript, while the field keeps saying what is wrong with it.
 */
export function inlineErrors(result: { error?: string; fieldErrors?: Record<string, string> } | null | undefined): Record<string, string> {
  return { ...result?.fieldErrors };
}
