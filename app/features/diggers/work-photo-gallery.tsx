/**
 * A digger's work photos on their profile: thumbnails that open a lightbox (a dialog with the
 * large photo, Previous photo / Next photo and the Left and Right arrow keys; Escape closes it
 * and the focus goes back to the thumbnail of the photo last shown). Until hydration, and
 * without JavaScript, each thumbnail is a link to the image itself.
 */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";

export function WorkPhotoGallery({ photos, handle }: { photos: string[]; handle: string }) {
  const hydrated = useHydrated();
  // The photo shown, kept while the dialog closes (it animates out showing it, and the focus
  // goes back to its thumbnail).
  const [lightbox, setLightbox] = useState({ open: false, index: 0 });
  const thumbnails = useRef<Array<HTMLButtonElement | null>>([]);
  const count = photos.length;
  const alt = (i: number) => `Work photo ${i + 1} by ${handle}`;
  const current = lightbox.index;
  const show = (index: number) => setLightbox({ open: true, index });
  const step = (by: number) => show((current + by + count) % count);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "ArrowRight") step(1);
    else return;
    event.preventDefault();
  };

  return (
    <>
      <ul aria-label="Work photos" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {photos.map((url, i) => {
          const thumbnail = <img src={url} alt={alt(i)} loading="lazy" className="aspect-square w-full rounded-md object-cover" />;
          return (
            <li key={url}>
              {hydrated ? (
                <button
                  type="button"
                  ref={(button) => {
                    thumbnails.current[i] = button;
                  }}
                  aria-label={`Open photo ${i + 1} of ${count}`}
                  aria-haspopup="dialog"
                  className="block w-full cursor-zoom-in rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/60 focus-visible:outline-none"
                  onClick={() => show(i)}
                >
                  {thumbnail}
                </button>
              ) : (
                <a href={url} target="_blank" rel="noopener noreferrer" className="block rounded-md">
                  {thumbnail}
                </a>
              )}
            </li>
          );
        })}
      </ul>
      <Dialog open={lightbox.open} onOpenChange={(open) => setLightbox({ open, index: current })}>
        <DialogContent
          className="gap-3 sm:max-w-3xl"
          onKeyDown={onKeyDown}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            thumbnails.current[current]?.focus();
          }}
        >
          <DialogTitle>{`Photo ${current + 1} of ${count}`}</DialogTitle>
          <DialogDescription>{count > 1 ? `Work by ${handle}. The arrow keys move between photos.` : `Work by ${handle}.`}</DialogDescription>
          <img src={photos[current]} alt={alt(current)} className="max-h-[65dvh] w-full rounded-md bg-muted object-contain" />
          {count > 1 ? (
            <div className="flex justify-between gap-2">
              <Button type="button" variant="outline" onClick={() => step(-1)}>
                <ChevronLeft aria-hidden="true" />
                Previous photo
              </Button>
              <Button type="button" variant="outline" onClick={() => step(1)}>
                Next photo
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}
