import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { AccountBadges } from "#app/features/ops/account-badges.tsx";
import { AccountFacts } from "#app/features/ops/account-facts.tsx";
import { AuditList } from "#app/features/ops/audit-list.tsx";
import { StandingForm } from "#app/features/ops/standing-form.tsx";
import { UserActivity } from "#app/features/ops/user-activity.tsx";
import { changeAccountStanding } from "#server/ops/account-standing-change.ts";
import { userPage } from "#server/ops/user-page.ts";
import { serveIntents, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.users.$userId";

export const meta = ({ data }: Route.MetaArgs) => [
  ...pageMeta(data ? `${data.user.account.name} · Users` : "Users", "A user's account in the operator console."),
  { name: "robots", content: "noindex" },
];

/** A user's account, standing, activity and operator history. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, userPage);
}

/** Suspend or Reinstate, with a reason. */
export async function action(args: Route.ActionArgs) {
  return serveIntents(args, { suspend: changeAccountStanding, reinstate: changeAccountStanding });
}

export default function OpsUser({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const { user, history, self } = loaderData;
  const { account } = user;
  return (
    <div className="grid gap-8">
      <div>
        <p className="mb-2 text-sm">
          {/* Not named "Users": the console's menu has that link. */}
          <Link to="/ops/users" className="underline">
            Back to the search
          </Link>
        </p>
        <PageHeader title={account.name} subtitle={account.email}>
          <AccountBadges
            account={{ userType: account.userType, operator: account.operatorSince !== null, suspended: account.suspendedAt !== null, deleted: account.deletedAt !== null }}
          />
        </PageHeader>
        <AccountFacts account={account} />
      </div>
      <StandingForm account={account} self={self} fieldErrors={actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined} />
      <UserActivity user={user} />
      <section aria-labelledby="operator-history">
        <h2 id="operator-history" className="mb-3 text-xl font-semibold">
          Operator history
        </h2>
        <AuditList entries={history.items} empty="No operator actions about this user." />
        <NextPageLink nextCursor={history.nextCursor} label="Older actions" />
      </section>
    </div>
  );
}
