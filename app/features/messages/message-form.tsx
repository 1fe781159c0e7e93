import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { useBrowserCheck } from "#app/lib/use-action-toast.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { MESSAGE_MAX, messageSchema } from "#core/messages.ts";
import { AttachmentInput, attachmentErrors } from "./attachments.tsx";

type SendAnswer = { error?: string; fieldErrors?: Record<string, string>; sent?: string } | undefined;

/**
 * The message box at the thread's foot. With JavaScript a fetcher sends it (checked here first
 * with the server's schema) and the box empties once it is sent; a refusal or a failure keeps
 * the text (the root toasts the answer). Without JavaScript it is a form post that comes back
 * to the thread (`js` is only sent once hydrated). Files go with it as a multipart body (attachments.tsx).
 */
export function MessageForm() {
  const fetcher = useFetcher<SendAnswer>();
  const hydrated = useHydrated();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const { errors, check } = useBrowserCheck(fetcher.data);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.sent) form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      noValidate
      className="grid gap-2 border-t bg-background pt-3"
      onSubmit={(event) => check(event, messageSchema.safeParse({ body: new FormData(event.currentTarget).get("body") }), attachmentErrors(event.currentTarget))}
    >
      <input type="hidden" name="intent" value="send" />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <FormField id={`${id}-body`} label="Message" error={errors.body}>
        <Textarea
          {...fieldControlProps(`${id}-body`, { error: errors.body, required: true })}
          name="body"
          rows={2}
          maxLength={MESSAGE_MAX}
          className="max-h-40 min-h-16"
          onKeyDown={(event) => {
            // Ctrl/Cmd+Enter sends, Enter alone makes a new line.
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
      </FormField>
      <AttachmentInput id={id} error={errors.attachments} />
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? "Sending..." : "Send"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
