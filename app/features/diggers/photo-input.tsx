/**
 * A photo file input that shows a thumbnail of each chosen file, each with a button that drops
 * it before saving. The real <input type="file"> stays the source of truth: its FileList is
 * rewritten through a DataTransfer, so the form posts exactly the photos shown (and the form's
 * own checks read them). Without JavaScript it is the plain file input.
 */
import { X } from "#app/components/icons.tsx";
import { useCallback, useRef, useState, type ComponentProps } from "react";
import { Input } from "#app/components/ui/input.tsx";

type Props = Omit<ComponentProps<"input">, "type" | "onChange" | "ref"> & {
  /** The list's accessible name, e.g. "Chosen work photos". */
  listLabel: string;
};

/** The same file chosen twice (another pick from the same folder) is kept once. */
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

export function PhotoInput({ listLabel, multiple, ...props }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);

  /** Makes `next` the input's selection and the thumbnails'. */
  function select(next: File[]) {
    const transfer = new DataTransfer();
    for (const file of next) transfer.items.add(file);
    if (input.current) input.current.files = transfer.files;
    setFiles(next);
  }

  function chosen() {
    const picked = Array.from(input.current?.files ?? []);
    // A second pick adds to a multiple selection (the browser's own input would replace it).
    const next = multiple ? [...files, ...picked.filter((file) => !files.some((kept) => sameFile(kept, file)))] : picked;
    select(next);
  }

  return (
    <>
      <Input ref={input} type="file" multiple={multiple} onChange={chosen} {...props} />
      {files.length > 0 ? (
        <ul aria-label={listLabel} className="grid grid-cols-3 gap-3 sm:grid-cols-4">
          {files.map((file, i) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`} className="relative grid gap-1">
              <Thumbnail file={file} />
              <span aria-hidden="true" className="truncate text-xs text-muted-foreground">
                {file.name}
              </span>
              <button
                type="button"
                aria-label={`Remove ${file.name}`}
                className="absolute top-1 right-1 rounded-full bg-background/90 p-1 shadow-sm hover:bg-background focus-visible:ring-[3px] focus-visible:ring-ring/40 focus-visible:outline-none"
                onClick={() => {
                  select(files.filter((_, j) => j !== i));
                  input.current?.focus();
                }}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** The file as an image, from an object URL that is revoked once the thumbnail goes. */
function Thumbnail({ file }: { file: File }) {
  const show = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(file);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
  return <img ref={show} alt={file.name} className="aspect-square w-full rounded-md border object-cover" />;
}
