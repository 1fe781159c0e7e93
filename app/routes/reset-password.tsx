import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { PasswordInput } from "#app/features/sign-in/password-input.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { resetPasswordForm } from "#server/sign-in/reset-password.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { serveAction } from "#server/web/operations.ts";
import type { Route } from "./+types/reset-password";

export const meta = () => pageMeta("Set a New Password", "Choose a new password for your account.");

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "" };
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, resetPasswordForm, () =>
    redirectWithFlash(args.context.services.config, "/auth", "success", "Your password has been changed. Please sign in."),
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-6 text-center text-3xl font-bold tracking-tight">Set a New Password</h1>
      <Card>
        <CardHeader>
          <CardTitle>Choose a new password</CardTitle>
          <CardDescription>At least 6 characters. You will be signed out everywhere else.</CardDescription>
        </CardHeader>
        <CardContent>
          {loaderData.token ? (
            <Form method="post" noValidate className="grid gap-4">
              <input type="hidden" name="token" value={loaderData.token} />
              <FormField id="new-password" label="New Password" error={inlineErrors(actionData).password}>
                <PasswordInput {...fieldControlProps("new-password", { error: inlineErrors(actionData).password })} name="password" autoComplete="new-password" required minLength={6} />
              </FormField>
              <Button type="submit" disabled={busy}>
                {busy ? "Saving..." : "Set New Password"}
              </Button>
            </Form>
          ) : (
            <p className="text-sm">
              This reset link is invalid or has expired.{" "}
              <Link to="/auth?view=forgot" className="underline">
                Ask for a new one
              </Link>
              .
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
