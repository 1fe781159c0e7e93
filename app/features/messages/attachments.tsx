import { FileText } from "lucide-react";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Input } from "#app/components/ui/input.tsx";
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

/** The send form's file picker (a plain file input: it posts with the form, also without JavaScript). */
export function AttachmentInput({ id, error }: { id: string; error?: string }) {
  const controlId = `${id}-attachments`;
  return (
    <FormField id={controlId} label={ATTACHMENT_TEXTS.label} hint={ATTACHMENT_TEXTS.hint} error={error}>
      <Input
        {...fieldControlProps(controlId, { error, hintId: `${controlId}-hint` })}
        type="file"
        name={ATTACHMENT_FIELD}
        accept={ATTACHMENT_ACCEPT}
        multiple
        className="h-auto py-1.5 text-sm file:mr-3"
      />
    </FormField>
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
