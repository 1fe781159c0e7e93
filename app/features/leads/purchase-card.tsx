import { useEffect, type ReactNode } from "react";
import { Form, useActionData, useNavigate, useNavigation, useSearchParams } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { useOptionalUser } from "#app/lib/user.ts";
import { ConfirmEmailNotice } from "#app/components/confirm-email-notice.tsx";
import { CONFIRM_EMAIL_TO_BUY, GIG_HIRED, HOLD_MINUTES, LEAD_FULL, SPOTS_HELD, spotsText, type NotForSale } from "#core/lead-spots.ts";
import { formatPrice } from "#core/money.ts";
import { GUARANTEE_TEXTS } from "#core/reply-guarantee.ts";
import { toastInfo, toastLoading, toastSuccess } from "#app/lib/toasts.ts";

interface Props {
  gigId: string;
  /**
   * Why the lead is not for sale, by the one rule (server/leads/for-sale.ts), or null: the gig is
   * gone or closed, its client hired a digger, full of completed purchases, checkouts hold every
   * spot left, or the reply guarantee paused it (its client opened none of its threads, issue 48).
   */
  notForSale: NotForSale | null;
  leadPriceCents: number;
  /** Completed purchases (only they fill the lead), and the cap (docs/decisions/0019, 0030). */
  spotsTaken: number;
  maxDiggers: number;
  /** For a signed-in digger: whether they already bought this lead. */
  purchased: boolean;
  /** For a signed-in digger: whether a checkout of theirs holds a spot (Buy continues it). */
  holding: boolean;
  /** For a signed-in digger: their e-mail is not confirmed, so they may not buy yet (issue 45). */
  confirmEmail: boolean;
  /** The viewer posted this gig: what they may do with it (Edit, Delete), composed by the page. */
  own: ReactNode | null;
}

/** The Purchase Lead side card of /gig/{id} (spec sections 2 and 4; issue 19's spots). */
export function PurchaseCard({ gigId, notForSale, leadPriceCents, spotsTaken, maxDiggers, purchased, holding, confirmEmail, own }: Props) {
  const open = notForSale !== "gone" && notForSale !== "closed" && notForSale !== "hired" && notForSale !== "paused";
  // A buyer keeps what they bought; everyone else is told the client hired someone (issue 47).
  const hired = notForSale === "hired" && !purchased;
  // Paused by the reply guarantee (issue 48): said to whoever could buy it; a buyer keeps theirs.
  const paused = notForSale === "paused" && !purchased;
  // A digger who bought the lead, or whose checkout holds a spot, is told that rather than 'full'.
  const full = notForSale === "full" && !purchased && !holding;
  const held = notForSale === "held" && !purchased && !holding;
  const user = useOptionalUser();
  // Said only to someone who can buy it: a visitor (once signed in) or a digger who has not yet.
  const canBuy = open && !full && !held && !own && !purchased && (!user || user.userType === "digger");
  usePaymentReturnNotice(gigId);
  useCheckoutLoadingNotice();
  useActionToast(useActionData<{ error?: string }>());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Purchase Lead</CardTitle>
        {canBuy ? <CardDescription>Buy this lead to see the client's contact details.</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <p>
          <span className="text-3xl font-bold">{formatPrice(leadPriceCents)}</span>{" "}
          <span className="text-sm text-muted-foreground">one-time fee</span>
        </p>
        <p className="text-sm text-muted-foreground">{spotsText(spotsTaken, maxDiggers)}</p>
        {own ? (
          <div className="grid gap-2 text-sm">
            {full ? <p>{LEAD_FULL}</p> : null}
            <p className="font-medium">This is your gig</p>
            {own}
            <Button asChild variant="outline">
              <Link to="/my-gigs">Manage in My Gigs</Link>
            </Button>
          </div>
        ) : hired ? (
          <>
            <p className="font-medium">{GIG_HIRED}</p>
            <Button disabled>Purchase Lead</Button>
          </>
        ) : paused ? (
          <>
            <p className="font-medium">{GUARANTEE_TEXTS.paused}</p>
            <Button disabled>Purchase Lead</Button>
          </>
        ) : full ? (
          <>
            <p className="font-medium">{LEAD_FULL}</p>
            <Button disabled>Lead Full</Button>
          </>
        ) : held ? (
          <>
            <p className="font-medium">{SPOTS_HELD}</p>
            <Button disabled>Purchase Lead</Button>
          </>
        ) : (
          <PurchaseButton gigId={gigId} open={open} purchased={purchased} confirmEmail={confirmEmail} />
        )}
        {holding && !purchased && !hired && !paused ? (
          <p className="text-sm text-muted-foreground">{`Your checkout holds a spot for ${HOLD_MINUTES} minutes: Purchase Lead continues it.`}</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function PurchaseButton({ gigId, open, purchased, confirmEmail }: { gigId: string; open: boolean; purchased: boolean; confirmEmail: boolean }) {
  const user = useOptionalUser();
  const submitting = useNavigation().formData?.get("intent") === "purchase";
  if (!user) {
    return open ? (
      <Button asChild>
        <Link to={`/auth?type=digger&redirect=${encodeURIComponent(`/gig/${gigId}`)}`}>Sign In to Purchase</Link>
      </Button>
    ) : (
      <Button disabled>Sign In to Purchase</Button>
    );
  }
  if (user.userType !== "digger") return <Button disabled>Diggers Only</Button>;
  if (purchased) {
    return (
      <div className="grid gap-2 text-sm">
        <p className="font-medium">You have purchased this lead.</p>
        <Button asChild variant="outline">
          <Link to="/my-leads">View in My Leads</Link>
        </Button>
      </div>
    );
  }
  if (confirmEmail) {
    return <ConfirmEmailNotice title={CONFIRM_EMAIL_TO_BUY}>Open the link in the e-mail we sent you, then come back to buy this lead.</ConfirmEmailNotice>;
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="purchase" />
      <Button type="submit" className="w-full" disabled={!open || submitting}>
        Purchase Lead
      </Button>
    </Form>
  );
}

/**
 * 'Creating checkout session...' while the purchase is being set up, and not a moment longer:
 * it ends when the submission ends, when this card leaves (the in-app test checkout), and when
 * the browser leaves the page for the provider's checkout, so it never follows the person.
 */
function useCheckoutLoadingNotice() {
  const submitting = useNavigation().formData?.get("intent") === "purchase";
  useEffect(() => {
    if (!submitting) return;
    const dismiss = toastLoading("Creating checkout session...");
    window.addEventListener("pagehide", dismiss);
    return () => {
      window.removeEventListener("pagehide", dismiss);
      dismiss();
    };
  }, [submitting]);
}

/** On return from checkout: the notice, then the parameter leaves the address. */
function usePaymentReturnNotice(gigId: string) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const payment = searchParams.get("payment");
  useEffect(() => {
    if (payment !== "success" && payment !== "cancelled") return;
    if (payment === "success") toastSuccess("Payment successful! You can now access the client contact information.");
    else toastInfo("Payment was cancelled.");
    navigate(`/gig/${gigId}`, { replace: true, preventScrollReset: true });
  }, [payment, gigId, navigate]);
}
