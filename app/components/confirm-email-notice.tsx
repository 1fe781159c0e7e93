import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useFieldFocus } from "#app/lib/use-action-toast.ts";

/**
 * 'Confirm your e-mail' with the button that sends a new link: the page's action answers the
 * intent `resend-confirmation` (My Gigs for an unpublished gig, a gig's page for a digger who
 * may not buy yet). The answer is toasted by the root, as every fetcher's is.
 */
export function ConfirmEmailNotice({ title, children }: { title: string; children: ReactNode }) {
  const fetcher = useFetcher<{ error?: string; success?: string }>();
  useFieldFocus(fetcher.data);
  return (
    <Alert role="status">
      <AlertTitle className="line-clamp-none">{title}</AlertTitle>
      <AlertDescription>
        <p>{children}</p>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="resend-confirmation" />
          <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
            {fetcher.state === "idle" ? "Resend confirmation e-mail" : "Sending..."}
          </Button>
        </fetcher.Form>
      </AlertDescription>
    </Alert>
  );
}
