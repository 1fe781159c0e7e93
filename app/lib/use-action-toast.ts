import { useEffect } from "react";
import { toast } from "sonner";

/**
 * Shows an action's `error` or `success` message as a toast, once per response; a form's
 * refusal also moves the focus to its first invalid field (the fields come in the order the
 * form checks them), scrolled into view, so keyboard and screen-reader users land on it.
 */
export function useActionToast(actionData: { error?: string; success?: string; fieldErrors?: Record<string, string> } | undefined) {
  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error);
    else if (actionData?.success) toast.success(actionData.success);
    const first = Object.keys(actionData?.fieldErrors ?? {})[0];
    const field = first ? document.getElementById(first) : null;
    if (field) {
      field.focus({ preventScroll: true });
      field.scrollIntoView({ block: "center" });
    }
  }, [actionData]);
}
