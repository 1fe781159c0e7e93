import { Outlet } from "react-router";
import { NavLink } from "#app/components/link.tsx";
import { Alert, AlertDescription } from "#app/components/ui/alert.tsx";
import { cn } from "#app/lib/cn.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { consoleFrame } from "#server/ops/access.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops";

export const meta = () => [...pageMeta("Operator console", "Verification, moderation and payments."), { name: "robots", content: "noindex" }];

/** The operator console's frame: its left-hand menu and, in local mode without two-factor, the banner. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, consoleFrame);
}

const OPS_SECTIONS = [
  { to: "/ops/verification", label: "Verification queue" },
  { to: "/ops/users", label: "Users" },
  { to: "/ops/gigs", label: "Gigs" },
  { to: "/ops/reviews", label: "Reviews" },
  { to: "/ops/messages", label: "Messages" },
  { to: "/ops/payments", label: "Payments" },
  { to: "/ops/audit", label: "Audit log" },
] as const;

export default function OpsLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <nav aria-label="Operator console" className="md:w-48 md:shrink-0">
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Operator console</p>
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {OPS_SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                className={({ isActive }) =>
                  cn("block whitespace-nowrap rounded-md px-3 py-2 text-sm hover:bg-muted", isActive && "bg-muted font-semibold")
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        {loaderData.notice ? (
          <Alert className="mb-6" role="status">
            <AlertDescription>{loaderData.notice}</AlertDescription>
          </Alert>
        ) : null}
        <Outlet />
      </div>
    </div>
  );
}
