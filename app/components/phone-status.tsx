import { CircleCheck, CircleHelp } from "#app/components/icons.tsx";
import { PHONE_TEXTS, type PhoneStatus as Status } from "#core/phone-verification.ts";

/**
 * A gig's phone as a digger reads it before buying (issue 49): 'Phone verified' with a green tick,
 * or 'Phone not verified'; nothing when the status is null (no phone, or verification off). The
 * number itself is never part of it. Also beside the number once bought, and on the client's own
 * gigs and account.
 */
export function PhoneStatus({ status, large = false, className = "" }: { status: Status | null; large?: boolean; className?: string }) {
  if (status === null) return null;
  const verified = status === "verified";
  const Icon = verified ? CircleCheck : CircleHelp;
  // The size is a prop, not a class from outside: two text sizes on one element would fight.
  return (
    <span className={`inline-flex items-center gap-1 ${large ? "text-base" : "text-sm"} ${verified ? "text-verified" : "text-muted-foreground"} ${className}`}>
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      {verified ? PHONE_TEXTS.verified : PHONE_TEXTS.notVerified}
    </span>
  );
}
