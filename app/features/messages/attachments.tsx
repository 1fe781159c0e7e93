import { FileText, Paperclip, X } from "#app/components/icons.tsx";
import { fieldControlProps } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_FIELD,
  ATTACHMENT_TEXTS,
  attachmentPath,
  attachmentSize,
  attachmentsProblem,
  isImageAttachment,
  type MessageAttachmentView,
} from "#core/message-attachments.ts";

/**
 * The composer's paper-clip (issue 47): a label styled as an icon button around a plain file
 * input named 'Attach files' (it posts with the form, also without JavaScript; the server checks
 * the bytes as before), its hint as the input's description. The chosen files show as chips
 * under the box, each removable (`AttachmentChips`).
 */
export function AttachButton({ id, error, onChange }: { id: string; error?: string; onChange: (files: File[]) => void }) {
  const controlId = `${id}-attachments`;
  return (
    <>
    <label
      htmlFor={controlId}
      title={ATTACHMENT_TEXTS.hint}
      className={cn(
        buttonVariants({ variant: "ghost", size: "icon" }),
        "shrink-0 cursor-pointer has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40",
        error && "text-destructive",
      )}
    >
      <Paperclip aria-hidden="true" className="size-5" />
      <input
        {...fieldControlProps(controlId, { error, hintId: `${controlId}-hint` })}
        type="file"
        name={ATTACHMENT_FIELD}
        accept={ATTACHMENT_ACCEPT}
        multiple
        aria-label={ATTACHMENT_TEXTS.label}
        className="sr-only"
        onChange={(event) => onChange(Array.from(event.currentTarget.files ?? []))}
      />
    </label>
    <span id={`${controlId}-hint`} className="sr-only">
      {ATTACHMENT_TEXTS.hint}
    </span>
    </>
  );
}

/** The chosen files as chips; Remove takes one out of the input (a new FileList without it). */
export function AttachmentChips({ id, files, onChange }: { id: string; files: File[]; onChange: (files: File[]) => void }) {
  if (files.length === 0) return null;
  const remove = (index: number) => {
    const input = document.getElementById(`${id}-attachments`);
    if (!(input instanceof HTMLInputElement)) return;
    const kept = new DataTransfer();
    files.forEach((file, n) => n !== index && kept.items.add(file));
    input.files = kept.files;
    onChange(Array.from(kept.files));
  };
  return (
    <ul aria-label="Files to send" className="flex flex-wrap gap-2 px-1">
      {files.map((file, n) => (
        <li key={`${file.name}-${n}`} className="flex max-w-full items-center gap-1 rounded-full border bg-muted py-0.5 pr-1 pl-3 text-xs">
          <span className="truncate">{file.name}</span>
          <span className="shrink-0 text-muted-foreground">({attachmentSize(file.size)})</span>
          <Button type="button" variant="ghost" size="icon" className="size-6 rounded-full" onClick={() => remove(n)}>
            <X aria-hidden="true" className="size-3.5" />
            <span className="sr-only">{`Remove ${file.name}`}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The browser's first check of the picked files, for `useBrowserCheck`'s extra errors (the server checks their bytes). */
export function attachmentErrors(form: HTMLFormElement): Record<string, string> {
  const input = form.elements.namedItem(ATTACHMENT_FIELD);
  const problem = input instanceof HTMLInputElement && input.files ? attachmentsProblem(input.files) : null;
  return problem ? { [ATTACHMENT_FIELD]: problem } : {};
}

/**
 * A message's attachments under its text: images as thumbnails (opening the full image), PDFs as
 * a download link named by the file. Both come from the one private route; nothing is public.
 */
export function MessageAttachments({ threadId, attachments, mine }: { threadId: string; attachments: MessageAttachmentView[]; mine: boolean }) {
  if (attachments.length === 0) return null;
  return (
    <ul aria-label={ATTACHMENT_TEXTS.listLabel} className={cn("flex max-w-full flex-wrap gap-2", mine && "justify-end")}>
      {attachments.map((file) => {
        const href = attachmentPath(threadId, file.id);
        return (
          <li key={file.id}>
            {isImageAttachment(file.contentType) ? (
              <a href={href} target="_blank" rel="noopener" className="block overflow-hidden rounded-md border bg-muted focus-visible:ring-2 focus-visible:ring-ring">
                <img src={href} alt={file.name} loading="lazy" className="size-28 object-cover sm:size-36" />
              </a>
            ) : (
              <a
                href={href}
                download={file.name}
                className="flex max-w-64 items-center gap-2 rounded-md border bg-background px-3 py-2 text-sm text-foreground underline-offset-4 hover:underline"
              >
                <FileText aria-hidden="true" className="size-4 shrink-0" />
                <span className="truncate">{file.name}</span>
                <span className="shrink-0 text-xs text-muted-foreground">({attachmentSize(file.sizeBytes)})</span>
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
