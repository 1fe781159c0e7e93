import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { FieldMessage, fieldControlProps } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { ATTACHMENT_FIELD } from "#core/message-attachments.ts";
import { MESSAGE_MAX, messageSchema } from "#core/messages.ts";
import { AttachButton, AttachmentChips, attachmentErrors } from "./attachments.tsx";

type SendAnswer = { error?: string; fieldErrors?: Record<string, string>; sent?: string } | undefined;

/** Browsers without `field-sizing: content` grow the box by its scroll height (up to its max-height). */
function grow(box: HTMLTextAreaElement) {
  if (typeof CSS !== "undefined" && CSS.supports("field-sizing", "content")) return;
  box.style.height = "auto";
  box.style.height = `${box.scrollHeight + 2}px`;
}

/**
 * The composer at the thread's foot (issue 47): `more` (the '+' sheet), the paper-clip, one
 * line that grows with its text (up to about six lines), and Send. With JavaScript a fetcher
 * sends it (checked here first with the server's schema) and the box empties once it is sent;
 * a refusal or a failure keeps the text (the root toasts the answer). Without JavaScript it is
 * a form post that comes back to the thread (`js` is only sent once hydrated). Files go with it
 * as a multipart body (attachments.tsx). The box's name stays 'Message' (a screen reader's label).
 */
export function MessageForm({ more }: { more?: ReactNode }) {
  const fetcher = useFetcher<SendAnswer>();
  const hydrated = useHydrated();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  // The files picked, and the send they came after: once a newer send went, the chips are gone with the input's files.
  const [picked, setPicked] = useState<{ files: File[]; after?: string }>({ files: [] });
  const files = picked.after === fetcher.data?.sent ? picked.files : [];
  const setFiles = (chosen: File[]) => setPicked({ files: chosen, after: fetcher.data?.sent });
  const { errors, check } = useBrowserCheck(fetcher.data);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.sent) {
      form.current?.reset();
      const box = form.current?.elements.namedItem("body");
      if (box instanceof HTMLTextAreaElement) box.style.height = "";
    }
  }, [fetcher.state, fetcher.data]);
  // `more` sits beside the form, not in it: a form in its sheet is a form of its own (React's
  // events would bubble from it into this one through the portal).
  return (
    <div data-testid="composer" className="flex items-end gap-1 border-t bg-background px-1 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]">
      {more ? <div className="pb-0.5">{more}</div> : null}
      <fetcher.Form
        ref={form}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="grid min-w-0 flex-1 gap-1"
        onSubmit={(event) => check(event, messageSchema.safeParse({ body: new FormData(event.currentTarget).get("body") }), attachmentErrors(event.currentTarget))}
      >
        <input type="hidden" name="intent" value="send" />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <AttachmentChips id={id} files={files} onChange={setFiles} />
        <div className="flex items-end gap-1">
          <AttachButton id={id} error={errors[ATTACHMENT_FIELD]} onChange={setFiles} />
          <label htmlFor={`${id}-body`} className="sr-only">
            Message
          </label>
          <Textarea
            {...fieldControlProps(`${id}-body`, { error: errors.body, required: true })}
            name="body"
            rows={1}
            maxLength={MESSAGE_MAX}
            placeholder="Message"
            className="max-h-36 min-h-10 flex-1 resize-none py-2"
            onInput={(event) => grow(event.currentTarget)}
            onKeyDown={(event) => {
              // Ctrl/Cmd+Enter sends, Enter alone makes a new line.
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <Button type="submit" disabled={busy} className="shrink-0">
            {busy ? "Sending..." : "Send"}
          </Button>
        </div>
        <FieldMessage id={`${id}-body`} error={errors.body} />
        <FieldMessage id={`${id}-attachments`} error={errors[ATTACHMENT_FIELD]} />
      </fetcher.Form>
    </div>
  );
}
