import { ChevronLeft, Plus } from "#app/components/icons.tsx";
import { useRef, useState, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, focusBackOnClose } from "#app/components/ui/dialog.tsx";

/**
 * One thing the '+' sheet offers (issue 47): Send a Quote today, visits later. `id` is also the
 * `?compose=` value that opens the sheet on it; `render` draws its form, `close` ends the sheet
 * (a form calls it once sent). Adding one is adding an entry to the route's list.
 */
export interface ComposerAction {
  id: string;
  label: string;
  render: (close: () => void) => ReactNode;
}

const MORE_ACTIONS = "More actions";

/**
 * The composer's '+': a sheet (the Dialog primitive, anchored to the bottom on a phone) listing
 * the actions; choosing one shows its form in the sheet, with its own one submit. `initial`: the
 * action to open at once (`?compose=quote`); `onClosed`: the route forgets that parameter.
 */
export function ComposerSheet({ actions, initial, onClosed }: { actions: ComposerAction[]; initial?: string | null; onClosed?: () => void }) {
  const first = actions.find((action) => action.id === initial) ?? null;
  const [open, setOpen] = useState(first !== null);
  const [chosen, setChosen] = useState<ComposerAction | null>(first);
  const opener = useRef<HTMLButtonElement>(null);
  if (actions.length === 0) return null;
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setChosen(null);
      onClosed?.();
    }
  };
  return (
    <>
      <Button ref={opener} type="button" variant="ghost" size="icon" className="shrink-0" aria-haspopup="dialog" onClick={() => change(true)}>
        <Plus aria-hidden="true" className="size-5" />
        <span className="sr-only">{MORE_ACTIONS}</span>
      </Button>
      <Dialog open={open} onOpenChange={change}>
        <DialogContent
          onCloseAutoFocus={(event) => focusBackOnClose(event, opener)}
          className="max-md:top-auto max-md:bottom-0 max-md:left-0 max-md:max-h-[90dvh] max-md:max-w-full max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-b-none max-md:pb-[max(1.5rem,env(safe-area-inset-bottom))] sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>{chosen ? chosen.label : MORE_ACTIONS}</DialogTitle>
            <DialogDescription className={chosen ? "sr-only" : undefined}>{chosen ? `${chosen.label} in this conversation.` : "Add to this conversation."}</DialogDescription>
          </DialogHeader>
          {chosen ? (
            <div className="grid gap-3">
              <div>
                <Button type="button" variant="ghost" size="sm" onClick={() => setChosen(null)}>
                  <ChevronLeft aria-hidden="true" />
                  {MORE_ACTIONS}
                </Button>
              </div>
              {chosen.render(() => change(false))}
            </div>
          ) : (
            <ul className="grid gap-2">
              {actions.map((action) => (
                <li key={action.id}>
                  <Button type="button" variant="outline" className="w-full justify-start" onClick={() => setChosen(action)}>
                    {action.label}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
