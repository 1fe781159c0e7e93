import { data, Form, redirect, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { LeadAlertsCard } from "#app/features/account/lead-alerts-card.tsx";
import { PushDevicesCard } from "#app/features/account/push-devices-card.tsx";
import { DeleteAccountCard, DownloadDataCard, EmailPreferencesCard } from "#app/features/account/privacy-cards.tsx";
import { ReachCard } from "#app/features/account/reach-card.tsx";
import { AccountPhoneCard } from "#app/features/phones/account-phone-card.tsx";
import { ClientRecordCard } from "#app/features/gigs/client-record.tsx";
import { ClientReviewsSection } from "#app/features/gigs/client-reviews-section.tsx";
import { TimeZoneCard } from "#app/features/account/time-zone-card.tsx";
import { PasswordInput } from "#app/features/sign-in/password-input.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { LEAD_ALERT_MESSAGES } from "#core/lead-alerts.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { DELETE_ACCOUNT_MESSAGES } from "#core/privacy-schemas.ts";
import { REACH_MESSAGES } from "#core/reach.ts";
import { TWO_WAY_TEXTS } from "#core/two-way-reviews.ts";
import type { TwoFactorEnrolment } from "#server/sign-in/start-two-factor.ts";
import { PUSH_MESSAGES } from "#core/push-schemas.ts";
import { accountPage } from "#server/account/account-page.ts";
import { saveAccountTimeZone, TIME_ZONE_MESSAGES } from "#server/account/save-time-zone.ts";
import { saveAccountLeadAlerts } from "#server/alerts/save-lead-alerts.ts";
import { ACCOUNT_CODE_STEP, type AccountCodeOutcome } from "#server/phones/account-phone.ts";
import { removeAccountPhone } from "#server/phones/remove-account-phone.ts";
import { saveAccountPhone } from "#server/phones/save-account-phone.ts";
import { verifyAccountPhone } from "#server/phones/verify-account-phone.ts";
import { deleteMyAccount } from "#server/privacy/delete-account.ts";
import { saveAccountEmailPreferences } from "#server/privacy/save-email-preferences.ts";
import { removeAccountPushDevice } from "#server/push/remove-push-device.ts";
import { turnOnAccountPush } from "#server/push/turn-on-push.ts";
import { saveAccountReach } from "#server/reach/save-reach-preferences.ts";
import { reportOwnClientReview } from "#server/reviews/report-own-client-review.ts";
import { changeAccountPassword } from "#server/sign-in/change-password.ts";
import { confirmTwoFactor } from "#server/sign-in/confirm-two-factor.ts";
import { newBackupCodes } from "#server/sign-in/new-backup-codes.ts";
import { startTwoFactor } from "#server/sign-in/start-two-factor.ts";
import { turnOffTwoFactor } from "#server/sign-in/turn-off-two-factor.ts";
import { redirectWithFlash, setCookieHeaders } from "#server/web/flash.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { ActionFailure } from "#server/web/respond.ts";
import type { Route } from "./+types/account";

export const meta = () =>
  pageMeta("Account", "Your Digs & Gigs account: password, two-factor authentication, lead alerts, how to reach you and your data.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, accountPage);
}

/** Each of the page's forms (its `intent`): one operation, then what the page shows or where it goes. */
/** The Phone card's Save and 'Verify this number': on to the code step when a code went out (issue 49). */
const phoneAnswer = (saved: string | null) => (outcome: AccountCodeOutcome) =>
  outcome.sent ? redirect(ACCOUNT_CODE_STEP) : { success: [saved, outcome.notice].filter(Boolean).join(" ") || undefined };

export async function action(args: Route.ActionArgs) {
  const { config } = args.context.services;
  return serveIntents(args, {
    "change-password": answering(changeAccountPassword, ({ setCookies }) =>
      data({ success: "Password changed. You have been signed out on your other devices." }, { headers: setCookieHeaders(setCookies) }),
    ),
    "enable-two-factor": answering(startTwoFactor, ({ enrolment, backupCodes, setCookies }) =>
      data({ enrolment, backupCodes }, { headers: setCookieHeaders(setCookies) }),
    ),
    "confirm-two-factor": answering(confirmTwoFactor, ({ setCookies }) =>
      redirectWithFlash(config, "/account", "success", "Two-factor authentication is on.", setCookies),
    ),
    "disable-two-factor": answering(turnOffTwoFactor, ({ setCookies }) =>
      redirectWithFlash(config, "/account", "success", "Two-factor authentication is off.", setCookies),
    ),
    "new-backup-codes": answering(newBackupCodes, ({ backupCodes }) => ({ backupCodes, success: "New backup codes made. The old ones no longer work." })),
    "email-preferences": answering(saveAccountEmailPreferences, ({ promotionalEmail }) => ({
      success: promotionalEmail ? "Promotional e-mail is on." : "Promotional e-mail is off. Transactional e-mail still arrives.",
    })),
    "time-zone": answering(saveAccountTimeZone, () => ({ success: TIME_ZONE_MESSAGES.saved })),
    reach: answering(saveAccountReach, () => ({ success: REACH_MESSAGES.saved })),
    "phone-save": answering(saveAccountPhone, phoneAnswer(PHONE_TEXTS.accountPhoneSaved)),
    "phone-verify": answering(verifyAccountPhone, phoneAnswer(null)),
    "phone-remove": answering(removeAccountPhone, () => ({ success: PHONE_TEXTS.accountPhoneRemoved })),
    "lead-alerts": answering(saveAccountLeadAlerts, () => ({ success: LEAD_ALERT_MESSAGES.saved })),
    "push-on": answering(turnOnAccountPush, () => ({ success: PUSH_MESSAGES.turnedOn })),
    "push-remove": answering(removeAccountPushDevice, () => ({ success: PUSH_MESSAGES.removed })),
    "delete-account": answering(deleteMyAccount, ({ setCookies }) =>
      redirectWithFlash(config, "/", "success", DELETE_ACCOUNT_MESSAGES.deleted, setCookies),
    ),
    "report-review": reportOwnClientReview,
  });
}

/** What the page reads of an answer: one form's success, or a failure's messages. */
type Answer = Partial<ActionFailure> & { success?: string; enrolment?: TwoFactorEnrolment; backupCodes?: string[]; reportedReviewId?: string };

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const answer: Answer | undefined = actionData;
  const { user, promotionalEmail, leadAlerts, pushDevices, reach, phone, timeZone, clientRecord } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent")) : null;
  useActionToast(answer);
  // Each form's fields have names of their own, so a failure's messages find their form.
  const fieldErrors = inlineErrors(answer);

  return (
    <div className="grid gap-6">
      <PageHeader title="Account" subtitle="Your sign-in details, security and privacy." />
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <p>
            <span className="text-muted-foreground">Name:</span> {user.name}
          </p>
          <p>
            <span className="text-muted-foreground">Email:</span> {user.email}
          </p>
          <p>
            <span className="text-muted-foreground">Account type:</span>{" "}
            <Badge variant="secondary">{user.userType === "digger" ? "Digger" : "Consumer"}</Badge>
          </p>
        </CardContent>
      </Card>

      {clientRecord ? (
        // A client's own record with diggers (issue 51): the lines diggers read on their gig pages, and the reviews.
        <>
          <ClientRecordCard lines={clientRecord.lines} rating={clientRecord.rating} title={TWO_WAY_TEXTS.accountTitle} hint={TWO_WAY_TEXTS.accountHint} />
          <ClientReviewsSection page={clientRecord.reviews.page} firstPage={clientRecord.reviews.firstPage} report={{ open: clientRecord.reportOpen, result: answer }} />
        </>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>Changing it signs you out on your other devices.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" noValidate className="grid max-w-sm gap-4">
            <input type="hidden" name="intent" value="change-password" />
            <FormField id="current-password" label="Current Password" error={fieldErrors.currentPassword}>
              <PasswordInput {...fieldControlProps("current-password", { error: fieldErrors.currentPassword })} name="currentPassword" autoComplete="current-password" required />
            </FormField>
            <FormField id="new-password" label="New Password" error={fieldErrors.newPassword}>
              <PasswordInput {...fieldControlProps("new-password", { error: fieldErrors.newPassword })} name="newPassword" autoComplete="new-password" required minLength={6} />
            </FormField>
            <Button type="submit" disabled={busyIntent !== null}>
              {busyIntent === "change-password" ? "Saving..." : "Change Password"}
            </Button>
          </Form>
        </CardContent>
      </Card>

      <AccountPhoneCard card={phone} error={fieldErrors.accountPhone} busyIntent={busyIntent} />
      <TimeZoneCard card={timeZone} error={fieldErrors.timeZone} busyIntent={busyIntent} />
      <TwoFactorCard enabled={user.twoFactorEnabled} answer={answer} busyIntent={busyIntent} />
      {leadAlerts ? <LeadAlertsCard card={leadAlerts} errors={fieldErrors} busyIntent={busyIntent} /> : null}
      {pushDevices ? <PushDevicesCard card={pushDevices} /> : null}
      <ReachCard card={reach} busyIntent={busyIntent} />
      <EmailPreferencesCard promotionalEmail={promotionalEmail} busyIntent={busyIntent} />
      <DownloadDataCard />
      <DeleteAccountCard error={fieldErrors.confirmEmail} busyIntent={busyIntent} />
    </div>
  );
}

function TwoFactorCard({
  enabled,
  answer,
  busyIntent,
}: {
  enabled: boolean;
  answer: Answer | undefined;
  busyIntent: string | null;
}) {
  const enrolment = answer?.enrolment;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          Two-factor authentication{" "}
          <Badge variant={enabled ? "default" : "outline"}>{enabled ? "On" : "Off"}</Badge>
        </CardTitle>
        <CardDescription>
          With an authenticator app, signing in asks for a 6-digit code as well as your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {enrolment ? (
          <div className="grid gap-4">
            <p className="text-sm">1. Scan this QR code with your authenticator app.</p>
            <div
              className="size-48 rounded border bg-white p-2"
              role="img"
              aria-label="QR code for your authenticator app"
              dangerouslySetInnerHTML={{ __html: enrolment.qrCodeSvg }}
            />
            <details className="text-sm">
              <summary className="cursor-pointer">Can't scan it? Show the setup key</summary>
              <code className="mt-2 block break-all">{new URL(enrolment.secretUri).searchParams.get("secret")}</code>
            </details>
            <BackupCodes codes={answer?.backupCodes ?? []} />
            <Form method="post" noValidate className="grid max-w-sm gap-4">
              <input type="hidden" name="intent" value="confirm-two-factor" />
              <FormField id="totp-code" label="2. Enter the 6-digit code from your app">
                <Input {...fieldControlProps("totp-code")} name="code" inputMode="numeric" autoComplete="one-time-code" required />
              </FormField>
              <Button type="submit" disabled={busyIntent !== null}>
                {busyIntent === "confirm-two-factor" ? "Verifying..." : "Turn On Two-Factor"}
              </Button>
            </Form>
          </div>
        ) : enabled ? (
          <div className="grid gap-6">
            {answer?.backupCodes ? <BackupCodes codes={answer.backupCodes} /> : null}
            <PasswordForm intent="new-backup-codes" label="New Backup Codes" busyIntent={busyIntent} variant="outline" />
            <PasswordForm intent="disable-two-factor" label="Turn Off Two-Factor" busyIntent={busyIntent} variant="destructive" />
          </div>
        ) : (
          <PasswordForm intent="enable-two-factor" label="Set Up Two-Factor" busyIntent={busyIntent} variant="default" />
        )}
      </CardContent>
    </Card>
  );
}

function PasswordForm({
  intent,
  label,
  busyIntent,
  variant,
}: {
  intent: string;
  label: string;
  busyIntent: string | null;
  variant: "default" | "outline" | "destructive";
}) {
  return (
    <Form method="post" noValidate className="grid max-w-sm gap-3">
      <input type="hidden" name="intent" value={intent} />
      <FormField id={`${intent}-password`} label="Confirm with your password">
        <PasswordInput id={`${intent}-password`} name="password" autoComplete="current-password" required />
      </FormField>
      <Button type="submit" variant={variant} disabled={busyIntent !== null}>
        {busyIntent === intent ? "Working..." : label}
      </Button>
    </Form>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  if (codes.length === 0) return null;
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">Backup codes: keep them somewhere safe. Each works once.</p>
      <ul aria-label="Backup codes" className="grid max-w-sm grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}
