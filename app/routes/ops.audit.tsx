import { Form } from "react-router";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { AuditList } from "#app/features/ops/audit-list.tsx";
import { OPERATOR_ACTION_FILTERS } from "#core/operator-actions.ts";
import { auditPage } from "#server/ops/audit-log.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops.audit";

/** Audit log: every operator action, newest first, filtered by action, operator and affected user. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, auditPage);
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filters, page } = loaderData;
  return (
    <div>
      <PageHeader title="Audit log" subtitle="Every operator action: who, what, on which record, why and when. Nothing here can be changed or removed." />
      <Form method="get" className="mb-6 grid gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end" role="search" aria-label="Filter the audit log">
        <div className="grid gap-1">
          <Label htmlFor="audit-action">Action</Label>
          <NativeSelect id="audit-action" name="action" defaultValue={filters.action}>
            <option value="">All actions</option>
            {Object.entries(OPERATOR_ACTION_FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-operator">Operator e-mail</Label>
          <Input id="audit-operator" name="operator" type="search" defaultValue={filters.operator} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-user">User e-mail</Label>
          <Input id="audit-user" name="user" type="search" defaultValue={filters.user} />
        </div>
        <Button type="submit">Filter</Button>
      </Form>
      <AuditList entries={page.items} />
      <NextPageLink nextCursor={page.nextCursor} label="Older actions" />
    </div>
  );
}
