import { Form, redirect, useNavigation } from "react-router";
import { Alert, AlertDescription } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { formatPrice } from "#core/money.ts";
import { testCheckoutAnswer } from "#server/leads/answer-test-checkout.ts";
import { testCheckoutPage } from "#server/leads/view-test-checkout.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/checkout";

export const meta = () => pageMeta("Checkout", "Pay for a lead.");

// The page is its digger's only: anyone else, signed in or not, gets 404 (no sign-in redirect).
export async function loader(args: Route.LoaderArgs) {
  const page = await serveLoader(args, testCheckoutPage);
  if (page.goTo !== undefined) throw redirect(page.goTo);
  return page;
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, testCheckoutAnswer, ({ goTo }) => redirect(goTo));
}

export default function TestCheckout({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const price = formatPrice(loaderData.amountCents);
  return (
    <div className="mx-auto grid max-w-md gap-6">
      <Alert role="status">
        <AlertDescription>Test mode: no card is charged</AlertDescription>
      </Alert>
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Checkout</h1>
          </CardTitle>
          <CardDescription>One-time fee for the lead</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="font-medium">{loaderData.gigTitle}</p>
          <p className="text-3xl font-bold">{price}</p>
          <Form method="post" className="flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="pay" disabled={busy}>
              {`Pay ${price}`}
            </Button>
            <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
              Cancel
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
