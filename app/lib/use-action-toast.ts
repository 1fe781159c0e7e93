import { useEffect } from "react";
import { toast } from "sonner";

/** Shows an action's `error` or `success` message as a toast, once per response. */
export function useActionToast(actionData: { error?: string; success?: string } | undefined) {
  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error);
    else if (actionData?.success) toast.success(actionData.success);
  }, [actionData]);
}
