import { ChevronLeft, ChevronRight } from "#app/components/icons.tsx";
import type { KeyboardEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";

/** WorkPhotoGallery's lightbox (app/features/diggers/work-photo-gallery.tsx loads it with the first click on a photo). */
export function WorkPhotoLightbox({
  photos,
  handle,
  open,
  index,
  alt,
  onOpenChange,
  onStep,
  onClosed,
}: {
  photos: string[];
  handle: string;
  open: boolean;
  index: number;
  alt: (index: number) => string;
  onOpenChange: (open: boolean) => void;
  onStep: (by: number) => void;
  /** The focus back on the thumbnail of the photo last shown. */
  onClosed: () => void;
}) {
  const count = photos.length;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") onStep(-1);
    else if (event.key === "ArrowRight") onStep(1);
    else return;
    event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="gap-3 sm:max-w-3xl"
        onKeyDown={onKeyDown}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <DialogTitle>{`Photo ${index + 1} of ${count}`}</DialogTitle>
        <DialogDescription>{count > 1 ? `Work by ${handle}. The arrow keys move between photos.` : `Work by ${handle}.`}</DialogDescription>
        <img src={photos[index]} alt={alt(index)} className="max-h-[65dvh] w-full rounded-md bg-muted object-contain" />
        {count > 1 ? (
          <div className="flex justify-between gap-2">
            <Button type="button" variant="outline" onClick={() => onStep(-1)}>
              <ChevronLeft aria-hidden="true" />
              Previous photo
            </Button>
            <Button type="button" variant="outline" onClick={() => onStep(1)}>
              Next photo
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
