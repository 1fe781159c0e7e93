import { Form, useNavigation } from "react-router";
import { NextPageLink } from "#app/components/next-page-link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useActionToast } from "#app/lib/use-action-toast.ts";
import { decideReferenceRequest } from "#server/diggers/decide-reference-request.ts";
import { referenceRequestsPage } from "#server/diggers/view-reference-requests.ts";
import { serveAction, serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/reference-requests";

export const meta = () => pageMeta("Reference Requests", "Clients asking for your references' contact details.");

export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, referenceRequestsPage);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, decideReferenceRequest);
}

const STATUS = {
  pending: { label: "Pending", variant: "secondary" },
  approved: { label: "Approved", variant: "default" },
  rejected: { label: "Declined", variant: "outline" },
} as const;

export default function ReferenceRequests({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData);
  const navigation = useNavigation();
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("requestId") : null;
  return (
    <div>
      <PageHeader title="Reference Requests" subtitle="Clients asking for your references' contact details." />
      {loaderData.items.length === 0 ? (
        <p className="py-12 text-center text-muted-foreground">No reference requests yet.</p>
      ) : (
        <Card>
          <CardContent className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">Client</th>
                  <th scope="col" className="py-2 pr-4 font-medium">Reference</th>
                  <th scope="col" className="py-2 pr-4 font-medium">Requested</th>
                  <th scope="col" className="py-2 pr-4 font-medium">Status</th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.items.map((row) => (
                  <tr key={row.id} className="border-t">
                    <td className="py-3 pr-4">{row.clientName}</td>
                    <td className="py-3 pr-4">{row.referenceName}</td>
                    <td className="py-3 pr-4">
                      <time dateTime={row.createdAt}>{row.createdAtText}</time>
                    </td>
                    <td className="py-3 pr-4">
                      <Badge variant={STATUS[row.status].variant}>{STATUS[row.status].label}</Badge>
                    </td>
                    <td className="py-3">
                      {row.status === "pending" ? (
                        <Form method="post" className="flex gap-2">
                          <input type="hidden" name="requestId" value={row.id} />
                          <Button type="submit" size="sm" name="decision" value="approve" disabled={busyId === row.id}>
                            Approve<span className="sr-only"> request from {row.clientName}</span>
                          </Button>
                          <Button type="submit" size="sm" variant="outline" name="decision" value="decline" disabled={busyId === row.id}>
                            Decline<span className="sr-only"> request from {row.clientName}</span>
                          </Button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      )}
      <NextPageLink nextCursor={loaderData.nextCursor} label="Next page" />
    </div>
  );
}
