import { Link } from "#app/components/link.tsx";
import { REFUND_RATE_LABEL, refundRateValue } from "#core/lead-issues.ts";
import type { OpsUserAccount } from "#core/ops-users.ts";

/** The account's facts: type, dates, confirmation, two-factor, operator role and standing. */
export function AccountFacts({ account }: { account: OpsUserAccount }) {
  const facts: Array<[string, React.ReactNode]> = [
    ["Type", account.userType === "digger" ? "Digger" : "Consumer"],
    ["Joined", account.joinedText],
    ["E-mail confirmed", account.emailVerified ? "Yes" : "No"],
    ["Two-factor", account.twoFactorEnabled ? "On" : "Off"],
    ["Operator", account.operatorSinceText ? `Since ${account.operatorSinceText}` : "No"],
  ];
  if (account.diggerId) {
    facts.push([
      "Digger profile",
      <Link key="profile" to={`/digger/${account.diggerId}`} className="underline">
        @{account.handle}
      </Link>,
    ]);
  }
  if (account.refundRate) facts.push([REFUND_RATE_LABEL, refundRateValue(account.refundRate)]);
  facts.push(["Status", account.standingText]);
  if (account.suspendedReason) facts.push(["Suspension reason", account.suspendedReason]);
  return (
    <dl className="grid gap-x-6 gap-y-2 rounded-md border p-4 text-sm grid-cols-[max-content_1fr]" aria-label="Account">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-muted-foreground">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
