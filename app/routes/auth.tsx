import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { Link } from "#app/components/link.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeCheckbox, NativeRadio } from "#app/components/ui/native-choice.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { FieldMessage, fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { PasswordInput } from "#app/features/sign-in/password-input.tsx";
import { SocialButtons } from "#app/features/sign-in/social-buttons.tsx";
import { fillBrowserZone } from "#app/lib/browser-zone.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { safeRedirect } from "#core/redirect.ts";
import { forgotPasswordForm } from "#server/sign-in/forgot-password.ts";
import { signInForm } from "#server/sign-in/sign-in.ts";
import { SIGN_UP_CHECK_INBOX, signUpForm } from "#server/sign-in/sign-up.ts";
import { socialSignInForm } from "#server/sign-in/social-sign-in.ts";
import { verifyBackupCodeForm } from "#server/sign-in/verify-backup-code.ts";
import { verifyTotpForm } from "#server/sign-in/verify-totp.ts";
import { authPage } from "#server/sign-in/view-auth.ts";
import { redirectWithFlash, setCookieHeaders } from "#server/web/flash.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { ActionFailure } from "#server/web/respond.ts";
import type { Route } from "./+types/auth";

export async function loader(args: Route.LoaderArgs) {
  const page = await serveLoader(args, authPage);
  if ("goTo" in page) throw redirect(page.goTo);
  return page;
}

/** Each of the page's forms (its `intent`): one operation, then where the browser goes. */
export async function action(args: Route.ActionArgs) {
  const { config } = args.context.services;
  const redirectTo = safeRedirect(args.url.searchParams.get("redirect"));
  const signedIn = ({ setCookies }: { setCookies: string[] }) => redirectWithFlash(config, redirectTo, "success", "Signed in successfully!", setCookies);
  return serveIntents(args, {
    "sign-in": answering(signInForm, async ({ twoFactor, setCookies }) =>
      // Password accepted; the account wants its second factor.
      twoFactor ? data({ twoFactor: true }, { headers: setCookieHeaders(setCookies) }) : signedIn({ setCookies }),
    ),
    "verify-totp": answering(verifyTotpForm, signedIn),
    "verify-backup-code": answering(verifyBackupCodeForm, signedIn),
    "sign-up": answering(signUpForm, async ({ signedIn: done, setCookies }) =>
      // The address already has an account: its owner was e-mailed, and nobody is signed in.
      done ? redirectWithFlash(config, redirectTo, "success", "Account created! Redirecting...", setCookies) : { success: SIGN_UP_CHECK_INBOX },
    ),
    "forgot-password": answering(forgotPasswordForm, () => ({ success: "Password reset email sent! Check your inbox." })),
    social: answering(socialSignInForm, ({ url, setCookies }) => redirect(url, { headers: setCookieHeaders(setCookies) })),
  });
}

export const meta = ({ data }: Route.MetaArgs) =>
  pageMeta(data?.title ?? PRODUCT_NAME, "Sign in or create a free Digs & Gigs account.");

/** What the page reads of an answer: one form's success, or a failure's messages. */
type Answer = Partial<ActionFailure> & { success?: string; twoFactor?: boolean; intent?: string };

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  const answer: Answer | undefined = actionData;
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const busy = busyIntent !== null;
  // A failure names its form; the form last sent covers answers that do not (JavaScript on).
  const sentIntent = useAnsweredIntent(busyIntent);
  const answeredIntent = answer?.intent ?? sentIntent;
  const initialType = searchParams.get("type") === "digger" ? "digger" : "consumer";
  const [userType, setUserType] = useState<string>(initialType);
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const signUpForm = useSignUpChoices(setUserType, setAgeConfirmed);
  // A social sign-up that lacked the 18+ box comes back to the tab that has it.
  const toSignUp = searchParams.get("tab") === "signup" || searchParams.get("error") === "AGE_CONFIRMATION_REQUIRED";
  const [tab, setTab] = useState(toSignUp ? "signup" : "signin");
  const forgot = searchParams.get("view") === "forgot";
  // loaderData.error is a failed social sign-in's message; the same object each render, so it is toasted once.
  useActionToast(answer ?? loaderData);
  const fieldErrors = inlineErrors(answer);
  const errorsOf = (intent: string) => (answeredIntent === intent ? fieldErrors : {});
  // A wrong or missing code keeps the two-factor step.
  const twoFactor = answer?.twoFactor || (answer?.error !== undefined && answeredIntent?.startsWith("verify-"));
  const signInErrors = errorsOf("sign-in");
  const signUpErrors = errorsOf("sign-up");
  const resetErrors = errorsOf("forgot-password");
  const withView = (view: string | null) => {
    const next = new URLSearchParams(searchParams);
    if (view) next.set("view", view);
    else next.delete("view");
    return `?${next.toString()}`;
  };

  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-6 text-center text-3xl font-bold tracking-tight">{loaderData.title}</h1>
      {twoFactor ? (
        <TwoFactorStep busyIntent={busyIntent} />
      ) : forgot ? (
        <Card>
          <CardHeader>
            <CardTitle>Reset your password</CardTitle>
            <CardDescription>We will e-mail you a link to choose a new password.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" noValidate className="grid gap-4">
              <input type="hidden" name="intent" value="forgot-password" />
              <FormField id="reset-email" label="Email" error={resetErrors.email}>
                <Input {...fieldControlProps("reset-email", { error: resetErrors.email })} name="email" type="email" autoComplete="email" required />
              </FormField>
              <Button type="submit" disabled={busy}>
                {busyIntent === "forgot-password" ? "Sending..." : "Send Reset Link"}
              </Button>
              <Button asChild variant="link">
                <Link to={withView(null)}>Back to Sign In</Link>
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : (
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList className="grid w-full grid-cols-2">
            <TabsTrigger value="signin">Sign In</TabsTrigger>
            <TabsTrigger value="signup">Sign Up</TabsTrigger>
          </TabsList>

          <TabsContent value="signin">
            <Card>
              <CardContent className="grid gap-4 pt-6">
                <SocialButtons userType={initialType} busy={busy} available={loaderData.socialProviders} />
                <Divider />
                <Form method="post" noValidate className="grid gap-4" onSubmit={fillBrowserZone}>
                  <input type="hidden" name="intent" value="sign-in" />
                  <input type="hidden" name="timeZone" />
                  <FormField id="signin-email" label="Email" error={signInErrors.email}>
                    <Input {...fieldControlProps("signin-email", { error: signInErrors.email })} name="email" type="email" autoComplete="email" required />
                  </FormField>
                  <FormField id="signin-password" label="Password" error={signInErrors.password}>
                    <PasswordInput {...fieldControlProps("signin-password", { error: signInErrors.password })} name="password" autoComplete="current-password" required />
                  </FormField>
                  <Button type="submit" disabled={busy}>
                    {busyIntent === "sign-in" ? "Signing in..." : "Sign In"}
                  </Button>
                  <Button asChild variant="link">
                    <Link to={withView("forgot")}>Forgot password?</Link>
                  </Button>
                </Form>
              </CardContent>
            </Card>
          </TabsContent>

          <TabsContent value="signup">
            <Card>
              <CardContent className="grid gap-4 pt-6">
                <Form method="post" noValidate className="grid gap-4" id="signup-form" ref={signUpForm} onSubmit={fillBrowserZone}>
                  <input type="hidden" name="intent" value="sign-up" />
                  <input type="hidden" name="timeZone" />
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 text-sm font-medium">I am a</legend>
                    <div className="grid grid-cols-2 gap-3">
                      <UserTypeOption value="consumer" title="Consumer" detail="Looking for services" selected={userType} onSelect={setUserType} />
                      <UserTypeOption value="digger" title="Digger" detail="Service provider" selected={userType} onSelect={setUserType} />
                    </div>
                  </fieldset>
                </Form>
                <SocialButtons userType={userType} ageConfirmed={ageConfirmed} busy={busy} available={loaderData.socialProviders} />
                <Divider />
                <div className="grid gap-4">
                  <FormField id="signup-name" label="Full Name" error={signUpErrors.fullName}>
                    <Input {...fieldControlProps("signup-name", { error: signUpErrors.fullName })} name="fullName" form="signup-form" autoComplete="name" required maxLength={100} />
                  </FormField>
                  <FormField id="signup-email" label="Email" error={signUpErrors.email}>
                    <Input {...fieldControlProps("signup-email", { error: signUpErrors.email })} name="email" form="signup-form" type="email" autoComplete="email" required />
                  </FormField>
                  <FormField id="signup-password" label="Password" error={signUpErrors.password}>
                    <PasswordInput {...fieldControlProps("signup-password", { error: signUpErrors.password })} name="password" form="signup-form" autoComplete="new-password" required minLength={6} />
                  </FormField>
                  <div className="grid gap-1">
                    <div className="flex items-center gap-2">
                      <NativeCheckbox
                        id="signup-age"
                        name="ageConfirmed"
                        form="signup-form"
                        required
                        defaultChecked={ageConfirmed}
                        aria-invalid={signUpErrors.ageConfirmed ? true : undefined}
                        aria-describedby={signUpErrors.ageConfirmed ? "signup-age-error" : undefined}
                        onChange={(event) => setAgeConfirmed(event.currentTarget.checked)}
                      />
                      <Label htmlFor="signup-age">I confirm I am 18 or older</Label>
                    </div>
                    <FieldMessage id="signup-age" error={signUpErrors.ageConfirmed} />
                  </div>
                  <Button type="submit" form="signup-form" disabled={busy}>
                    {busyIntent === "sign-up" ? "Creating account..." : "Sign Up"}
                  </Button>
                </div>
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}

/**
 * The form the last answer is for. A failure carries only its messages, so the page keeps
 * the intent it sent (while `busyIntent` is being submitted) to show them beside that form.
 */
function useAnsweredIntent(busyIntent: string | null): string | null {
  const [sent, setSent] = useState<string | null>(null);
  if (busyIntent !== null && busyIntent !== sent) setSent(busyIntent);
  return sent;
}

function Divider() {
  return (
    <div className="flex items-center gap-3 text-xs uppercase text-muted-foreground">
      <span className="h-px flex-1 bg-border" />
      Or continue with email
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}

/**
 * The Sign Up form's native choices are uncontrolled (they work before hydration), and the
 * page keeps what they say for the social buttons and for the panel coming back after a switch
 * of tab. A choice made before hydration is read from the form once it is there.
 */
function useSignUpChoices(setUserType: (type: string) => void, setAgeConfirmed: (confirmed: boolean) => void) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    const type = elements.namedItem("userType");
    if (type instanceof RadioNodeList && type.value) setUserType(type.value);
    const age = elements.namedItem("ageConfirmed");
    if (age instanceof HTMLInputElement) setAgeConfirmed(age.checked);
  }, [setUserType, setAgeConfirmed]);
  return form;
}

function UserTypeOption({ value, title, detail, selected, onSelect }: { value: string; title: string; detail: string; selected: string; onSelect: (value: string) => void }) {
  return (
    <Label
      htmlFor={`type-${value}`}
      className="flex cursor-pointer items-start gap-3 rounded-md border p-3 has-[:checked]:border-primary-strong"
    >
      <NativeRadio
        id={`type-${value}`}
        name="userType"
        value={value}
        defaultChecked={selected === value}
        aria-label={`${title} (${detail})`}
        onChange={(event) => event.currentTarget.checked && onSelect(value)}
      />
      <span className="grid gap-1">
        <span className="font-medium">{title}</span>
        <span className="text-xs font-normal text-muted-foreground">{detail}</span>
      </span>
    </Label>
  );
}

function TwoFactorStep({ busyIntent }: { busyIntent: string | null }) {
  const [useBackup, setUseBackup] = useState(false);
  const intent = useBackup ? "verify-backup-code" : "verify-totp";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-factor authentication</CardTitle>
        <CardDescription>
          {useBackup ? "Enter one of your backup codes." : "Enter the 6-digit code from your authenticator app."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" noValidate className="grid gap-4" onSubmit={fillBrowserZone}>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="timeZone" />
          <FormField id="two-factor-code" label={useBackup ? "Backup code" : "Authentication code"}>
            <Input
              {...fieldControlProps("two-factor-code")}
              name="code"
              autoComplete="one-time-code"
              inputMode={useBackup ? "text" : "numeric"}
              required
              autoFocus
            />
          </FormField>
          <Button type="submit" disabled={busyIntent !== null}>
            {busyIntent === intent ? "Verifying..." : "Verify"}
          </Button>
          <Button type="button" variant="link" onClick={() => setUseBackup((v) => !v)}>
            {useBackup ? "Use your authenticator app" : "Use a backup code"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
