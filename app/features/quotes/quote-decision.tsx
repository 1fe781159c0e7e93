import { useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { acceptQuestion, QUOTE_DECLINE_REASON_MAX } from "#core/quotes.ts";

type Answer = { error?: string; success?: string } | undefined;

interface DecisionProps {
  threadId: string;
  quoteId: string;
  handle: string;
  priceText: string;
}

/**
 * The client's Accept and Decline of one quote, in the thread and on Compare Quotes alike: both
 * post the thread's intents (server/conversations/accept-quote.ts, decline-quote.ts), which
 * check who may. Accept asks first ('Accept {handle}'s quote of {price}?'); Decline takes an
 * optional reason the digger sees.
 * A dialog closes as its form is sent; the root toasts the answer, and the pages reload.
 */
export function QuoteDecision({ threadId, quoteId, handle, priceText }: DecisionProps) {
  return (
    <div className="flex flex-wrap gap-2">
      <AcceptQuote threadId={threadId} quoteId={quoteId} handle={handle} priceText={priceText} />
      <DeclineQuote threadId={threadId} quoteId={quoteId} handle={handle} />
    </div>
  );
}

function AcceptQuote({ threadId, quoteId, handle, priceText }: DecisionProps) {
  const fetcher = useFetcher<Answer>();
  const [open, setOpen] = useState(false);
  const question = acceptQuestion(handle, priceText);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={opener} type="button" size="sm" onClick={() => setOpen(true)} aria-label={`Accept ${handle}'s quote`}>
        Accept
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, opener)}>
          <DialogHeader>
            <DialogTitle>{question}</DialogTitle>
            <DialogDescription>Accepting records {handle} as hired. The other diggers who quoted are told you chose someone else.</DialogDescription>
          </DialogHeader>
          <fetcher.Form method="post" action={`/messages/${threadId}`} onSubmit={() => setOpen(false)}>
            <input type="hidden" name="intent" value="accept-quote" />
            <input type="hidden" name="quoteId" value={quoteId} />
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={fetcher.state !== "idle"}>
                {fetcher.state === "idle" ? "Accept quote" : "Accepting..."}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </>
  );
}

function DeclineQuote({ threadId, quoteId, handle }: { threadId: string; quoteId: string; handle: string }) {
  const fetcher = useFetcher<Answer>();
  const [open, setOpen] = useState(false);
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={opener} type="button" size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Decline ${handle}'s quote`}>
        Decline
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent onCloseAutoFocus={(event) => focusBackOnClose(event, opener)}>
          <DialogHeader>
            <DialogTitle>{`Decline ${handle}'s quote?`}</DialogTitle>
            <DialogDescription>{handle} may send you a new quote.</DialogDescription>
          </DialogHeader>
          <fetcher.Form method="post" action={`/messages/${threadId}`} className="grid gap-3" onSubmit={() => setOpen(false)}>
            <input type="hidden" name="intent" value="decline-quote" />
            <input type="hidden" name="quoteId" value={quoteId} />
            <Label htmlFor={`${id}-reason`}>Reason (optional)</Label>
            <Textarea id={`${id}-reason`} name="reason" rows={3} maxLength={QUOTE_DECLINE_REASON_MAX} />
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" variant="destructive" disabled={fetcher.state !== "idle"}>
                {fetcher.state === "idle" ? "Decline quote" : "Declining..."}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
