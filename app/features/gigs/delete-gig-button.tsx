import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { GIG_EDIT_TEXTS } from "#core/gig-texts.ts";

/**
 * Delete, for a gig nobody has bought: asks first, then posts to the gig's edit route.
 * `describedBy` names the element that says which gig (the card's title on /my-gigs).
 */
export function DeleteGigButton({ gigId, gigTitle, describedBy }: { gigId: string; gigTitle: string; describedBy?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-describedby={describedBy}>
          Delete
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{`Delete "${gigTitle}"?`}</DialogTitle>
          <DialogDescription>{GIG_EDIT_TEXTS.deleteQuestion}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep Gig</Button>
          </DialogClose>
          <Form method="post" action={`/my-gigs/${gigId}/edit`}>
            <input type="hidden" name="intent" value="delete" />
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? "Deleting..." : "Delete Gig"}
            </Button>
          </Form>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
