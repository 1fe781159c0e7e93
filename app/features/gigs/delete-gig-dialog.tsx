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

/** DeleteGigButton's dialog (app/features/gigs/delete-gig-button.tsx loads it once hydrated). */
export function DeleteGigDialog({
  gigId,
  gigTitle,
  describedBy,
  defaultOpen,
}: {
  gigId: string;
  gigTitle: string;
  describedBy?: string;
  defaultOpen: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <Dialog defaultOpen={defaultOpen}>
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
