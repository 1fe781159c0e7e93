import { lazy, Suspense, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";

// The dialog (Radix's Dialog, its focus trap and scroll lock) only for the gig's owner, once the
// page has hydrated: the gig page's visitors never download it (bench/results/history.md, 'First-visit weight').
const DeleteGigDialog = lazy(() => import("#app/features/gigs/delete-gig-dialog.tsx").then((m) => ({ default: m.DeleteGigDialog })));

/**
 * Delete, for a gig nobody has bought: asks first, then posts to the gig's edit route.
 * `describedBy` names the element that says which gig (the card's title on /my-gigs). A click
 * before the dialog has loaded opens it once it has.
 */
export function DeleteGigButton({ gigId, gigTitle, describedBy }: { gigId: string; gigTitle: string; describedBy?: string }) {
  const hydrated = useHydrated();
  const [asked, setAsked] = useState(false);
  const waiting = (
    <Button variant="outline" size="sm" aria-describedby={describedBy} aria-haspopup="dialog" onClick={() => setAsked(true)}>
      Delete
    </Button>
  );
  if (!hydrated) return waiting;
  return (
    <Suspense fallback={waiting}>
      <DeleteGigDialog gigId={gigId} gigTitle={gigTitle} describedBy={describedBy} defaultOpen={asked} />
    </Suspense>
  );
}
