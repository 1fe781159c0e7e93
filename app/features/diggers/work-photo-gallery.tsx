/**
 * A digger's work photos on their profile: thumbnails that open a lightbox (a dialog with the
 * large photo, Previous photo / Next photo and the Left and Right arrow keys; Escape closes it
 * and the focus goes back to the thumbnail of the photo last shown). Until hydration, and
 * without JavaScript, each thumbnail is a link to the image itself.
 */
import { lazy, Suspense, useRef, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated.ts";

const WorkPhotoLightbox = lazy(() => import("#app/features/diggers/work-photo-lightbox.tsx").then((m) => ({ default: m.WorkPhotoLightbox })));

export function WorkPhotoGallery({ photos, handle }: { photos: string[]; handle: string }) {
  const hydrated = useHydrated();
  // The photo shown, kept while the dialog closes (it animates out showing it, and the focus
  // goes back to its thumbnail).
  const [lightbox, setLightbox] = useState({ open: false, index: 0 });
  const [opened, setOpened] = useState(false);
  const thumbnails = useRef<Array<HTMLButtonElement | null>>([]);
  const count = photos.length;
  const alt = (i: number) => `Work photo ${i + 1} by ${handle}`;
  const current = lightbox.index;
  const show = (index: number) => {
    setOpened(true);
    setLightbox({ open: true, index });
  };
  const step = (by: number) => show((current + by + count) % count);

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
      {/* The lightbox (Radix's Dialog) loads with the first click on a photo, not with the profile (docs/decisions/0050). */}
      {opened ? (
        <Suspense fallback={null}>
          <WorkPhotoLightbox
            photos={photos}
            handle={handle}
            open={lightbox.open}
            index={current}
            alt={alt}
            onOpenChange={(open) => setLightbox({ open, index: current })}
            onStep={step}
            onClosed={() => thumbnails.current[current]?.focus()}
          />
        </Suspense>
      ) : null}
    </>
  );
}
