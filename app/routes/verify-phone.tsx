import { data, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { CodeStep, NoCodeStep } from "#app/features/phones/code-step.tsx";
import { inlineErrors } from "#app/lib/form-errors.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";
import { safeRedirect } from "#core/redirect.ts";
import { sendNewPhoneCode } from "#server/phones/send-new-code.ts";
import { verifyPhone } from "#server/phones/verify-phone.ts";
import { VERIFY_PHONE_FALLBACK, viewVerifyPhone } from "#server/phones/view-verify-phone.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { answering, serveIntents, serveLoader } from "#server/web/operations.ts";
import type { ActionFailure } from "#server/web/respond.ts";
import type { Route } from "./+types/verify-phone";

export const meta = () => [...pageMeta("Verify Your Phone", "Enter the code we sent to your phone."), { name: "robots", content: "noindex" }];

/** The signed-in account's waiting code (issue 49): its number and when a new code may be sent; never the code. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, viewVerifyPhone);
}

export async function action(args: Route.ActionArgs) {
  const { config } = args.context.services;
  const next = safeRedirect(args.url.searchParams.get("next"), VERIFY_PHONE_FALLBACK);
  return serveIntents(args, {
    verify: answering(verifyPhone, () => redirectWithFlash(config, next, "success", PHONE_TEXTS.verified)),
    "send-new-code": answering(sendNewPhoneCode, () => data({ success: PHONE_TEXTS.newCodeSent })),
  });
}

export default function VerifyPhone({ loaderData, actionData }: Route.ComponentProps) {
  const answer: (Partial<ActionFailure> & { success?: string }) | undefined = actionData;
  const { next, available, code } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent")) : null;
  useActionToast(answer);
  const errors = inlineErrors(answer);
  return (
    <div className="mx-auto grid w-full max-w-md gap-6">
      <PageHeader title="Verify Your Phone" />
      {!available ? (
        <NoCodeStep message={PHONE_TEXTS.unavailable} next={next} />
      ) : code ? (
        // Keyed by the code: a new one starts the countdown again; a wrong try keeps what was typed.
        <CodeStep key={`${code.number}-${code.sentAt}`} number={code.number} resendInSeconds={code.resendInSeconds} next={next} error={errors.code} busyIntent={busyIntent} />
      ) : (
        <NoCodeStep message={PHONE_TEXTS.noCodeWaiting} next={next} />
      )}
    </div>
  );
}
