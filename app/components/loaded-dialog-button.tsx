import type { ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { useLoadRequests, type LoadRequests } from "#app/lib/use-loaded-dialog.ts";

/**
 * A small outline button that opens a loaded dialog (useLoadedDialog): `dialog` is drawn from
 * the first press on and given the presses; until then the card holds only the button.
 */
export function LoadedDialogButton({ label, dialog }: { label: string; dialog: (requests: LoadRequests) => ReactNode }) {
  const requests = useLoadRequests();
  return (
    <>
      <Button variant="outline" size="sm" disabled={requests.loading} onClick={requests.ask}>
        {label}
      </Button>
      {requests.asks > 0 ? dialog(requests) : null}
    </>
  );
}
