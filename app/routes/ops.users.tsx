import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { AccountBadges } from "#app/features/ops/account-badges.tsx";
import { USER_SEARCH_MAX } from "#core/ops-users.ts";
import { usersPage } from "#server/ops/user-search.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.users";

/** Users: every account newest first, or those whose name, e-mail or handle contains the search. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, usersPage);
}

export default function OpsUsers({ loaderData }: Route.ComponentProps) {
  const { q, page } = loaderData;
  return (
    <div>
      <PageHeader title="Users" subtitle="Find an account by e-mail, name or digger handle." />
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3" role="search" aria-label="Search users">
        <div className="grid min-w-0 flex-1 basis-56 gap-1">
          <Label htmlFor="users-q">E-mail, name or handle</Label>
          <Input id="users-q" name="q" type="search" defaultValue={q} maxLength={USER_SEARCH_MAX} />
        </div>
        <Button type="submit">Search</Button>
      </Form>
      {page.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{q ? "No account matches." : "No accounts yet."}</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Users">
          {page.items.map((user) => (
            <li key={user.id} className="grid gap-1 p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
              <div className="min-w-0">
                <Link to={`/ops/users/${user.id}`} className="font-semibold underline">
                  {user.name}
                </Link>
                <p className="break-all text-muted-foreground">
                  {user.email}
                  {user.handle ? ` · @${user.handle}` : null}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2 sm:justify-end">
                <AccountBadges account={user} />
                <span className="text-xs text-muted-foreground">Joined {user.createdAtText}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <NextPageLink nextCursor={page.nextCursor} label="More users" />
    </div>
  );
}
