import { Badge } from "#app/components/ui/badge.tsx";

/** An account's type and standing as badges: Digger or Consumer, Operator, Suspended, Deleted. */
export function AccountBadges({ account }: { account: { userType: "consumer" | "digger"; operator: boolean; suspended: boolean; deleted: boolean } }) {
  return (
    <span className="flex flex-wrap gap-1">
      <Badge variant="outline">{account.userType === "digger" ? "Digger" : "Consumer"}</Badge>
      {account.operator ? <Badge variant="secondary">Operator</Badge> : null}
      {account.suspended ? <Badge variant="destructive">Suspended</Badge> : null}
      {account.deleted ? <Badge variant="outline">Deleted</Badge> : null}
    </span>
  );
}
